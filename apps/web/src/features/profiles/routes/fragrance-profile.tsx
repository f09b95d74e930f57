import { ProfilePage } from '../components/profile-page.tsx';

/** Route module of the fragrance profile, /analytics/profile/{id}/{code}. */
export function Component() {
  return <ProfilePage kind="fragrance" />;
}
