import { z } from 'zod';

/** The message of a text holding a NUL character (PostgreSQL cannot store one; no field needs it). */
export const NUL_TEXT_MESSAGE = 'must not contain a NUL character (\\u0000)';

/**
 * The path of the first text (value or key) holding a NUL character in a request part (a JSON body,
 * a query, form fields), or null. Walks with a stack, so a deeply nested body cannot overflow it.
 */
export function nulTextPath(value: unknown): (string | number)[] | null {
  // Each entry links to its parent, so the path is built only for the text found (copying it at
  // every level would take quadratic time on a deeply nested body).
  interface Entry {
    value: unknown;
    key: string | number | null;
    parent: Entry | null;
  }
  const pathOf = (entry: Entry | null, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at = entry; at && at.key !== null; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const pending: Entry[] = [{ value, key: null, parent: null }];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    const current = entry.value;
    if (typeof current === 'string') {
      if (current.includes('\0')) return pathOf(entry);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        pending.push({ value: current[i], key: i, parent: entry });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current).reverse()) {
        if (key.includes('\0')) return pathOf(entry, key);
        pending.push({ value: item, key, parent: entry });
      }
    }
  }
  return null;
}

/**
 * A zod refinement that refuses any text holding a NUL character, naming the field. The server runs
 * it on every request part before the route's schema; schemas checked outside that path (multipart
 * form fields) add it themselves.
 */
export function refuseNulText(value: unknown, ctx: z.RefinementCtx): void {
  const path = nulTextPath(value);
  if (path) ctx.addIssue({ code: 'custom', path, message: NUL_TEXT_MESSAGE });
}

/** Decimal text of a number: optional sign, digits, optional fraction. */
const NUMBER_TEXT = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * A number sent as a JSON number or as its decimal text (query strings, path parameters and form
 * fields arrive as text), checked by `target`. Unlike `z.coerce.number()` nothing else is turned
 * into a number: `true`, `null`, `[]` and `''` are refused rather than read as 1 or 0, so a
 * malformed value can never change what a request means.
 */
export function numeric<T extends z.ZodType<number, number>>(target: T, message = 'Expected a number') {
  return z
    .union([z.number(), z.string().regex(NUMBER_TEXT, message).transform(Number)], { error: message })
    .pipe(target);
}

/** Every error the API answers with: a stable id, a message a user can read, and the request id. */
export const ErrorResponse = z
  .object({
    error: z.string().meta({ description: 'Stable error id, e.g. validation_failed, unauthorized.' }),
    message: z.string().meta({ description: 'Message for the user.' }),
    statusCode: z.number().int(),
    requestId: z.string().meta({ description: 'Id of the request, for support traces.' }),
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Field-level problems of a validation error.' }),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Pagination query of list endpoints. */
export const PageQuery = z.object({
  page: numeric(z.number().int().min(1)).default(1),
  per_page: numeric(z.number().int().min(1).max(100)).default(10),
});

/** Pagination info sent in response headers (document 1 section 3). */
export const PAGINATION_HEADERS = ['per_page', 'total', 'page', 'has_prev', 'pages', 'has_next'] as const;

export interface PageInfo {
  per_page: number;
  total: number;
  page: number;
  has_prev: boolean;
  pages: number;
  has_next: boolean;
}

export function pageInfo(page: number, perPage: number, total: number): PageInfo {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return { per_page: perPage, total, page, has_prev: page > 1, pages, has_next: page < pages };
}

export const IdParam = z.object({ id: numeric(z.number().int().positive()) });

export const OkResponse = z.object({ message: z.string() });
