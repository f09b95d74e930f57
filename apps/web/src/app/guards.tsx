import type { Permissions, SignedInUser } from '@accord/contracts';
import { Navigate, Outlet, useLocation, useMatches, useParams, type Params } from 'react-router';
import { AppLayout } from '../components/layout/app-layout.tsx';
import { NoAccess } from '../components/no-access.tsx';
import { AuthLayout } from '../components/layout/auth-layout.tsx';
import { paths } from '../config/paths.ts';
import { previousPath } from '../lib/navigation-history.ts';
import { useSession } from '../lib/session.ts';
import { PublicStartup, SignedInStartup } from './bootstrap.tsx';
import { PathMemory, type RouteHandle } from './routes/root.tsx';

/** Every route but login and reset needs sign-in; a signed-out visitor goes to /login. */
export function RequireAuth() {
  const { status } = useSession();
  if (status !== 'signed-in') return <Navigate to={paths.login.href()} replace />;
  return (
    <SignedInStartup>
      <PathMemory />
      <AppLayout />
    </SignedInStartup>
  );
}

/** Login and reset screens, outside the layout. */
export function PublicFrame() {
  return (
    <PublicStartup>
      <AuthLayout />
    </PublicStartup>
  );
}

/** The login screen is pointless once signed in. */
export function RedirectIfSignedIn() {
  const { status } = useSession();
  if (status === 'signed-in') return <Navigate to={paths.home.href()} replace />;
  return <Outlet />;
}

export type AccessRule = (permissions: Permissions, user: SignedInUser, params: Readonly<Params>) => boolean;

/** Admin routes: site settings need admin or help-url rights, user administration admin or user rights. */
export const canOpenSiteSettings: AccessRule = (permissions) =>
  permissions.isAdmin || permissions.canModifyHelpUrl;
export const canOpenUserAdministration: AccessRule = (permissions) =>
  permissions.isAdmin || permissions.canModifyUsers;
/** Anyone may open their own /users/{id} and /users/{id}/edit (Profile settings). */
export const canOpenUserRecord: AccessRule = (permissions, user, params) =>
  canOpenUserAdministration(permissions, user, params) || params.id === String(user.id);

/** A user who may not open a route is sent back to the path they were on (or home). */
export function RequireAccess({ rule }: { rule: AccessRule }) {
  const { user, permissions } = useSession();
  const params = useParams();
  const location = useLocation();
  if (!user || !rule(permissions, user, params)) {
    return <Navigate to={previousPath(location.pathname, paths.home.href())} replace />;
  }
  return <Outlet />;
}

/**
 * Analytics-only sections (document 1 section 6: CICS, Studies Upload, Statistics Generator, roles 1
 * and 2): a user without analytics access who opens one by its address sees the same "No access"
 * page as /analytics, under the screen's title; the server refuses their calls (403) as well.
 */
export function RequireAnalyticsAccess({ section }: { section: string }) {
  const { permissions } = useSession();
  const matches = useMatches();
  if (permissions.isAdmin || permissions.canAccessAnalytics) return <Outlet />;
  const title =
    [...matches]
      .reverse()
      .map((match) => (match.handle as RouteHandle | undefined)?.title)
      .find(Boolean) ?? section;
  return <NoAccess title={title} section={section} />;
}
