/**
 * The one way the app talks to the API (base /api). It sends the access token, picks up a renewed
 * token from any auth/ answer, turns error answers into ApiError, ends the session on a 401 and
 * raises the global "Something went wrong!" box on 400 and 503 (document 1 sections 4 and 7).
 */
import { ErrorResponse } from '@accord/contracts';
import type { z } from 'zod';
import { ApiError, NETWORK_ERROR_STATUS } from './api-error.ts';
import { GLOBAL_FAILURE_STATUSES, reportFailure } from './failures.ts';
import { getToken, setToken, signOut, tokenFromHeader } from './session.ts';

export const API_BASE = '/api';

type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** JSON-encoded unless it is FormData. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Statuses the calling screen shows itself (a form's 400, the login's failures), so they do not
   * raise the global failure box.
   */
  handledStatuses?: readonly number[];
  /** A 401 is an expected answer here (login, the start-up session probe): keep the session as is. */
  allowUnauthorized?: boolean;
  /** Send no Authorization header (probing the remember-me cookie alone). */
  withoutToken?: boolean;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

function headersToRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, key) => {
    record[key] = value;
  });
  return record;
}

async function readError(response: Response, method: string, url: string): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const parsed = ErrorResponse.safeParse(body);
  const loose = (body ?? {}) as { message?: unknown };
  const message = parsed.success
    ? parsed.data.message
    : typeof loose.message === 'string'
      ? loose.message
      : response.statusText || `Request failed with status ${response.status}`;
  return new ApiError({
    status: response.status,
    message,
    error: parsed.success ? parsed.data.error : undefined,
    requestId: parsed.success ? parsed.data.requestId : response.headers.get('x-request-id'),
    details: parsed.success ? parsed.data.details : undefined,
    method,
    url,
    headers: headersToRecord(response.headers),
    body,
  });
}

/**
 * The server replaces the access token on every renewal and the old one stops working at once, so
 * other calls wait while a renewal is under way, and a call that was answered 401 with a token that
 * has been renewed since is sent again with the new one.
 */
let renewal: Promise<void> | null = null;

function isRenewal(path: string): boolean {
  return /^\/?auth\/refresh/.test(path);
}

async function send(path: string, options: ApiRequestOptions, token: string | null): Promise<Response> {
  const method = options.method ?? 'GET';
  const url = buildUrl(path, options.query);
  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({
      status: NETWORK_ERROR_STATUS,
      message: 'The server could not be reached.',
      error: 'network_error',
      method,
      url,
    });
  }
  // Every auth/ answer may carry a renewed token; keep it before anyone else reads the token.
  if (/^\/?auth\//.test(path)) {
    const renewed = tokenFromHeader(response.headers.get('Authorization'));
    if (renewed) setToken(renewed);
  }
  return response;
}

/** Sends a request and returns the successful Response; throws ApiError otherwise. */
export async function apiFetch(path: string, options: ApiRequestOptions = {}): Promise<Response> {
  const method = options.method ?? 'GET';
  const url = buildUrl(path, options.query);
  const renewing = isRenewal(path);

  if (!renewing && renewal) await renewal;
  const token = options.withoutToken ? null : getToken();
  const sending = send(path, options, token);
  if (renewing) {
    const settled = sending.then(
      () => undefined,
      () => undefined,
    );
    renewal = settled;
    void settled.then(() => {
      if (renewal === settled) renewal = null;
    });
  }
  let response = await sending;

  const current = getToken();
  if (response.status === 401 && !renewing && token && current && current !== token) {
    response = await send(path, options, current);
  }

  if (response.ok) return response;

  const error = await readError(response, method, url);
  if (response.status === 401 && !options.allowUnauthorized) {
    signOut({ ended: true });
  }
  if (GLOBAL_FAILURE_STATUSES.has(response.status) && !options.handledStatuses?.includes(response.status)) {
    reportFailure({
      method,
      url,
      status: response.status,
      requestId: error.requestId,
      message: error.message,
      time: new Date().toISOString(),
    });
  }
  throw error;
}

/** Sends a request and validates the JSON answer with a contract schema. */
export async function apiJson<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: ApiRequestOptions = {},
): Promise<z.infer<Schema>> {
  const response = await apiFetch(path, options);
  const data: unknown = await response.json();
  return schema.parse(data);
}

/** Like apiJson, also returning the response headers (pagination, tokens). */
export async function apiJsonWithHeaders<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: ApiRequestOptions = {},
): Promise<{ data: z.infer<Schema>; headers: Headers }> {
  const response = await apiFetch(path, options);
  const data: unknown = await response.json();
  return { data: schema.parse(data), headers: response.headers };
}
