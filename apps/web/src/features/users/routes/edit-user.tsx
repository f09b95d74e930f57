import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { useRolesQuery } from '../api/get-roles.ts';
import { useUserQuery } from '../api/get-user.ts';
import { UserForm } from '../components/user-form.tsx';
import { UserLoading, UserNotFound } from '../components/user-not-found.tsx';
import { useSaveUser } from '../hooks/use-save-user.ts';
import { useUserIdParam } from '../hooks/use-user-id.ts';
import { displayName } from '../utils/user-form-values.ts';

/** Route module of /users/{id}/edit: admins edit anyone, other users only their own record. */
export function Component() {
  const id = useUserIdParam();
  const { user: actingUser, permissions } = useSession();
  const user = useUserQuery(id);
  const roles = useRolesQuery({ enabled: permissions.isAdmin });
  const save = useSaveUser();
  const own = id !== null && id === actingUser?.id;
  const title = own ? 'Profile settings' : paths.editUser.title;

  const breadcrumbs = permissions.isAdmin
    ? [
        { label: 'Home', href: paths.home.href() },
        { label: paths.userList.title, href: paths.userList.href() },
        {
          label: user.data ? displayName(user.data) : 'User',
          href: id ? paths.userPage.href(id) : undefined,
        },
        { label: 'Edit' },
      ]
    : [{ label: 'Home', href: paths.home.href() }, { label: title }];

  return (
    <>
      <PageHeader title={title} breadcrumbs={breadcrumbs} description={user.data?.email} />
      {id === null || user.isError ? (
        <UserNotFound />
      ) : user.isPending ? (
        <UserLoading />
      ) : (
        <UserForm
          key={user.data.id}
          mode="edit"
          user={user.data}
          roles={roles.data ?? []}
          fullAccess={permissions.isAdmin}
          canSubmit={permissions.isAdmin || own}
          ownRecord={own}
          submitting={save.pending}
          onSubmit={(values) => save.updateUser(user.data.id, values)}
          backHref={permissions.isAdmin ? paths.userList.href() : paths.userPage.href(user.data.id)}
        />
      )}
    </>
  );
}
