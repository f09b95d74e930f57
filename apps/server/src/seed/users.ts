/**
 * Demo users, one per role. The client user sees exactly two clients of the demo library and the
 * sales user three, so role-based study filtering is visible from the first login.
 */
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { CLIENTS } from './vocabulary.ts';

export interface DemoUser {
  email: string;
  firstname: string;
  lastname: string;
  roleId: 1 | 2 | 3 | 4;
  /** Role slug (admin, researcher, client, sales). */
  role: 'admin' | 'researcher' | 'client' | 'sales';
  roleName: string;
  clients: string[];
}

const clientName = (index: number): string => (CLIENTS[index] as { name: string }).name;

export const DEMO_USERS: readonly DemoUser[] = [
  {
    email: 'admin@accord.test',
    firstname: 'Ada',
    lastname: 'Admin',
    roleId: 1,
    role: 'admin',
    roleName: 'Admin',
    clients: [],
  },
  {
    email: 'researcher@accord.test',
    firstname: 'Rita',
    lastname: 'Researcher',
    roleId: 2,
    role: 'researcher',
    roleName: 'Researcher',
    clients: [],
  },
  {
    email: 'client@accord.test',
    firstname: 'Colin',
    lastname: 'Client',
    roleId: 3,
    role: 'client',
    roleName: 'Client',
    clients: [clientName(0), clientName(1)],
  },
  {
    email: 'sales@accord.test',
    firstname: 'Sam',
    lastname: 'Sales',
    roleId: 4,
    role: 'sales',
    roleName: 'Sales',
    clients: [clientName(0), clientName(2), clientName(3)],
  },
];

/**
 * Creates the demo users that do not exist yet (matched by e-mail, case-insensitively). Needs the
 * roles from seedReferenceData. Returns the users it created.
 */
export async function seedUsers(database: Database, options: { password: string }): Promise<DemoUser[]> {
  const { db } = database;
  const existing = await db.select({ email: users.email }).from(users);
  const known = new Set(existing.map((u) => u.email.toLowerCase()));
  const missing = DEMO_USERS.filter((u) => !known.has(u.email.toLowerCase()));
  if (missing.length === 0) return [];
  // One hash (and salt) per user, as real accounts would have.
  const rows = await Promise.all(
    missing.map(async (u) => ({
      email: u.email,
      firstname: u.firstname,
      lastname: u.lastname,
      passwordHash: await hashPassword(options.password),
      roleId: u.roleId,
      clients: u.clients,
    })),
  );
  await db.insert(users).values(rows).onConflictDoNothing();
  return missing;
}
