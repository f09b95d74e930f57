/**
 * Sign-in, token refresh, sign-out and password reset. Access tokens are short-lived and renewed
 * every minute by the client; remember-me adds a refresh token kept in an httpOnly cookie.
 */
import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_ATTEMPT_LIMIT,
  ACCOUNT_ATTEMPT_WINDOW_MINUTES,
  MESSAGES,
  PASSWORD_INACTIVITY_DAYS,
  type SignedInUser,
} from '@accord/contracts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { createAttemptLimiter } from './attempt-limiter.ts';
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
  /**
   * Further origins a reset link may point at when the web client asks for one (e.g. a second host
   * name of the same deployment); any other client address is ignored and PUBLIC_URL is used.
   */
  resetLinkOrigins?: readonly string[];
}

// A real hash to compare against when the e-mail is unknown, so both paths take the same time.
const dummyHash = hashPassword('not-a-real-password');

/** The origin of an address (scheme, host, port), or null when it is not an http(s) URL. */
function originOf(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The key of an account in the attempt counts: its e-mail as sign-in compares it. */
function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

export function createAuthService(deps: AuthServiceDeps) {
  const { users: usersRepo, sessions, clock } = deps;
  const accountLimits = {
    max: ACCOUNT_ATTEMPT_LIMIT,
    windowMs: ACCOUNT_ATTEMPT_WINDOW_MINUTES * 60_000,
    clock,
    db: deps.db,
  };
  const loginFailures = createAttemptLimiter({ ...accountLimits, kind: 'login' });
  const resetRequests = createAttemptLimiter({ ...accountLimits, kind: 'reset' });
  const allowedResetOrigins = new Set(
    (deps.resetLinkOrigins ?? []).map((address) => originOf(address)).filter((origin) => origin !== null),
  );

  function throttled(retryAfterMs: number): AppError {
    return errors.tooManyRequests(MESSAGES.accountThrottled(Math.ceil(retryAfterMs / 60_000)), retryAfterMs);
  }

  /** PUBLIC_URL, or the client's origin when it is PUBLIC_URL's or on the allow-list. */
  function resetLinkBase(clientAddress: string | undefined): string {
    const publicUrl = deps.publicUrl.replace(/\/+$/, '');
    const origin = clientAddress ? originOf(clientAddress) : null;
    if (!origin || origin === originOf(publicUrl)) return publicUrl;
    return allowedResetOrigins.has(origin) ? origin : publicUrl;
  }

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
    const link = `${resetLinkBase(clientAddress)}/login/reset/${token}`;
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
     * the client then requests a reset e-mail. Failed attempts are counted per account (known or not,
     * so the answer tells nothing about which e-mails exist); past the limit every attempt at that
     * account answers 429 until the oldest failure leaves the window.
     */
    async login(input: {
      email: string;
      password: string;
      remember: boolean;
    }): Promise<{ user: SignedInUser; tokens: IssuedTokens | null }> {
      const key = accountKey(input.email);
      // Counted before the password is checked, so concurrent guesses are counted too; released
      // below when the attempt was not a failure.
      const attempt = await loginFailures.attempt(key);
      if (attempt.retryAfterMs > 0) throw throttled(attempt.retryAfterMs);
      const user = await usersRepo.findByEmail(input.email);
      const valid = user
        ? await verifyPassword(user.passwordHash, input.password)
        : (await verifyPassword(await dummyHash, input.password), false);
      if (!user || !valid || user.deleted || user.status !== 'enabled') {
        throw new AppError(401, 'invalid_credentials', MESSAGES.loginUnauthorized);
      }
      await attempt.release();
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

    /**
     * Whether the password is the user's own, for a change of one's own password or e-mail. A wrong
     * one counts as a failed sign-in of the account, so an open session cannot be used to guess it.
     */
    async checkPassword(email: string, password: string): Promise<boolean> {
      const key = accountKey(email);
      const attempt = await loginFailures.attempt(key);
      if (attempt.retryAfterMs > 0) throw throttled(attempt.retryAfterMs);
      const user = await usersRepo.findByEmail(email);
      const valid = user ? await verifyPassword(user.passwordHash, password) : false;
      if (valid) await attempt.release();
      return valid;
    },

    /**
     * Mails a reset link when the address belongs to a user; answers the same either way. Requests
     * are limited per account as failed sign-ins are, so nobody can flood a mailbox.
     */
    async requestPasswordReset(email: string, clientAddress: string | undefined): Promise<void> {
      const { retryAfterMs } = await resetRequests.attempt(accountKey(email));
      if (retryAfterMs > 0) throw throttled(retryAfterMs);
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
