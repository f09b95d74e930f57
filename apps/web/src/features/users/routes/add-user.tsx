import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { useRolesQuery } from '../api/get-roles.ts';
import { UserForm } from '../components/user-form.tsx';
import { useSaveUser } from '../hooks/use-save-user.ts';

/** Route module of /users/add (admin only). */
export function Component() {
  const { permissions } = useSession();
  const roles = useRolesQuery();
  const save = useSaveUser();
  return (
    <>
      <PageHeader
        title={paths.addUser.title}
        breadcrumbs={[
          { label: 'Home', href: paths.home.href() },
          { label: paths.userList.title, href: paths.userList.href() },
          { label: paths.addUser.title },
        ]}
      />
      <UserForm
        mode="add"
        roles={roles.data ?? []}
        fullAccess={permissions.isAdmin}
        canSubmit={permissions.isAdmin}
        submitting={save.pending}
        onSubmit={save.createUser}
        backHref={paths.userList.href()}
      />
    </>
  );
}
