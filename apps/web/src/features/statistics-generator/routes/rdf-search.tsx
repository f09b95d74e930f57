import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of rdfSearch (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.rdfSearch.title}
      breadcrumbs={[
        HOME,
        { label: paths.statisticsGenerator.title, href: paths.statisticsGenerator.href() },
        { label: paths.rdfSearch.title },
      ]}
      feature="Statistics Generator"
    />
  );
}
