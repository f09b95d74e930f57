import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ProductRecord } from './analytics-types.ts';
import {
  addViewBytes,
  createResultStore,
  histogramsOf,
  needlesOf,
  resultRow,
  searchBytes,
  searchFingerprint,
  resultBytesOf,
  sameJson,
  storedSearch,
  type SearchColumns,
} from './result-store.ts';

const product = (id: number, name: string | null): ProductRecord => ({
  id,
  studyId: 100 + (id % 3),
  kind: 'fragrance',
  code: `P${id}`,
  name,
  cMiNumber: `CMI-${100 + (id % 3)}`,
  projectName: 'Project',
  client: 'Client',
  category: 'Fine Fragrance',
  productType: null,
  rdfType: 'rdf',
});

/** A search of `count` products, its rows in reverse order of the list, the second column's key repeated. */
function search(count: number): SearchColumns {
  const products = Array.from({ length: count }, (_, at) =>
    product(at + 1, at % 4 === 0 ? null : `Rose ${at}`),
  );
  const column = (aggregation: 'mean' | 'top_2_box') => ({
    metric: 'liking',
    label: 'Liking',
    metric_type: 'Performance',
    aggregation,
    aggregation_label: aggregation,
    confidence: false,
    key: `liking.${aggregation}`,
  });
  return {
    type: 'fragrances',
    columns: [column('mean'), column('top_2_box'), column('mean')],
    values: [
      Float64Array.from(products, (_, at) => (at % 5 === 0 ? Number.NaN : at / 10)),
      Float64Array.from(products, (_, at) => at / count),
      Float64Array.from(products, () => 99),
    ],
    bases: [
      Int32Array.from(products, (_, at) => (at % 5 === 0 ? 0 : 10 + at)),
      Int32Array.from(products, (_, at) => 40 + at),
      Int32Array.from(products, () => 1),
    ],
    order: Int32Array.from(products, (_, at) => count - 1 - at),
    summary: {},
    diagnostics: { studies_found: 3, studies_with_anomalies: 0, studies: [] },
    filtered: false,
    products,
  };
}

describe('stored searches', () => {
  it('make rows, texts and charts from the columns as the full answer holds them', () => {
    const stored = storedSearch(search(12));
    const full = JSON.parse(
      resultBytesOf(createResultStore({ maxBytes: 1e6 }).statusBytes(stored)).toString('utf8'),
    ) as { results: unknown[] };
    expect(full.results).toHaveLength(12);
    // Row 0 is the last product; a key chosen twice holds its first column's values.
    for (let row = 0; row < 12; row++) expect(resultRow(stored, row)).toEqual(full.results[row]);
    expect(resultRow(stored, 0)).toMatchObject({
      id: 12,
      values: { 'liking.mean': 1.1 },
      low_base: ['liking.mean'],
    });
    expect(resultRow(stored, 11)).toMatchObject({
      id: 1,
      name: null,
      values: { 'liking.mean': null },
      low_base: [],
    });
    expect(needlesOf(stored).slice(0, 4)).toEqual(['rose 11', 'rose 10', 'rose 9', 'p9']);
    const bins = histogramsOf(stored)['liking.mean']!;
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(12 - 3);
  });

  it('weigh their columns, product list and small parts', () => {
    const columns = search(1000);
    // Three value columns (8 bytes), three base columns and the order (4), the list's references (8).
    expect(searchBytes(columns)).toBeGreaterThan(1000 * (3 * 8 + 4 * 4 + 8));
    expect(searchBytes(columns)).toBeLessThan(1000 * (3 * 8 + 4 * 4 + 8) + 4000);
  });

  it('have one fingerprint per request and caller scope', () => {
    const request = { q: { metrics: { metricsList: [{ metric: 'liking' }] } } };
    const staff = searchFingerprint({ clients: 'null', admin: false }, request);
    expect(searchFingerprint({ clients: 'null', admin: false }, structuredClone(request))).toBe(staff);
    expect(searchFingerprint({ clients: '["Acme"]', admin: false }, request)).not.toBe(staff);
    expect(searchFingerprint({ clients: 'null', admin: true }, request)).not.toBe(staff);
    expect(searchFingerprint({ clients: 'null', admin: false }, { ...request, type: 'concepts' })).not.toBe(
      staff,
    );
  });
});

describe('the result store', () => {
  const bytes = searchBytes(search(1000));

  it('computes a search once per data version; a data change makes the entry stale', async () => {
    const store = createResultStore({ maxBytes: 10 * bytes });
    let computed = 0;
    const compute = async () => {
      computed++;
      return search(1000);
    };
    const first = await store.get('a', 'v1', compute);
    const [again, together] = await Promise.all([
      store.get('a', 'v1', compute),
      store.get('a', 'v1', compute),
    ]);
    expect(again).toBe(first);
    expect(together).toBe(first);
    expect(computed).toBe(1);
    expect(store.held('a', 'v1')).toBe(first);
    // Another data version: stale, not answered, computed again and kept in its place.
    expect(store.peek('a', 'v2')).toBeNull();
    expect(store.held('a', 'v2')).toBeNull();
    const changed = await store.get('a', 'v2', compute);
    expect(changed).not.toBe(first);
    expect(computed).toBe(2);
    expect(store.held('a', 'v1')).toBeNull();
    expect(store.size()).toEqual({ entries: 1, bytes });
    // Asked without the cache: computed again.
    await store.get('a', 'v2', compute, true);
    expect(computed).toBe(3);
    expect(store.size()).toEqual({ entries: 1, bytes });
  });

  it('keeps at most its bytes, the least recently used going first, the newest even alone over them', async () => {
    const store = createResultStore({ maxBytes: 3 * bytes + 10 });
    for (const key of ['a', 'b', 'c']) await store.get(key, 'v', async () => search(1000));
    expect(store.size()).toEqual({ entries: 3, bytes: 3 * bytes });
    // 'a' used again: 'b' is now the oldest, and goes when 'd' comes.
    await store.peek('a', 'v');
    await store.get('d', 'v', async () => search(1000));
    expect(store.size()).toEqual({ entries: 3, bytes: 3 * bytes });
    expect(store.held('b', 'v')).toBeNull();
    for (const key of ['a', 'c', 'd']) expect(store.held(key, 'v')).not.toBeNull();
    // One search larger than the whole budget stays alone.
    await store.get('huge', 'v', async () => search(5000));
    expect(store.size().entries).toBe(1);
    expect(store.held('huge', 'v')).not.toBeNull();
  });

  it("makes a search's status bytes once, shares them and counts them in its bytes", async () => {
    const store = createResultStore({ maxBytes: 100 * bytes });
    const stored = await store.get('a', 'v', async () => search(1000));
    const status = store.statusBytes(stored);
    expect(store.statusBytes(stored)).toBe(status);
    expect(status.toString('utf8')).toMatch(
      /^\{"status":"SUCCESS","progress":100,"error":null,"result":\{"json":\{"results":\[/,
    );
    expect(JSON.parse(resultBytesOf(status).toString('utf8'))).toMatchObject({ filtered: false });
    expect(store.size()).toEqual({ entries: 1, bytes: bytes + status.byteLength });
    // The bytes of a search no longer held are not counted.
    const other = await store.get('a', 'v2', async () => search(1000));
    const otherStatus = store.statusBytes(other);
    expect(store.statusBytes(stored)).toBe(status);
    expect(store.size()).toEqual({ entries: 1, bytes: bytes + otherStatus.byteLength });
  });

  it('counts the views made from a search in its bytes, and lets older searches go when they pass the bound', async () => {
    const store = createResultStore({ maxBytes: 2 * bytes + 100 });
    const older = await store.get('a', 'v', async () => search(1000));
    const stored = await store.get('b', 'v', async () => search(1000));
    expect(store.size()).toEqual({ entries: 2, bytes: 2 * bytes });
    const needles = needlesOf(stored);
    expect(needlesOf(stored)).toBe(needles);
    const needleBytes = needles.reduce((sum, needle) => sum + 8 + needle.length * 2, 0);
    const histogramBytes = JSON.stringify(histogramsOf(stored)).length * 2;
    expect(stored.views.bytes).toBe(needleBytes + histogramBytes);
    // The views of 'b' passed the bound: 'a', the least recently used, went.
    expect(store.held('a', 'v')).toBeNull();
    expect(store.size()).toEqual({ entries: 1, bytes: bytes + needleBytes + histogramBytes });
    // A view made from a search no longer held is its own, not the store's.
    needlesOf(older);
    addViewBytes(older, 1000);
    expect(store.size()).toEqual({ entries: 1, bytes: bytes + needleBytes + histogramBytes });
    expect(older.views.bytes).toBeGreaterThan(1000);
  });

  it('counts the views a search kept from before brings when it is held again', async () => {
    const store = createResultStore({ maxBytes: 100 * bytes });
    const columns = search(1000);
    const first = await store.get('a', 'v', async () => columns);
    const status = store.statusBytes(first);
    needlesOf(first);
    const views = first.views.bytes;
    expect(views).toBeGreaterThan(status.byteLength);
    // Computed again with the same answer: the one held stays, with its views, counted once.
    expect(await store.get('a', 'v', async () => columns, true)).toBe(first);
    expect(store.size()).toEqual({ entries: 1, bytes: bytes + views });
  });

  it("compresses a search's status bytes once per encoding and counts them in its bytes", async () => {
    const store = createResultStore({ maxBytes: 100 * bytes });
    const stored = await store.get('a', 'v', async () => search(1000));
    const status = store.statusBytes(stored);
    const gzipped = store.statusCompressed(stored, 'gzip');
    expect(store.statusCompressed(stored, 'gzip')).toBe(gzipped);
    const brotli = store.statusCompressed(stored, 'br');
    expect(brotli).not.toBe(gzipped);
    expect(gunzipSync(await gzipped).equals(status)).toBe(true);
    expect(brotliDecompressSync(await brotli).equals(status)).toBe(true);
    expect(store.size()).toEqual({
      entries: 1,
      bytes: bytes + status.byteLength + (await gzipped).byteLength + (await brotli).byteLength,
    });
  });

  it('keeps the search held, and what was made from it, when one computed again gives the same answer', async () => {
    const store = createResultStore({ maxBytes: 100 * bytes });
    const columns = search(1000);
    const copy = (changed?: (columns: SearchColumns) => void) => async () => {
      const again = structuredClone({ ...columns, products: [] as ProductRecord[] });
      const result = { ...again, products: columns.products };
      changed?.(result);
      return result;
    };
    const held = await store.get('a', 'v', copy());
    const status = store.statusBytes(held);
    const again = await store.get('a', 'v', copy(), true);
    expect(again).toBe(held);
    expect(store.statusBytes(again)).toBe(status);
    expect(store.size()).toEqual({ entries: 1, bytes: bytes + status.byteLength });
    // One cell changed: a new search, whose bytes are made from its own columns.
    const changed = await store.get(
      'a',
      'v',
      copy((result) => (result.values[1]![3] = 0.25)),
      true,
    );
    expect(changed).not.toBe(held);
    expect(store.statusBytes(changed).equals(status)).toBe(false);
    // Another product list (even of the same products): a new search too.
    const relisted = await store.get(
      'a',
      'v',
      async () => ({ ...columns, products: [...columns.products] }),
      true,
    );
    expect(relisted).not.toBe(changed);
  });

  it('answers with the search finished before while it is computed again, and keeps it when the answers agree', async () => {
    const store = createResultStore({ maxBytes: 100 * bytes });
    const columns = search(1000);
    const same = async () => ({ ...columns, values: columns.values.map((column) => column.slice()) });
    const held = await store.get('a', 'v', same);
    let finish: () => void = () => undefined;
    const slow = () => new Promise<SearchColumns>((resolve) => (finish = () => void same().then(resolve)));
    // Two computations without the cache, one after the other, both under way.
    const first = store.get('a', 'v', slow, true);
    const firstFinish = finish;
    const second = store.get('a', 'v', slow, true);
    expect(await store.peek('a', 'v')).toBe(held);
    expect(await store.get('a', 'v', same)).toBe(held);
    firstFinish();
    finish();
    expect(await first).toBe(held);
    expect(await second).toBe(held);
    expect(store.held('a', 'v')).toBe(held);
    // Under another version the one before does not answer.
    const other = store.get('a', 'v2', slow, true);
    expect(store.held('a', 'v')).toBeNull();
    finish();
    expect(await other).not.toBe(held);
  });

  it('keeps nothing of a computation that failed', async () => {
    const store = createResultStore({ maxBytes: 10 * bytes });
    await expect(store.get('a', 'v', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(store.size()).toEqual({ entries: 0, bytes: 0 });
    expect(store.peek('a', 'v')).toBeNull();
  });
});

describe('sameJson', () => {
  const diagnostics = (message: string) => ({
    studies_found: 2,
    studies_with_anomalies: 1,
    studies: [{ study_id: 1, c_mi_number: 'CMI-1', details: [{ level: 'info', message, file: null }] }],
  });
  it('says what comparing the JSON texts says', () => {
    const pairs: [unknown, unknown][] = [
      [diagnostics('a'), diagnostics('a')],
      [diagnostics('a'), diagnostics('b')],
      [
        { a: 1, b: [1, 2, null] },
        { a: 1, b: [1, 2, null] },
      ],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [
        [1, 2],
        [1, 2, 3],
      ],
      [{ a: [] }, { a: {} }],
      [{ a: null }, { a: 0 }],
      [{ a: '1' }, { a: 1 }],
      [[{ x: 0.1 + 0.2 }], [{ x: 0.3 }]],
      [null, null],
    ];
    for (const [left, right] of pairs)
      expect(sameJson(left, right), JSON.stringify([left, right])).toBe(
        JSON.stringify(left) === JSON.stringify(right),
      );
  });
});
