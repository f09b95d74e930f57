import { ROLE_CLIENT, ROLE_SALES, type UpdateUserRequest, type User } from '@accord/contracts';

export interface UserFormValues {
  email: string;
  firstname: string;
  lastname: string;
  /** Write only: empty keeps the current password on edit. */
  password: string;
  /** One's own current password, needed to change one's own password or e-mail address. */
  current_password: string;
  role_id: string;
  status: 'enabled' | 'disabled';
  clients: string[];
  deleted: boolean;
}

/** Defaults of a new user, and what Reset restores (document 1 section 5). */
export const USER_DEFAULTS = {
  role_id: String(ROLE_CLIENT),
  status: 'enabled',
  clients: [] as string[],
  deleted: false,
} as const;

export const EMPTY_USER: UserFormValues = {
  email: '',
  firstname: '',
  lastname: '',
  password: '',
  current_password: '',
  ...USER_DEFAULTS,
  clients: [],
};

export function valuesFromUser(user: User): UserFormValues {
  return {
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    password: '',
    current_password: '',
    role_id: String(user.role_id),
    status: user.status,
    clients: [...user.clients],
    deleted: user.deleted,
  };
}

/** Roles limited to their clients get the clients selector; sales must have at least one. */
export function roleTakesClients(roleId: string): boolean {
  return roleId === String(ROLE_CLIENT) || roleId === String(ROLE_SALES);
}

export function roleNeedsClient(roleId: string): boolean {
  return roleId === String(ROLE_SALES);
}

/** The full payload an admin sends (document 1 section 7): clients as JSON text. */
export function adminPayload(values: UserFormValues) {
  return {
    email: values.email.trim(),
    firstname: values.firstname.trim(),
    lastname: values.lastname.trim(),
    status: values.status,
    role_id: Number(values.role_id),
    deleted: values.deleted,
    clients: JSON.stringify(roleTakesClients(values.role_id) ? values.clients : []),
    ...(values.password ? { password: values.password } : {}),
    ...(values.current_password ? { current_password: values.current_password } : {}),
  };
}

/** What a non-admin may change on their own record. */
export function selfPayload(values: UserFormValues): UpdateUserRequest {
  return {
    firstname: values.firstname.trim(),
    lastname: values.lastname.trim(),
    ...(values.password ? { password: values.password } : {}),
    ...(values.current_password ? { current_password: values.current_password } : {}),
  };
}

/** Removal keeps the record and marks it deleted. */
export function removalPayload(user: User): UpdateUserRequest {
  return { ...adminPayload({ ...valuesFromUser(user), deleted: true }) };
}

export function displayName(user: Pick<User, 'firstname' | 'lastname' | 'email'>): string {
  const name = `${user.firstname} ${user.lastname}`.trim();
  return name || user.email;
}
