/**
 * Sign-in, token refresh, sign-out and password reset. Access tokens are short-lived and renewed
 * every minute by the client; remember-me adds a refresh token kept in an httpOnly cookie.
 */
import { randomUUID } from 'node:crypto';
import { MESSAGES, PASSWORD_INACTIVITY_DAYS, type SignedInUser } from '@accord/contracts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { screenName } from '../users/users.presenter.ts';
import type { UserRow, UsersRepository } from '../users/users.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import type { SessionRepository, SessionUser } from './session.repository.ts';
import { hashToken, newToken } from './tokens.ts';

export const ACCESS_TOKEN_TTL_MS = 15 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
export const RESET_TOKEN_TTL_MS = 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
}

export interface AuthServiceDeps {
  db: Db;
  users: UsersRepository;
  sessions: SessionRepository;
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
}

// A real hash to compare against when the e-mail is unknown, so both paths take the same time.
const dummyHash = hashPassword('not-a-real-password');

export function createAuthService(deps: AuthServiceDeps) {
  const { users: usersRepo, sessions, clock } = deps;

  function signedIn(user: UserRow, passwordResetFlag: boolean): SignedInUser {
    return {
      id: user.id,
      email: user.email,
      screenname: screenName(user),
      role_id: user.roleId,
      password_reset_flag: passwordResetFlag,
      clients: user.clients,
    };
  }

  /** Whether the user's last sign-in (or activity) lies beyond the inactivity limit. */
  function isInactive(user: UserRow): boolean {
    const last = [user.lastLoginAt, user.lastSeen, user.createdAt]
      .filter((d): d is Date => d instanceof Date)
      .reduce((a, b) => (a > b ? a : b));
    return clock.now().getTime() - last.getTime() > PASSWORD_INACTIVITY_DAYS * DAY_MS;
  }

  async function startSession(userId: number, remember: boolean): Promise<IssuedTokens> {
    const now = clock.now().getTime();
    const accessToken = newToken();
    const refreshToken = remember ? newToken() : null;
    await sessions.create({
      id: randomUUID(),
      userId,
      accessToken,
      accessExpiresAt: new Date(now + ACCESS_TOKEN_TTL_MS),
      refreshToken,
      refreshExpiresAt: refreshToken ? new Date(now + REFRESH_TOKEN_TTL_MS) : null,
      remember,
    });
    return { accessToken, refreshToken };
  }

  async function sendResetMail(user: UserRow, clientAddress: string | undefined): Promise<void> {
    const token = newToken();
    await deps.db.insert(passwordResets).values({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(clock.now().getTime() + RESET_TOKEN_TTL_MS),
    });
    const base = (clientAddress ?? deps.publicUrl).replace(/\/+$/, '');
    const link = `${base}/login/reset/${token}`;
    await deps.mailer.send({
      to: user.email,
      subject: 'Accord: reset your password',
      text: `Hello ${screenName(user)},\n\nOpen this link to choose a new password (valid for 24 hours):\n${link}\n\nIf you did not ask for it, ignore this message.\n`,
      html: `<p>Hello ${escapeHtml(screenName(user))},</p><p><a href="${link}">Choose a new password</a> (valid for 24 hours).</p><p>If you did not ask for it, ignore this message.</p>`,
    });
  }

  return {
    /**
     * Checks the credentials. A user inactive for over 30 days gets password_reset_flag and no session:
     * the client then requests a reset e-mail.
     */
    async login(input: {
      email: string;
      password: string;
      remember: boolean;
    }): Promise<{ user: SignedInUser; tokens: IssuedTokens | null }> {
      const user = await usersRepo.findByEmail(input.email);
      const valid = user
        ? await verifyPassword(user.passwordHash, input.password)
        : (await verifyPassword(await dummyHash, input.password), false);
      if (!user || !valid || user.deleted || user.status !== 'enabled') {
        throw new AppError(401, 'invalid_credentials', MESSAGES.loginUnauthorized);
      }
      if (user.passwordResetFlag || isInactive(user)) {
        if (!user.passwordResetFlag) await usersRepo.update(user.id, { passwordResetFlag: true });
        return { user: signedIn(user, true), tokens: null };
      }
      await usersRepo.update(user.id, { lastLoginAt: clock.now(), lastSeen: clock.now() });
      const tokens = await startSession(user.id, input.remember);
      return { user: signedIn(user, false), tokens };
    },

    /** A new access token for a live session, found by its current access token or its refresh cookie. */
    async refresh(input: {
      accessToken: string | null;
      refreshToken: string | null;
    }): Promise<{ user: SignedInUser; accessToken: string }> {
      let session: SessionUser | null = null;
      if (input.accessToken) session = await sessions.findByAccessToken(input.accessToken);
      if (!session && input.refreshToken) session = await sessions.findByRefreshToken(input.refreshToken);
      if (!session) throw errors.unauthorized();
      const user = await usersRepo.findById(session.id);
      if (!user) throw errors.unauthorized();
      const accessToken = newToken();
      await sessions.rotateAccessToken(
        session.sessionId,
        accessToken,
        new Date(clock.now().getTime() + ACCESS_TOKEN_TTL_MS),
      );
      await usersRepo.update(user.id, { lastSeen: clock.now() });
      return { user: signedIn(user, false), accessToken };
    },

    async logout(sessionId: string | null, refreshToken: string | null): Promise<void> {
      if (sessionId) await sessions.end(sessionId);
      if (refreshToken) {
        const session = await sessions.findByRefreshToken(refreshToken);
        if (session) await sessions.end(session.sessionId);
      }
    },

    /** Mails a reset link when the address belongs to a user; answers the same either way. */
    async requestPasswordReset(email: string, clientAddress: string | undefined): Promise<void> {
      const user = await usersRepo.findByEmail(email);
      if (!user || user.deleted || user.status !== 'enabled') return;
      await sendResetMail(user, clientAddress);
    },

    /** Sets a new password with a valid token; ends every session of the user and clears the flag. */
    async resetPassword(token: string, newPassword: string): Promise<void> {
      const passwordHash = await hashPassword(newPassword);
      await deps.db.transaction(async (tx) => {
        const [reset] = await tx
          .update(passwordResets)
          .set({ usedAt: clock.now() })
          .where(
            and(
              eq(passwordResets.tokenHash, hashToken(token)),
              isNull(passwordResets.usedAt),
              gt(passwordResets.expiresAt, clock.now()),
            ),
          )
          .returning({ userId: passwordResets.userId });
        if (!reset) throw errors.badRequest(MESSAGES.resetTokenInvalid);
        await tx
          .update(users)
          .set({
            passwordHash,
            passwordResetFlag: false,
            passwordChangedAt: clock.now(),
            lastLoginAt: clock.now(),
          })
          .where(eq(users.id, reset.userId));
        await tx.execute(
          sql`update sessions set ended_at = now() where user_id = ${reset.userId} and ended_at is null`,
        );
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
