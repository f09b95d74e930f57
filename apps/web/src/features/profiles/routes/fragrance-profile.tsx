import { useParams } from 'react-router';
import { FeaturePlaceholder } from '../../../components/feature-placeholder.tsx';
import { paths } from '../../../config/paths.ts';

/** Route module of the fragrance profile, /analytics/profile/{id}/{code} (placeholder until its feature lands). */
export function Component() {
  const { code = '' } = useParams();
  return (
    <FeaturePlaceholder
      title={`${paths.fragranceProfile.title} ${code}`.trim()}
      breadcrumbs={[
        { label: 'Home', href: paths.home.href() },
        { label: 'Search', href: paths.search.href() },
        { label: 'Profile' },
      ]}
      feature="fragrance profile"
    />
  );
}
