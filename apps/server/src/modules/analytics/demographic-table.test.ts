import { describe, expect, it } from 'vitest';
import { respondentConditions } from './analytics.repository.ts';
import {
  countOfRow,
  demographicSums,
  demographicTableBuilder,
  type DemographicMatch,
  type DemographicRow,
  type DemographicTable,
} from './demographic-table.ts';

/** A table of rows at hand (grouped by product), built in one chunk. */
function buildDemographicTable(metricId: number, list: readonly DemographicRow[]): DemographicTable {
  const builder = demographicTableBuilder(metricId);
  builder.add(list);
  return builder.finish();
}

/** The sums of demographicSums as a list: each product with a kept row, in the table's order. */
function sumDemographics(table: DemographicTable, match: DemographicMatch, wanted: Set<number> | null) {
  const sums = demographicSums(table, match, wanted && [...wanted]);
  return Array.from(table.productIds).flatMap((productId) => sums.get(productId) ?? []);
}

/** A small deterministic generator, so that a failure is repeatable. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Rows of products 1..products, grouped by product, with every kind of gender and age. */
function rowsOf(products: number, seed: number): DemographicRow[] {
  const next = random(seed);
  const genders = ['Female', 'Male', 'Other', null];
  const list: DemographicRow[] = [];
  for (let productId = 1; productId <= products; productId++) {
    const cells = 1 + Math.floor(next() * 12);
    for (let cell = 0; cell < cells; cell++) {
      const n = 1 + Math.floor(next() * 9);
      const top2 = Math.floor(next() * (n + 1));
      list.push([
        productId * 7,
        genders[Math.floor(next() * genders.length)]!,
        next() < 0.1 ? null : 16 + Math.floor(next() * 60),
        n,
        n * (1 + next() * 4),
        n * (1 + next() * 24),
        Math.floor(top2 / 2),
        top2,
        n - top2,
        Math.floor((n - top2) / 2),
        Math.floor((n - top2) / 3),
      ]);
    }
  }
  return list;
}

/** The sums of the rows a filter keeps, product by product, read row by row. */
function bruteForce(list: DemographicRow[], match: DemographicMatch, wanted: Set<number> | null) {
  const byProduct = new Map<number, number[]>();
  for (const [productId, gender, age, ...sums] of list) {
    if (!match(gender, age) || (wanted && !wanted.has(productId))) continue;
    const total = byProduct.get(productId) ?? [0, 0, 0, 0, 0, 0, 0, 0];
    sums.forEach((value, index) => (total[index] = total[index]! + value));
    byProduct.set(productId, total);
  }
  return [...byProduct].map(([productId, total]) => ({
    productId,
    metricId: 3,
    n: total[0]!,
    sum: total[1]!,
    sumSq: total[2]!,
    nTopBox: total[3]!,
    nTop2Box: total[4]!,
    nJustRight: total[5]!,
    nBottom2Box: total[6]!,
    nBottomBox: total[7]!,
  }));
}

describe('sumDemographics', () => {
  const list = rowsOf(300, 11);
  const table = buildDemographicTable(3, list);

  it('sums the kept rows of each product as reading them one by one does', () => {
    const filters: DemographicMatch[] = [
      () => true,
      (gender) => gender === 'Female',
      (gender, age) => gender === 'Male' && age !== null && age >= 25 && age <= 44,
      (_, age) => age === null,
      () => false,
    ];
    for (const match of filters) {
      expect(sumDemographics(table, match, null)).toEqual(canonicalReference(list, match, null));
    }
  });

  it('leaves out products that are not wanted and products without a kept row', () => {
    const wanted = new Set([7, 14, 700, 2100, 99999]);
    const match: DemographicMatch = (gender, age) => gender === 'Other' && age !== null && age < 30;
    const found = sumDemographics(table, match, wanted);
    expect(found).toEqual(canonicalReference(list, match, wanted));
    expect(found.every((row) => wanted.has(row.productId) && row.n > 0)).toBe(true);
    expect(sumDemographics(table, match, new Set())).toEqual([]);
  });

  it('keeps a missing gender apart from a gender written as text', () => {
    const odd = buildDemographicTable(1, [
      [1, null, 30, 1, 4, 16, 0, 1, 0, 0, 0],
      [1, '', 30, 2, 6, 18, 0, 1, 0, 1, 0],
    ]);
    expect(odd.cells).toHaveLength(2);
    expect(sumDemographics(odd, (gender) => gender === '', null)).toMatchObject([{ n: 2, sum: 6 }]);
  });

  it("adds a product's kept rows in the order of their cells, whatever order they came in", () => {
    // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit: both products add by age.
    const rows: DemographicRow[] = [
      [5, 'Female', 30, 1, 0.1, 0.01, 0, 0, 0, 0, 0],
      [5, 'Male', 30, 1, 0.7, 0.49, 0, 0, 0, 0, 0],
      [5, 'Female', 20, 1, 0.2, 0.04, 0, 0, 0, 0, 0],
      [5, 'Female', 40, 1, 0.3, 0.09, 0, 0, 0, 0, 0],
      [6, 'Female', 40, 1, 0.3, 0.09, 0, 0, 0, 0, 0],
      [6, 'Female', 20, 1, 0.2, 0.04, 0, 0, 0, 0, 0],
      [6, 'Female', 30, 1, 0.1, 0.01, 0, 0, 0, 0, 0],
    ];
    expect(0.2 + 0.1 + 0.3).not.toBe(0.3 + 0.2 + 0.1);
    const sums = demographicSums(buildDemographicTable(3, rows), (gender) => gender === 'Female', null);
    expect(sums.get(5)?.sum).toBe(0.2 + 0.1 + 0.3);
    expect(sums.get(6)?.sum).toBe(0.2 + 0.1 + 0.3);
    expect(sums.get(5)?.sumSq).toBe(0.04 + 0.01 + 0.09);
  });

  it('reads by product id: none for a product not wanted, without a kept row or unknown', () => {
    const wanted = new Set([7, 14, 21]);
    const match: DemographicMatch = (gender) => gender === 'Female';
    const sums = demographicSums(table, match, [...wanted]);
    const expected = canonicalReference(list, match, wanted);
    expect(sums.size).toBe(expected.length);
    for (const row of expected) expect(sums.get(row.productId)).toEqual(row);
    for (const id of [28, 0, -7, 1.5, 300 * 7 + 1, 10 ** 9]) expect(sums.get(id)).toBeUndefined();
  });

  it('answers nothing for an empty table', () => {
    expect(sumDemographics(buildDemographicTable(1, []), () => true, null)).toEqual([]);
  });
});

/** A gender and age filter as respondentConditions builds them: genders kept (null: any) and an age range. */
function filterOf(
  genders: (string | null)[] | null,
  from: number | null,
  to: number | null,
): DemographicMatch {
  return (gender, age) =>
    (genders === null || genders.includes(gender)) &&
    (from === null || (age !== null && age >= from)) &&
    (to === null || (age !== null && age <= to));
}

/** The canonical order of cells: gender as text (missing last), then age (missing last). */
function cellOrder(a: DemographicRow, b: DemographicRow): number {
  if (a[1] !== b[1]) return a[1] === null ? 1 : b[1] === null ? -1 : a[1] < b[1] ? -1 : 1;
  if (a[2] === b[2]) return 0;
  return a[2] === null ? 1 : b[2] === null ? -1 : a[2] - b[2];
}

/**
 * Rows of products 1..products with one row per (gender, age) cell, as the database groups them:
 * genders including a missing one and an empty text, ages 16-80 and missing, sums not exact in
 * binary so that the order of additions shows in the last bits. Some products have only men.
 */
function groupedRowsOf(products: number, seed: number): DemographicRow[] {
  const next = random(seed);
  const genders = ['Female', 'Male', 'Other', '', null];
  const list: DemographicRow[] = [];
  for (let productId = 1; productId <= products; productId++) {
    const seen = new Set<string>();
    const cells = Math.floor(next() * 80);
    for (let cell = 0; cell < cells; cell++) {
      const gender = productId % 9 === 0 ? 'Male' : genders[Math.floor(next() * genders.length)]!;
      const age = next() < 0.05 ? null : 16 + Math.floor(next() * 65);
      if (seen.has(`${gender}:${age}`)) continue;
      seen.add(`${gender}:${age}`);
      const n = 1 + Math.floor(next() * 40);
      const top2 = Math.floor(next() * (n + 1));
      list.push([
        productId * 3,
        gender,
        age,
        n,
        (n * (1 + next() * 4)) / 7,
        (n * (1 + next() * 24)) / 3,
        top2 >> 1,
        top2,
        n - top2,
        (n - top2) >> 1,
        (n - top2) >> 2,
      ]);
    }
  }
  return list;
}

/** The naive reference: each product's kept rows, in canonical order, added one by one from zero. */
function canonicalReference(list: DemographicRow[], match: DemographicMatch, wanted: Set<number> | null) {
  const byProduct = new Map<number, DemographicRow[]>();
  for (const row of list) byProduct.set(row[0], [...(byProduct.get(row[0]) ?? []), row]);
  const sorted = [...byProduct.values()].flatMap((rows) => [...rows].sort(cellOrder));
  return bruteForce(sorted, match, wanted);
}

/** Every number of the sums as the bits of a double, so that toEqual compares to the last bit. */
function bits(rows: ReturnType<typeof bruteForce>) {
  return rows.map((row) =>
    Object.values(row).map((value) => Buffer.from(Float64Array.of(value).buffer).toString('hex')),
  );
}

/** The rows of each product shuffled, products still in order. */
function shuffledWithinProducts(list: DemographicRow[], seed: number): DemographicRow[] {
  const next = random(seed);
  const byProduct = new Map<number, DemographicRow[]>();
  for (const row of list) byProduct.set(row[0], [...(byProduct.get(row[0]) ?? []), row]);
  return [...byProduct.values()].flatMap((rows) => {
    const copy = [...rows];
    for (let at = copy.length - 1; at > 0; at--) {
      const other = Math.floor(next() * (at + 1));
      [copy[at], copy[other]] = [copy[other]!, copy[at]!];
    }
    return copy;
  });
}

describe('sums over runs of cells in canonical order', () => {
  const list = groupedRowsOf(400, 23);
  const table = buildDemographicTable(3, list);
  const ages = [null, 16, 17, 18, 25, 45, 65, 79, 80];

  it("orders the cells by gender then age, a missing one last, and each product's rows by cell", () => {
    const order = table.cells.map((cell): DemographicRow => [
      0,
      cell.gender,
      cell.age,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
    expect([...order].sort(cellOrder)).toEqual(order);
    expect(table.cells[0]).toEqual({ gender: '', age: 16 });
    expect(table.cells.at(-1)).toEqual({ gender: null, age: null });
    for (let product = 0; product < table.products; product++)
      for (let row = table.starts[product]! + 1; row < table.starts[product + 1]!; row++)
        expect(table.cellOf[row]!).toBeGreaterThan(table.cellOf[row - 1]!);
  });

  it('sums random gender and age filters as the naive reference does, to the last bit', () => {
    const next = random(5);
    const genders = ['Female', 'Male', 'Other', '', null];
    for (let trial = 0; trial < 60; trial++) {
      const kept = next() < 0.2 ? null : genders.filter(() => next() < 0.5);
      let from = ages[Math.floor(next() * ages.length)]!;
      let to = ages[Math.floor(next() * ages.length)]!;
      if (from !== null && to !== null && from > to) [from, to] = [to, from];
      const match = filterOf(kept, from, to);
      const wanted =
        next() < 0.5 ? null : new Set(Array.from({ length: 100 }, () => 3 * Math.floor(next() * 420)));
      const expected = canonicalReference(list, match, wanted);
      expect(bits(sumDemographics(table, match, wanted))).toEqual(bits(expected));
    }
  });

  it('sums runs at the first and the last cell, single cells and cells kept here and there', () => {
    const first = table.cells[0]!;
    const last = table.cells.at(-1)!;
    const filters: DemographicMatch[] = [
      (gender, age) => gender === first.gender && age === first.age,
      (gender, age) => gender === last.gender && age === last.age,
      (gender, age) => (gender === first.gender && age === first.age) || (gender === null && age === null),
      (gender) => gender === null,
      (_, age) => age === null,
      (_, age) => age !== null && age % 3 === 0,
      (gender, age) => gender !== 'Male' || age === 40,
      () => true,
      () => false,
    ];
    for (const match of filters)
      expect(bits(sumDemographics(table, match, null))).toEqual(bits(canonicalReference(list, match, null)));
  });

  it("builds the same table, bit for bit, whatever order each product's rows come in", () => {
    for (const seed of [1, 2, 3]) {
      const shuffled = buildDemographicTable(3, shuffledWithinProducts(list, seed));
      expect(shuffled.cells).toEqual(table.cells);
      for (const column of ['productIds', 'starts', 'cellOf', 'n', 'sum', 'sumSq', 'boxes'] as const)
        expect(Buffer.from(shuffled[column].buffer).equals(Buffer.from(table[column].buffer))).toBe(true);
      const match = filterOf(['Female', null], 25, 45);
      expect(bits(sumDemographics(shuffled, match, null))).toEqual(bits(sumDemographics(table, match, null)));
    }
  });
});

describe('the counts of a table', () => {
  const row = (productId: number, age: number, n: number, box: number): DemographicRow => [
    productId,
    'Female',
    age,
    n,
    n * 3,
    n * 9,
    box,
    box,
    0,
    0,
    0,
  ];

  it('are kept in two bytes when every count fits them, 65535 included', () => {
    const table = buildDemographicTable(1, [row(1, 30, 65535, 65535), row(1, 31, 1, 0), row(2, 30, 7, 3)]);
    expect(table.n).toBeInstanceOf(Uint16Array);
    expect(table.boxes).toBeInstanceOf(Uint16Array);
    expect(table.n.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(demographicSums(table, () => true, null).get(1)).toMatchObject({ n: 65536, nTopBox: 65535 });
  });

  it('are kept in four bytes when a count is larger, never wrapped around', () => {
    for (const [n, box] of [
      [65536, 1],
      [5, 70000],
      [1_000_000, 0],
    ]) {
      const list = [row(1, 30, n!, box!), row(1, 31, 1, 1), row(2, 30, 7, 3)];
      const table = buildDemographicTable(3, list);
      expect(table.n).toBeInstanceOf(Int32Array);
      expect(table.boxes).toBeInstanceOf(Int32Array);
      expect(sumDemographics(table, (_, age) => age === 30, null)).toEqual(
        canonicalReference(list, (_, age) => age === 30, null),
      );
      expect(demographicSums(table, () => true, null).get(1)).toMatchObject({ n: n! + 1, nTopBox: box! + 1 });
    }
  });

  it('are checked over every row of every chunk, a large count in the last row included', () => {
    const builder = demographicTableBuilder(1);
    builder.add(groupedRowsOf(30, 4));
    builder.add([row(1000, 40, 1, 65536)]);
    expect(builder.finish().boxes).toBeInstanceOf(Int32Array);
  });
});

describe('the running totals of the counts', () => {
  const row = (productId: number, gender: string, age: number, n: number, box: number): DemographicRow => [
    productId,
    gender,
    age,
    n,
    n / 3,
    n / 7,
    box,
    n - box,
    0,
    box >> 1,
    1,
  ];

  it("give back every row's counts, in canonical order", () => {
    const list = groupedRowsOf(200, 31);
    const table = buildDemographicTable(3, list);
    const byProduct = new Map<number, DemographicRow[]>();
    for (const line of list) byProduct.set(line[0], [...(byProduct.get(line[0]) ?? []), line]);
    const canonical = [...byProduct.values()].flatMap((rows) => [...rows].sort(cellOrder));
    expect(table.rows).toBe(canonical.length);
    canonical.forEach((line, at) => {
      expect(countOfRow(table, 'n', 0, at)).toBe(line[3]);
      for (let slot = 0; slot < 5; slot++) expect(countOfRow(table, 'boxes', slot, at)).toBe(line[6 + slot]);
    });
  });

  it("count runs at a product's first and last row, single rows, and products of one row", () => {
    const list = [
      row(1, 'Female', 20, 3, 1),
      row(1, 'Female', 30, 5, 2),
      row(1, 'Female', 40, 7, 4),
      row(1, 'Male', 20, 11, 6),
      row(1, 'Male', 40, 13, 9),
      row(2, 'Female', 30, 17, 12),
      row(3, 'Male', 40, 19, 15),
    ];
    const table = buildDemographicTable(3, list);
    const filters: DemographicMatch[] = [
      filterOf(['Female'], 20, 20),
      filterOf(['Male'], 40, 40),
      filterOf(['Female'], 30, 30),
      filterOf(['Female', 'Male'], 20, 20),
      filterOf(['Female', 'Male'], 40, 40),
      filterOf(['Female', 'Male'], 30, 40),
      filterOf(['Female'], 20, 40),
      filterOf(null, null, null),
      filterOf(['Male'], 20, 30),
      (gender, age) => (gender === 'Female' && age !== 30) || (gender === 'Male' && age === 20),
      filterOf(['Other'], null, null),
    ];
    for (const match of filters)
      expect(bits(sumDemographics(table, match, null))).toEqual(bits(canonicalReference(list, match, null)));
    expect(demographicSums(table, filterOf(['Female'], 30, 30), null).get(2)).toMatchObject({
      n: 17,
      nTopBox: 12,
    });
    expect(demographicSums(table, filterOf(['Male'], null, null), null).get(2)).toBeUndefined();
  });

  it('are kept in two bytes while every total before a row fits them, a larger whole included', () => {
    // Totals before each row 0, 30000 and 65535; the product's whole count 65536 is never stored.
    const list = [row(1, 'Female', 20, 30000, 0), row(1, 'Female', 30, 35535, 0), row(1, 'Female', 40, 1, 1)];
    const table = buildDemographicTable(1, list);
    expect(table.n).toBeInstanceOf(Uint16Array);
    expect(table.boxes).toBeInstanceOf(Uint16Array);
    expect(demographicSums(table, () => true, null).get(1)).toMatchObject({
      n: 65536,
      nTopBox: 1,
      nTop2Box: 65535,
    });
    expect(demographicSums(table, (_, age) => age! >= 30, null).get(1)).toMatchObject({ n: 35536 });
  });

  it('fall back to four bytes when a total does not fit two, every row fitting them, never wrapped around', () => {
    for (const list of [
      [row(1, 'Female', 20, 40000, 0), row(1, 'Female', 30, 40000, 0), row(1, 'Female', 40, 1, 0)],
      [
        row(1, 'Female', 20, 50000, 50000),
        row(1, 'Female', 30, 50000, 50000),
        row(1, 'Female', 40, 1, 1),
        row(2, 'Male', 30, 9, 4),
      ],
    ]) {
      expect(list.every((line) => line.slice(3).every((count) => (count as number) <= 0xffff))).toBe(true);
      const table = buildDemographicTable(3, list);
      expect(table.n).toBeInstanceOf(Int32Array);
      expect(table.boxes).toBeInstanceOf(Int32Array);
      expect(table.n.buffer).toBeInstanceOf(SharedArrayBuffer);
      const filters = [() => true, filterOf(null, 30, 40), filterOf(null, 20, 30), filterOf(null, 30, 30)];
      for (const match of filters)
        expect(sumDemographics(table, match, null)).toEqual(canonicalReference(list, match, null));
    }
  });

  it('refuse counts and totals beyond four bytes rather than wrap them around', () => {
    expect(() => buildDemographicTable(1, [row(1, 'Female', 20, 2 ** 31, 0)])).toThrow(/four bytes/);
    expect(() => buildDemographicTable(1, [row(1, 'Female', 20, 1, 2 ** 32 + 1)])).toThrow(/four bytes/);
    const large = [
      row(1, 'Female', 20, 2 ** 30, 0),
      row(1, 'Female', 30, 2 ** 30, 0),
      row(1, 'Female', 40, 1, 0),
    ];
    expect(() => buildDemographicTable(1, large)).toThrow(/four bytes/);
  });
});

describe('respondentConditions match', () => {
  it('tests gender and age as the SQL conditions do, a missing value failing', () => {
    const { match } = respondentConditions({ gender: ['Female', 'Other'], startAge: 25, endAge: 44 }, []);
    expect(match?.('Female', 25)).toBe(true);
    expect(match?.('Other', 44)).toBe(true);
    expect(match?.('Female', 45)).toBe(false);
    expect(match?.('Male', 30)).toBe(false);
    expect(match?.(null, 30)).toBe(false);
    expect(match?.('Female', null)).toBe(false);
  });

  it('combines the results-table conditions with the panel filters', () => {
    const { match } = respondentConditions({ startAge: 18 }, [
      { field: 'gender', filter: { type: 'equal', value: 'Male' } },
      { field: 'age', filter: { type: 'range', from: 30, to: 39 } },
    ]);
    expect(match?.('Male', 35)).toBe(true);
    expect(match?.('Male', 40)).toBe(false);
    expect(match?.('Female', 35)).toBe(false);
  });

  it('has no test when a filter needs the respondents themselves', () => {
    expect(respondentConditions({ gender: ['Female'], ethnicity: ['Asian'] }, []).match).toBeNull();
    expect(
      respondentConditions({}, [{ field: 'bumo', filter: { type: 'equal', value: 'Brand user' } }]).match,
    ).toBeNull();
  });
});

describe('demographicTableBuilder', () => {
  it('builds from chunks the table the whole list builds, a product split between chunks included', () => {
    const list = rowsOf(50, 5);
    const builder = demographicTableBuilder(3);
    for (const size of [1, 0, 7, 300, 2000]) builder.add(list.splice(0, size));
    builder.add(list);
    const whole = buildDemographicTable(3, rowsOf(50, 5));
    const chunked = builder.finish();
    expect(chunked).toEqual(whole);
    expect(chunked.products).toBe(50);
    expect(chunked.productIds).toEqual(Int32Array.from({ length: 50 }, (_, index) => (index + 1) * 7));
    expect(chunked.starts).toHaveLength(51);
    expect(chunked.starts[50]).toBe(chunked.rows);
    expect(chunked.maxProductId).toBe(350);
    const match: DemographicMatch = (gender) => gender !== null;
    expect(sumDemographics(chunked, match, null)).toEqual(canonicalReference(rowsOf(50, 5), match, null));
  });
});
