import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of search (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.search.title}
      breadcrumbs={[HOME, { label: 'Search' }]}
      feature="study search"
    />
  );
}
