import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of topworst (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.topworst.title}
      breadcrumbs={[HOME, { label: paths.topworst.title }]}
      feature="Best/Worst Testers wizard"
    />
  );
}
