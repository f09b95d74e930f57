import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of categoryProfile (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.categoryProfile.title}
      breadcrumbs={[HOME, { label: paths.categoryProfile.title }]}
      feature="Category Profile"
    />
  );
}
