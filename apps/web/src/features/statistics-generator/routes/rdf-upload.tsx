import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

/** Route module of /rdf_upload and /rdf_upload/{id}, the Statistic Generator wizard (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.rdfUpload.title}
      breadcrumbs={[
        { label: 'Home', href: paths.home.href() },
        { label: paths.statisticsGenerator.title, href: paths.statisticsGenerator.href() },
        { label: paths.rdfUpload.title },
      ]}
      feature="Statistics Generator"
    />
  );
}
