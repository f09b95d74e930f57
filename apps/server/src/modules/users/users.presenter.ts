import type { Role, User } from '@accord/contracts';
import type { UserRow } from './users.repository.ts';

/** Exactly the fields of a user that leave the server: never the password hash. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    role: presentRole(row.role),
    role_id: row.roleId,
    status: row.status,
    deleted: row.deleted,
    created_at: row.createdAt.toISOString(),
    last_seen: row.lastSeen ? row.lastSeen.toISOString() : null,
    clients: row.clients,
  };
}

export function presentRole(role: { id: number; slug: string; name: string }): Role {
  return { id: role.id, slug: role.slug, name: role.name };
}

/** The name a user is shown by: first and last name, else the e-mail address. */
export function screenName(row: { firstname: string; lastname: string; email: string }): string {
  const name = `${row.firstname} ${row.lastname}`.trim();
  return name || row.email;
}
