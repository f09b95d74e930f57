import { ProfilePage } from '../components/profile-page.tsx';

/** Route module of the concept profile, /analytics/concept/{id}/{code}: its performance data only. */
export function Component() {
  return <ProfilePage kind="concept" />;
}
