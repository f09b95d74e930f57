/**
 * Typed errors with stable ids. Services throw these; the one error handler in app.ts turns them into
 * `{ error, message, statusCode, requestId }`. 4xx messages are shown to users, 5xx details are logged.
 */
import { MESSAGES } from '@accord/contracts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly id: string,
    message: string,
    readonly details?: { path: string; message: string }[],
    /** Further fields of the error body (e.g. incoherent_fields of a refused study edit). */
    readonly extra?: Record<string, unknown>,
    /** Response headers of the error (e.g. Retry-After of a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const errors = {
  badRequest: (message: string, details?: { path: string; message: string }[]) =>
    new AppError(400, 'bad_request', message, details),
  unauthorized: (message: string = MESSAGES.sessionEnded) => new AppError(401, 'unauthorized', message),
  forbidden: (message: string = MESSAGES.forbidden) => new AppError(403, 'forbidden', message),
  notFound: (message: string = MESSAGES.notFound) => new AppError(404, 'not_found', message),
  conflict: (message: string) => new AppError(409, 'conflict', message),
  /** 429 with Retry-After (whole seconds, at least 1). */
  tooManyRequests: (message: string, retryAfterMs: number) =>
    new AppError(429, 'rate_limited', message, undefined, undefined, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
    }),
};

/** Whether an error is the disk (or the storage's quota) being full: answered 507, never a bare 500. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The answer to a multipart body that cannot be read (cut off, a broken part header, no boundary). */
export const MALFORMED_MULTIPART_MESSAGE = 'The upload is not a well-formed multipart/form-data body.';

/**
 * Whether an error raised while reading a multipart body is the body being malformed: the form
 * parser's errors carry no code (a file system error, such as a full disk, does), and the plugin's
 * own carry an FST_ code. Errors of the application (AppError) are never the body's.
 */
export function isMalformedMultipart(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof AppError) return false;
  const code = (error as { code?: unknown }).code;
  return code === undefined || (typeof code === 'string' && code.startsWith('FST_'));
}
