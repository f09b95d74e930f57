import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect & { role: typeof roles.$inferSelect };
export type NewUser = typeof users.$inferInsert;

const userWithRole = {
  user: users,
  role: roles,
};

function toUserRow(row: { user: typeof users.$inferSelect; role: typeof roles.$inferSelect }): UserRow {
  return { ...row.user, role: row.role };
}

export function createUsersRepository(db: Db) {
  return {
    async findById(id: number): Promise<UserRow | null> {
      const [row] = await db
        .select(userWithRole)
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(eq(users.id, id));
      return row ? toUserRow(row) : null;
    },

    async findByEmail(email: string): Promise<UserRow | null> {
      const [row] = await db
        .select(userWithRole)
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(sql`lower(${users.email}) = lower(${email})`);
      return row ? toUserRow(row) : null;
    },

    /** A page of users that are not deleted, newest first, matching a search on e-mail or names. */
    async list(options: {
      page: number;
      perPage: number;
      search?: string;
    }): Promise<{ rows: UserRow[]; total: number }> {
      const term = options.search ? `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const where = and(
        eq(users.deleted, false),
        term
          ? or(ilike(users.email, term), ilike(users.firstname, term), ilike(users.lastname, term))
          : undefined,
      );
      const [totalRow] = await db.select({ total: count() }).from(users).where(where);
      const rows = await db
        .select(userWithRole)
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(options.perPage)
        .offset((options.page - 1) * options.perPage);
      return { rows: rows.map(toUserRow), total: totalRow?.total ?? 0 };
    },

    async insert(values: NewUser): Promise<number> {
      const [row] = await db.insert(users).values(values).returning({ id: users.id });
      return row!.id;
    },

    async update(id: number, values: Partial<NewUser>): Promise<void> {
      if (Object.keys(values).length === 0) return;
      await db.update(users).set(values).where(eq(users.id, id));
    },

    async roles() {
      return db.select().from(roles).orderBy(roles.id);
    },

    async roleExists(id: number): Promise<boolean> {
      const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.id, id));
      return Boolean(row);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
