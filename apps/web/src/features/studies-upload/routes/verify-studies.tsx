import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

/** Route module of /studies-upload/{id}, Verify Studies (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.studiesUploadDetails.title}
      breadcrumbs={[
        { label: 'Home', href: paths.home.href() },
        { label: paths.studiesUpload.title, href: paths.studiesUpload.href() },
        { label: paths.studiesUploadDetails.title },
      ]}
      feature="studies upload"
    />
  );
}
