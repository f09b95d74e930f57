import type { PAGINATION_HEADERS, PageInfo } from '@accord/contracts';

/** Reads the pagination info that list endpoints send in headers (document 1 section 3). */
export function pageInfoFromHeaders(
  headers: Headers,
  fallback: { page: number; perPage: number; count: number },
): PageInfo {
  const read = (name: (typeof PAGINATION_HEADERS)[number]) => headers.get(name);
  const number = (name: (typeof PAGINATION_HEADERS)[number], otherwise: number) => {
    const value = Number(read(name));
    return read(name) !== null && Number.isFinite(value) ? value : otherwise;
  };
  const flag = (name: (typeof PAGINATION_HEADERS)[number], otherwise: boolean) => {
    const value = read(name);
    return value === null ? otherwise : value === 'true' || value === '1' || value === 'True';
  };
  const perPage = number('per_page', fallback.perPage);
  const total = number('total', fallback.count);
  const page = number('page', fallback.page);
  const pages = Math.max(1, number('pages', Math.ceil(total / Math.max(1, perPage))));
  return {
    per_page: perPage,
    total,
    page,
    pages,
    has_prev: flag('has_prev', page > 1),
    has_next: flag('has_next', page < pages),
  };
}
