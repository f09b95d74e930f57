import { useParams } from 'react-router';
import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

/** Route module of the concept profile, /analytics/concept/{id}/{code} (placeholder until its feature lands). */
export function Component() {
  const { code = '' } = useParams();
  return (
    <FeaturePlaceholder
      title={`${paths.conceptProfile.title} ${code}`.trim()}
      breadcrumbs={[
        { label: 'Home', href: paths.home.href() },
        { label: 'Search', href: paths.search.href() },
        { label: 'Profile' },
      ]}
      feature="concept profile"
    />
  );
}
