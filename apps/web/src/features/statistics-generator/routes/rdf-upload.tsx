import { StudyDetailsResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { apiJson } from '../../../lib/api-client.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { StatisticsWizard } from '../components/statistics-wizard.tsx';

/** /rdf_upload (new upload) and /rdf_upload/{id} (an existing study, from step 3). */
export function Component() {
  const { id } = useParams();
  const studyId = id && /^\d+$/.test(id) ? Number(id) : null;
  // The study is named by its CMI number, as every other page names it (the id until it is read).
  const study = useQuery({
    queryKey: ['study', studyId, 'details'],
    queryFn: ({ signal }) =>
      apiJson(`/study/${studyId}`, StudyDetailsResponse, { signal, handledStatuses: [400, 404] }),
    enabled: studyId !== null,
  });
  const studyName = study.data?.c_mi_number ?? `study ${studyId}`;
  return (
    <>
      <PageHeader
        title={paths.rdfUpload.title}
        breadcrumbs={[
          { label: 'Home', href: paths.home.href() },
          { label: paths.statisticsGenerator.title, href: paths.statisticsGenerator.href() },
          ...(studyId !== null ? [{ label: paths.rdfSearch.title, href: paths.rdfSearch.href() }] : []),
          { label: paths.rdfUpload.title },
        ]}
        description={
          studyId !== null
            ? `Statistics from the results of ${studyName}.`
            : 'Upload a results data file (RDF) and its likert scale, then choose the tests.'
        }
      />
      <StatisticsWizard key={studyId ?? 'new'} studyId={studyId} />
    </>
  );
}
