import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of statisticsGenerator (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.statisticsGenerator.title}
      breadcrumbs={[HOME, { label: paths.statisticsGenerator.title }]}
      feature="Statistics Generator"
    />
  );
}
