import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of studiesUpload (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.studiesUpload.title}
      breadcrumbs={[HOME, { label: paths.studiesUpload.title }]}
      feature="studies upload"
    />
  );
}
