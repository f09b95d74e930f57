import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/** Route module of cics (placeholder until its feature lands). */
export function Component() {
  return (
    <FeaturePlaceholder
      title={paths.cics.title}
      breadcrumbs={[HOME, { label: paths.cics.title }]}
      feature="CICS question search"
    />
  );
}
