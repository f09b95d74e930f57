import { ALERT_CONFIRM_MS, type User } from '@accord/contracts';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { refreshSession } from '../../../lib/api/session-api.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateUserMutation } from '../api/create-user.ts';
import { useUpdateUserMutation } from '../api/update-user.ts';
import { adminPayload, selfPayload, type UserFormValues } from '../utils/user-form-values.ts';

/**
 * Saving the user form: on 200 an admin goes back to the list, a user on their own record to their
 * page; saving one's own record renews the session so the top bar shows the new name.
 */
export function useSaveUser() {
  const navigate = useNavigate();
  const { user: actingUser, permissions } = useSession();
  const create = useCreateUserMutation();
  const update = useUpdateUserMutation();

  const done = (saved: User, message: string) => {
    notifications.show({ color: 'green', message, autoClose: ALERT_CONFIRM_MS });
    const own = saved.id === actingUser?.id;
    if (own) refreshSession().catch(() => undefined);
    void navigate(permissions.isAdmin ? paths.userList.href() : paths.userPage.href(saved.id));
  };

  const createUser = async (values: UserFormValues) => {
    const payload = adminPayload(values);
    const saved = await create.mutateAsync({ ...payload, password: values.password });
    done(saved, `User "${saved.email}" was created.`);
  };

  const updateUser = async (id: number, values: UserFormValues) => {
    const body = permissions.isAdmin ? adminPayload(values) : selfPayload(values);
    const saved = await update.mutateAsync({ id, body });
    done(saved, saved.id === actingUser?.id ? 'Your profile was saved.' : `User "${saved.email}" was saved.`);
  };

  return { createUser, updateUser, pending: create.isPending || update.isPending };
}
