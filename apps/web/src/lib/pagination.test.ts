import { describe, expect, it } from 'vitest';
import { pageInfoFromHeaders } from './pagination.ts';

describe('pageInfoFromHeaders', () => {
  it('reads the six pagination headers', () => {
    const headers = new Headers({
      per_page: '25',
      total: '119',
      page: '2',
      has_prev: 'true',
      pages: '5',
      has_next: 'true',
    });
    expect(pageInfoFromHeaders(headers, { page: 1, perPage: 10, count: 0 })).toEqual({
      per_page: 25,
      total: 119,
      page: 2,
      pages: 5,
      has_prev: true,
      has_next: true,
    });
  });

  it('falls back to the request and the rows received when headers are missing', () => {
    expect(pageInfoFromHeaders(new Headers(), { page: 1, perPage: 10, count: 4 })).toEqual({
      per_page: 10,
      total: 4,
      page: 1,
      pages: 1,
      has_prev: false,
      has_next: false,
    });
  });

  it('never reports fewer than one page', () => {
    const headers = new Headers({ total: '0', pages: '0' });
    expect(pageInfoFromHeaders(headers, { page: 1, perPage: 10, count: 0 }).pages).toBe(1);
  });
});
