import { and, eq, gt, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { batchedRead, textArrayLiteral } from '../../db/batched-read.ts';
import { preparedRows, type PreparedStatement } from '../../db/prepared.ts';
import type { Db } from '../../db/client.ts';
import { SESSION_MAX_HOURS } from '@accord/contracts';
import { sessions, sessionTokens, users } from '../../db/schema.ts';
import { hashToken } from './tokens.ts';

export interface SessionUser {
  id: number;
  email: string;
  roleId: number;
  clients: string[];
  sessionId: string;
}

const liveUser = and(eq(users.status, 'enabled'), eq(users.deleted, false));
/**
 * A session without remember-me lasts at most SESSION_MAX_HOURS from sign-in, however often its
 * tokens are renewed (a browser left open does not stay signed in for ever); a remember-me session
 * lasts until its refresh expiry (30 days from sign-in), whether it is renewed by its refresh cookie
 * or by its access token.
 */
const withinLifetime = or(
  and(eq(sessions.remember, true), gt(sessions.refreshExpiresAt, sql`now()`)),
  and(
    eq(sessions.remember, false),
    gt(sessions.createdAt, sql`now() - make_interval(hours => ${SESSION_MAX_HOURS})`),
  ),
);

/**
 * The live sessions of access tokens (by their hashes, one text[] parameter) with their users: the
 * conditions of `findLive` (`withinLifetime`, `liveUser`) in fixed text, so that the lookups of
 * every request arriving in one turn are one query (db/batched-read.ts), prepared once per
 * connection (db/prepared.ts).
 */
const SESSIONS_BY_ACCESS_HASHES: PreparedStatement = {
  name: 'sessions_by_access_hashes',
  text: `select t.token_hash, u.id, u.email, u.role_id, u.clients, s.id as session_id
  from session_tokens t
  join sessions s on s.id = t.session_id
  join users u on u.id = s.user_id
  where t.token_hash = any($1::text[]) and t.expires_at > now()
    and s.ended_at is null
    and ((s.remember = true and s.refresh_expires_at > now())
      or (s.remember = false and s.created_at > now() - make_interval(hours => ${String(SESSION_MAX_HOURS)})))
    and u.status = 'enabled' and u.deleted = false`,
};

interface SessionRow {
  token_hash: string;
  id: number;
  email: string;
  role_id: number;
  clients: string[];
  session_id: string;
}

export function createSessionRepository(db: Db) {
  /**
   * Every request resolves its token (plugins/auth.ts): the lookups asked for in one turn of the
   * event loop share one query, each sent after its request arrived (so a session ended, or a user
   * disabled, before it is refused at once). A token without a live session is answered null.
   */
  const liveByAccessHash = batchedRead<string, SessionUser>(async (hashes) => {
    const rows = await preparedRows<SessionRow>(db, SESSIONS_BY_ACCESS_HASHES, [textArrayLiteral(hashes)]);
    return new Map(
      rows.map((row) => [
        row.token_hash,
        {
          id: Number(row.id),
          email: row.email,
          roleId: Number(row.role_id),
          clients: row.clients,
          sessionId: row.session_id,
        },
      ]),
    );
  });

  async function findLive(tokenMatches: SQL | undefined): Promise<SessionUser | null> {
    const [row] = await db
      .select({
        id: users.id,
        email: users.email,
        roleId: users.roleId,
        clients: users.clients,
        sessionId: sessions.id,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(tokenMatches, isNull(sessions.endedAt), withinLifetime, liveUser))
      .limit(1);
    return row ?? null;
  }

  return {
    async create(input: {
      id: string;
      userId: number;
      accessToken: string;
      accessExpiresAt: Date;
      refreshToken: string | null;
      refreshExpiresAt: Date | null;
      remember: boolean;
    }): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(sessions).values({
          id: input.id,
          userId: input.userId,
          accessTokenHash: hashToken(input.accessToken),
          accessExpiresAt: input.accessExpiresAt,
          refreshTokenHash: input.refreshToken ? hashToken(input.refreshToken) : null,
          refreshExpiresAt: input.refreshExpiresAt,
          remember: input.remember,
        });
        await tx.insert(sessionTokens).values({
          tokenHash: hashToken(input.accessToken),
          sessionId: input.id,
          expiresAt: input.accessExpiresAt,
        });
      });
    },

    /** The live session of an unexpired access token, with its enabled, undeleted user. */
    findByAccessToken: async (token: string): Promise<SessionUser | null> =>
      (await liveByAccessHash(hashToken(token))) ?? null,

    /** The live session of an unexpired remember-me refresh token. */
    findByRefreshToken: (token: string) =>
      findLive(
        and(eq(sessions.refreshTokenHash, hashToken(token)), gt(sessions.refreshExpiresAt, sql`now()`)),
      ),

    /**
     * Issues a new access token to a session. Earlier tokens stay valid until their own expiry (other
     * tabs of the session still hold them); expired ones are removed.
     */
    async rotateAccessToken(sessionId: string, accessToken: string, accessExpiresAt: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(sessions)
          .set({ accessTokenHash: hashToken(accessToken), accessExpiresAt, lastUsedAt: sql`now()` })
          .where(eq(sessions.id, sessionId));
        await tx
          .delete(sessionTokens)
          .where(and(eq(sessionTokens.sessionId, sessionId), lte(sessionTokens.expiresAt, sql`now()`)));
        await tx
          .insert(sessionTokens)
          .values({ tokenHash: hashToken(accessToken), sessionId, expiresAt: accessExpiresAt });
      });
    },

    async end(sessionId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ endedAt: sql`now()` })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.endedAt)));
    },

    /** Ends every session of the user, but the one named (the session the change came from). */
    async endAllOfUser(userId: number, exceptSessionId?: string): Promise<void> {
      await db
        .update(sessions)
        .set({ endedAt: sql`now()` })
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.endedAt),
            exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
          ),
        );
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
