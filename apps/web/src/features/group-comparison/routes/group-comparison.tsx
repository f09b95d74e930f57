import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of groupComparison (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.groupComparison.title}
      breadcrumbs={[HOME, { label: paths.groupComparison.title }]}
      feature="Group Comparison"
    />
  );
}
