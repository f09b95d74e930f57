import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of analytics (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.analytics.title}
      breadcrumbs={[HOME, { label: 'Analytics' }]}
      feature="Advanced Analytics"
    />
  );
}
