import { useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { StatisticsWizard } from '../components/statistics-wizard.tsx';

/** /rdf_upload (new upload) and /rdf_upload/{id} (an existing study, from step 3). */
export function Component() {
  const { id } = useParams();
  const studyId = id && /^\d+$/.test(id) ? Number(id) : null;
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
            ? `Statistics from the results of study ${studyId}.`
            : 'Upload a results data file (RDF) and its likert scale, then choose the tests.'
        }
      />
      <StatisticsWizard key={studyId ?? 'new'} studyId={studyId} />
    </>
  );
}
