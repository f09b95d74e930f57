import {
  ErrorResponse,
  LoginRequest,
  MESSAGES,
  MessageResponse,
  RequestChangePasswordRequest,
  ResetPasswordRequest,
  SignedInUser,
} from '@accord/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerToken } from '../../plugins/auth.ts';
import { REFRESH_TOKEN_TTL_MS, type AuthService } from './auth.service.ts';

export const REFRESH_COOKIE = 'accord_refresh';
const cookieOptions = {
  path: '/api/auth',
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: 'auto' as const,
};

function setAccessToken(reply: FastifyReply, token: string) {
  reply.header('Authorization', `Bearer ${token}`);
}

function refreshCookie(request: FastifyRequest): string | null {
  return request.cookies[REFRESH_COOKIE] ?? null;
}

export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  /** Sign-in and reset-mail requests per minute from one address (each route counts its own). */
  loginRateLimit: number;
}> = async (app, { auth, loginRateLimit }) => {
  const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse };
  // Per address (request.ip: the peer, or the forwarded client behind a trusted proxy). The much
  // lower limit per account lives in the service, where the e-mail is known.
  const perAddress = { rateLimit: { max: loginRateLimit, timeWindow: '1 minute' } };

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in; the access token comes in the Authorization header',
        body: LoginRequest,
        response: { 200: SignedInUser, ...errorResponses },
      },
      config: perAddress,
    },
    async (request, reply) => {
      const { user, tokens } = await auth.login(request.body);
      if (tokens) {
        setAccessToken(reply, tokens.accessToken);
        if (tokens.refreshToken) {
          reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
            ...cookieOptions,
            maxAge: REFRESH_TOKEN_TTL_MS / 1000,
          });
        } else {
          reply.clearCookie(REFRESH_COOKIE, cookieOptions);
        }
      }
      return user;
    },
  );

  app.get(
    '/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Renew the access token (Authorization header or remember-me cookie)',
        response: { 200: SignedInUser, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { user, accessToken } = await auth.refresh({
        accessToken: bearerToken(request),
        refreshToken: refreshCookie(request),
      });
      setAccessToken(reply, accessToken);
      return user;
    },
  );

  app.post(
    '/auth/logout',
    { schema: { tags: ['auth'], summary: 'End the session', response: { 200: MessageResponse } } },
    async (request, reply) => {
      await auth.logout(request.authUser?.sessionId ?? null, refreshCookie(request));
      reply.clearCookie(REFRESH_COOKIE, cookieOptions);
      return { message: 'Signed out.' };
    },
  );

  app.post(
    '/auth/request-change-password/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link',
        body: RequestChangePasswordRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 429: ErrorResponse },
      },
      config: perAddress,
    },
    async (request) => {
      await auth.requestPasswordReset(request.body.email, request.body.client_address);
      return { message: MESSAGES.resetRequested };
    },
  );

  app.post(
    '/auth/reset-password/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token',
        body: ResetPasswordRequest,
        response: { 200: MessageResponse, 400: ErrorResponse },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.new_password);
      return { message: 'Your password has been changed. You can now sign in.' };
    },
  );
};
