import { z } from 'zod';

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
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
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

export const IdParam = z.object({ id: z.coerce.number().int().positive() });

export const OkResponse = z.object({ message: z.string() });
