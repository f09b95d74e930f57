/**
 * The one place that limits study data to a user's clients. Every query that returns study data
 * (search, details, files, analytics, CICS, profiles, exports) adds `studyScope(user)` to its WHERE
 * clause; client and sales users then see only the studies of their clients, whatever the UI shows.
 */
import { isClientScopedRole } from '@accord/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { studies } from '../db/schema.ts';
import type { AuthUser } from '../plugins/auth.ts';

/** SQL condition on a study's client column: true for staff, membership for client-scoped roles. */
export function studyScope(user: AuthUser, clientColumn: AnyPgColumn = studies.client): SQL {
  if (!isClientScopedRole(user.roleId)) return sql`true`;
  if (user.clients.length === 0) return sql`false`;
  return sql`${clientColumn} = any(${sqlTextArray(user.clients)})`;
}

/**
 * SQL condition of a study read by id (details, files, questions, statistics, history): the client
 * scope and, for client and sales users, verified studies only, as their search shows. `table` is
 * the studies table as the query names it (an alias).
 */
export function studyByIdScope(
  user: AuthUser,
  table: { client: AnyPgColumn; verified: AnyPgColumn } = studies,
): SQL {
  if (!isClientScopedRole(user.roleId)) return sql`true`;
  return sql`(${studyScope(user, table.client)} and ${table.verified})`;
}

/** Whether a user may see a study of the given client. */
export function canSeeClient(user: AuthUser, client: string): boolean {
  return !isClientScopedRole(user.roleId) || user.clients.includes(client);
}

/** A text[] parameter that both drivers bind the same way. */
export function sqlTextArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;
}
