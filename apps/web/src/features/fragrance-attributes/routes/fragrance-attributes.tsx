import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of fragranceAttributes (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.fragranceAttributes.title}
      breadcrumbs={[HOME, { label: paths.fragranceAttributes.title }]}
      feature="Fragrance Profile wizard"
    />
  );
}
