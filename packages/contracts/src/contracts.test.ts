import { describe, expect, it } from 'vitest';
import {
  CreateUserRequest,
  helpLinkHref,
  isUnsupportedBrowser,
  nulTextPath,
  numeric,
  pageInfo,
  permissionsForRole,
} from './index.ts';
import { z } from 'zod';

describe('permissionsForRole (document 1 section 4)', () => {
  it.each([
    [1, true, true, true],
    [2, false, true, true],
    [3, false, false, false],
    [4, false, true, false],
    [7, false, false, false],
    [undefined, false, false, false],
  ])('role %s: admin %s, download %s, analytics %s', (role, isAdmin, allowDownload, canAccessAnalytics) => {
    expect(permissionsForRole(role)).toMatchObject({ isAdmin, allowDownload, canAccessAnalytics });
  });
});

describe('helpLinkHref', () => {
  it('prepends https:// when the url lacks an http prefix', () => {
    expect(helpLinkHref('help.example.com/guide')).toBe('https://help.example.com/guide');
    expect(helpLinkHref('http://help.example.com')).toBe('http://help.example.com');
    expect(helpLinkHref('HTTPS://help.example.com')).toBe('HTTPS://help.example.com');
    expect(helpLinkHref('  ')).toBeNull();
  });

  it('is never a script or data link', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'https://a b', 'https://'])
      expect(helpLinkHref(url), url).toBeNull();
    expect(helpLinkHref('localhost:8080/help')).toBe('https://localhost:8080/help');
  });
});

describe('numeric', () => {
  const id = numeric(z.number().int().positive());
  it('reads numbers and their decimal text only', () => {
    expect(id.parse(3)).toBe(3);
    expect(id.parse('12')).toBe(12);
    for (const value of [true, false, null, '', ' ', [], [1], '1e3', '0x10', 'abc'])
      expect(id.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });
});

describe('nulTextPath', () => {
  it('names the first text holding a NUL character, in values and keys', () => {
    expect(nulTextPath({ a: ['ok', 'b\u0000'] })).toEqual(['a', 1]);
    expect(nulTextPath({ a: { 'k\u0000': 1 } })).toEqual(['a', 'k\u0000']);
    expect(nulTextPath('\u0000')).toEqual([]);
    expect(nulTextPath({ a: 'fine', b: [1, null, true] })).toBeNull();
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulTextPath(deep)).toHaveLength(100_000);
  });
});

describe('isUnsupportedBrowser', () => {
  it('flags browsers at or below the supported minimums', () => {
    expect(
      isUnsupportedBrowser(
        'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/50.0.2661.102 Safari/537.36',
      ),
    ).toBe(true);
    expect(
      isUnsupportedBrowser(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
      ),
    ).toBe(false);
    expect(isUnsupportedBrowser('Mozilla/5.0 (Windows NT 6.1; rv:53.0) Gecko/20100101 Firefox/53.0')).toBe(
      true,
    );
    expect(isUnsupportedBrowser('Mozilla/5.0 (Windows NT 6.1; rv:54.0) Gecko/20100101 Firefox/54.0')).toBe(
      false,
    );
    expect(isUnsupportedBrowser('Mozilla/4.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)')).toBe(
      true,
    );
    expect(
      isUnsupportedBrowser(
        'Mozilla/5.0 (Macintosh) AppleWebKit/601.1 (KHTML, like Gecko) Version/9.1 Safari/601.1',
      ),
    ).toBe(true);
    expect(
      isUnsupportedBrowser(
        'Mozilla/5.0 (Macintosh) AppleWebKit/605.1 (KHTML, like Gecko) Version/17.2 Safari/605.1',
      ),
    ).toBe(false);
    expect(
      isUnsupportedBrowser(
        'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0 Safari/537.36 Edge/14.14393',
      ),
    ).toBe(true);
  });
});

describe('pageInfo', () => {
  it('computes the pagination headers', () => {
    expect(pageInfo(2, 10, 25)).toEqual({
      per_page: 10,
      total: 25,
      page: 2,
      has_prev: true,
      pages: 3,
      has_next: true,
    });
    expect(pageInfo(1, 10, 0)).toEqual({
      per_page: 10,
      total: 0,
      page: 1,
      has_prev: false,
      pages: 1,
      has_next: false,
    });
  });
});

describe('CreateUserRequest', () => {
  it('reads clients from JSON text and applies the form defaults', () => {
    const parsed = CreateUserRequest.parse({
      email: 'a@b.co',
      password: 'long-enough',
      role_id: 3,
      clients: '["A","B"]',
    });
    expect(parsed).toMatchObject({ clients: ['A', 'B'], status: 'enabled', deleted: false, firstname: '' });
    expect(
      CreateUserRequest.safeParse({ email: 'a@b.co', password: 'long-enough', role_id: 3, clients: '[1]' })
        .success,
    ).toBe(false);
  });
});
