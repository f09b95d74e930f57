import type { ErrorResponse } from '@accord/contracts';

/** A failed API call: the HTTP status and the fields of the server's JSON error body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly error: string;
  readonly requestId: string | null;
  readonly details: ErrorResponse['details'];
  readonly method: string;
  readonly url: string;
  /** Response headers, kept for the debug list of failed logins. */
  readonly headers: Record<string, string>;
  /** The parsed JSON error body as sent, for fields beyond ErrorResponse (e.g. incoherent_fields). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    message: string;
    error?: string;
    requestId?: string | null;
    details?: ErrorResponse['details'];
    method: string;
    url: string;
    headers?: Record<string, string>;
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.error = init.error ?? 'error';
    this.requestId = init.requestId ?? null;
    this.details = init.details;
    this.method = init.method;
    this.url = init.url;
    this.headers = init.headers ?? {};
    this.body = init.body ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Status 0 stands for "no answer" (network failure). */
export const NETWORK_ERROR_STATUS = 0;
