import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { useRolesQuery } from '../api/get-roles.ts';
import { useUserQuery } from '../api/get-user.ts';
import { UserForm } from '../components/user-form.tsx';
import { UserLoading, UserNotFound } from '../components/user-not-found.tsx';
import { useUserIdParam } from '../hooks/use-user-id.ts';
import { displayName } from '../utils/user-form-values.ts';

/** Route module of /users/{id}: the read-only user page. */
export function Component() {
  const id = useUserIdParam();
  const { user: actingUser, permissions } = useSession();
  const user = useUserQuery(id);
  const roles = useRolesQuery({ enabled: permissions.isAdmin });
  const own = id !== null && id === actingUser?.id;
  const name = user.data ? displayName(user.data) : paths.userPage.title;

  const breadcrumbs = permissions.isAdmin
    ? [
        { label: 'Home', href: paths.home.href() },
        { label: paths.userList.title, href: paths.userList.href() },
        { label: name },
      ]
    : [{ label: 'Home', href: paths.home.href() }, { label: name }];

  return (
    <>
      <PageHeader title={name} breadcrumbs={breadcrumbs} description={user.data?.email} />
      {id === null || user.isError ? (
        <UserNotFound />
      ) : user.isPending ? (
        <UserLoading />
      ) : (
        <UserForm
          key={user.data.id}
          mode="view"
          user={user.data}
          roles={roles.data ?? []}
          fullAccess={permissions.isAdmin}
          canSubmit={false}
          backHref={permissions.isAdmin ? paths.userList.href() : paths.home.href()}
          editHref={paths.editUser.href(user.data.id)}
          canEdit={permissions.isAdmin || own}
        />
      )}
    </>
  );
}
