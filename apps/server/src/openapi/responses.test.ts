/**
 * The committed OpenAPI document (docs/openapi.json, checked current by npm run openapi:check)
 * declares a success answer with its media type for every operation, downloads and streams as
 * binary bodies, the sign-in token's header, and no schema a linter refuses.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cleanDocument, NON_JSON_ANSWERS, operationKey } from './responses.ts';

interface Operation {
  responses: Record<
    string,
    { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }
  >;
}
const document = JSON.parse(
  readFileSync(new URL('../../../../docs/openapi.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, Operation>>; tags: { name: string }[] };

const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ key: operationKey(method, route), operation })),
);

describe('the OpenAPI document', () => {
  it('declares a success answer with a media type for every operation', () => {
    const missing = operations
      .filter(({ operation }) => {
        const success = Object.entries(operation.responses).find(([status]) => /^2/.test(status))?.[1];
        return !success?.content || Object.keys(success.content).length === 0;
      })
      .map(({ key }) => key);
    expect(missing).toEqual([]);
  });

  it('types every download and stream as a binary body of its media type', () => {
    expect(Object.keys(NON_JSON_ANSWERS).length).toBe(27);
    for (const [key, answer] of Object.entries(NON_JSON_ANSWERS)) {
      const found = operations.find((operation) => operation.key === key);
      expect(found, key).toBeDefined();
      expect(found!.operation.responses['200']!.content).toEqual({
        [answer.mediaType]: { schema: { type: 'string', format: 'binary' } },
      });
    }
  });

  it("declares the Authorization header of sign-in's and renewal's answers", () => {
    for (const key of ['POST /api/auth/login', 'GET /api/auth/refresh']) {
      const found = operations.find((operation) => operation.key === key)!;
      expect(Object.keys(found.operation.responses['200']!.headers ?? {}), key).toEqual(['Authorization']);
    }
  });

  it('has no $id holding a fragment, no array without items, and lists its tags', () => {
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/"\$id":"[^"]*#/);
    const arraysWithoutItems: string[] = [];
    const visit = (value: unknown, at: string) => {
      if (value === null || typeof value !== 'object') return;
      const record = value as Record<string, unknown>;
      if (record.type === 'array' && (typeof record.items !== 'object' || record.items === null))
        arraysWithoutItems.push(at);
      for (const [key, child] of Object.entries(record)) visit(child, `${at}.${key}`);
    };
    visit(document, '');
    expect(arraysWithoutItems).toEqual([]);
    const used = new Set(
      operations.flatMap(({ operation }) => (operation as { tags?: string[] }).tags ?? []),
    );
    expect(new Set(document.tags.map((tag) => tag.name))).toEqual(used);
  });
});

describe('cleanDocument', () => {
  it('gives a tuple the items its members share, and keeps other arrays', () => {
    const tuple = {
      type: 'array',
      prefixItems: [{ type: 'integer' }, { type: 'integer' }],
      items: false,
      minItems: 2,
      maxItems: 2,
    };
    const mixed = { ...tuple, prefixItems: [{ type: 'integer' }, { type: 'string' }] };
    const open = { type: 'array', prefixItems: [{ type: 'integer' }], items: false };
    const cleaned = cleanDocument({
      paths: {},
      a: tuple,
      b: mixed,
      c: open,
      $id: '#/x',
    }) as unknown as Record<string, Record<string, unknown>>;
    expect(cleaned.a!.items).toEqual({ type: 'integer' });
    expect(cleaned.b!.items).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(cleaned.c!.items).toBe(false);
    expect('$id' in cleaned).toBe(false);
  });
});
