// The design read from the data: defaults, warnings, and the intra-block analysis of incomplete blocks.
import {
  anovaIntrablock,
  assignSignificanceLetters,
  harmoniseToFivePoint,
  penaltySignificance,
} from '@accord/stats';
import { describe, expect, it } from 'vitest';
import type { Dataset } from './dataset.ts';
import { ADJUSTED_MEAN_ROW, generateStatistics, OMNIBUS_ROW, type GeneratorOptions } from './generate.ts';

const options: GeneratorOptions = {
  mainQuestion: 'liking',
  productOrder: 'Unspecified Product Order',
  testTypes: ['two_95', 'two_90'],
  parametric: true,
  regression: null,
  replaceProductCodes: false,
  charts: false,
  displayCorrelation: false,
};

/** The Fano plane: 7 products in blocks of 3, every pair together once. */
const FANO = [
  [0, 1, 3],
  [1, 2, 4],
  [2, 3, 5],
  [3, 4, 6],
  [4, 5, 0],
  [5, 6, 1],
  [6, 0, 2],
];
const CODES = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'];

/** A deterministic answer on 1-9: product effect, respondent effect and a little noise. */
const answer = (respondent: number, product: number): number =>
  Math.min(9, Math.max(1, 3 + product * 0.6 + (respondent % 3) + ((respondent * 7 + product * 3) % 5) * 0.5));

function dataset(blocks: readonly (readonly number[])[], replicates: number): Dataset {
  const rows: Dataset['rows'] = [];
  for (let copy = 0; copy < replicates; copy++)
    blocks.forEach((block, b) => {
      const respondent = copy * blocks.length + b;
      for (const product of block)
        rows.push({
          respondent: `r${respondent}`,
          product: CODES[product] as string,
          values: [Math.round(answer(respondent, product))],
        });
    });
  const used = [...new Set(blocks.flat())].sort().map((product) => CODES[product] as string);
  return {
    name: 'Design',
    questions: [{ id: 'liking', text: 'Overall liking', type: 'numerical', min: 1, max: 9 }],
    rows,
    products: used,
    productNames: new Map(),
  };
}

describe('design read from the data', () => {
  it('analyses a balanced incomplete block with the intra-block analysis and says so', () => {
    const data = dataset(FANO, 4);
    const result = generateStatistics(data, options);
    expect(result.design.found).toBe(
      'Design found: balanced incomplete block (every respondent rated the same number of products, every pair of products equally often); 28 respondents, 7 products.',
    );
    expect(result.design.paired).toBe(true);
    expect(result.design.multiple_comparisons).toBe('tukey_hsd');
    expect(result.design.warnings).toEqual([]);
    expect(result.design.analysis[0]).toMatch(/^Analysis used \(every question\): intra-block analysis/);
    expect(result.legend).toContain(result.design.found);

    // The letters are those of the Tukey-Kramer p-values of the adjusted means' contrasts.
    const harmonised = data.rows.map((row) => harmoniseToFivePoint(row.values[0] ?? Number.NaN, 1, 9));
    const anova = anovaIntrablock(
      data.rows.map((row) => row.respondent ?? ''),
      data.rows.map((row) => row.product),
      harmonised,
    );
    const outcomes = CODES.map((_, i) =>
      CODES.map((__, j) => {
        if (i === j) return null;
        const pair = anova.pairs.find(
          (entry) => entry.a === CODES[Math.min(i, j)] && entry.b === CODES[Math.max(i, j)],
        );
        const diff = (i < j ? 1 : -1) * (pair?.diff ?? 0);
        return { pValue: pair?.pTukey ?? 1, direction: diff > 0 ? ('mt' as const) : ('let' as const) };
      }),
    );
    const expected = assignSignificanceLetters(outcomes, [0.05, 0.1]).map((letter) => letter.text);
    const question = result.questions[0];
    expect(question?.analysis).toBe('intrablock');
    expect(question?.significance[0]?.letters.map((letter) => letter.text)).toEqual(expected);
    expect(expected.join('')).toMatch(/[A-G]/);

    const rows = result.summary.data.filter((row) => row[0] === 'liking: Overall liking');
    const adjusted = rows.find((row) => row[1] === ADJUSTED_MEAN_ROW)?.slice(2) as number[];
    adjusted.forEach((value, index) => expect(value).toBeCloseTo(anova.adjustedMeans[index] ?? 0, 12));
    const omnibus = String(rows.find((row) => row[1] === OMNIBUS_ROW)?.[2]);
    expect(omnibus).toMatch(
      /^Intra-block ANOVA \(products adjusted for respondents\): F = [\d.]+, df = 6, 50, p /,
    );
    expect(omnibus).not.toMatch(/not defined/);
  });

  it('says why rank tests give way to the intra-block analysis on incomplete blocks', () => {
    const result = generateStatistics(dataset(FANO, 2), { ...options, parametric: false });
    expect(result.design.multiple_comparisons).toBe('holm');
    // The letters' legend names the test the letters come from, not the rank test that was asked for.
    expect(result.legend[0]).toBe(
      'Intra-block contrasts of adjusted means, two-tailed. Upper case: significantly higher at 95 %; lower case: at 90 %.',
    );
    expect(result.design.analysis[0]).toContain(
      'The rank tests need complete blocks, so the parametric intra-block analysis is used for these questions.',
    );
  });

  it('defaults to paired tests on a complete block and warns when unpaired tests are chosen', () => {
    const complete = dataset([[0, 1, 2, 3]], 30);
    const fromDesign = generateStatistics(complete, options);
    expect(fromDesign.design.found).toBe(
      'Design found: complete block (every respondent rated every product); 30 respondents, 4 products.',
    );
    expect(fromDesign.design.paired).toBe(true);
    expect(fromDesign.questions[0]?.analysis).toBe('paired');
    expect(fromDesign.design.warnings).toEqual([]);
    const unpaired = generateStatistics(complete, { ...options, paired: false });
    expect(unpaired.questions[0]?.analysis).toBe('independent');
    expect(unpaired.design.warnings).toEqual([
      "Warning: unpaired tests were chosen, but the design found is complete block (every respondent rated every product): the tests treat each respondent's answers to different products as independent, which they are not. Choose paired tests.",
    ]);
    expect(unpaired.legend).toContain(unpaired.design.warnings[0]);
  });

  it('compares independent groups as such and warns when paired tests were asked for', () => {
    const independent = dataset(
      Array.from({ length: 40 }, (_, index) => [index % 4]),
      1,
    );
    expect(generateStatistics(independent, options).design.paired).toBe(false);
    const paired = generateStatistics(independent, { ...options, paired: true });
    expect(paired.questions[0]?.analysis).toBe('independent');
    expect(paired.design.warnings[0]).toMatch(
      /^Warning: paired tests were chosen, but the design found is independent groups/,
    );
    const omnibus = paired.summary.data.find((row) => row[1] === OMNIBUS_ROW)?.[2];
    expect(String(omnibus)).toMatch(/^One-way ANOVA: F = /);
  });

  it('gives no letters and says why for a disconnected incomplete design', () => {
    // Two halves no respondent links: products 0-2 and 3-5.
    const result = generateStatistics(
      dataset(
        [
          [0, 1],
          [1, 2],
          [0, 2],
          [3, 4],
          [4, 5],
          [3, 5],
        ],
        5,
      ),
      options,
    );
    expect(result.questions[0]?.significance[0]?.letters.every((letter) => letter.text === '')).toBe(true);
    const omnibus = String(result.summary.data.find((row) => row[1] === OMNIBUS_ROW)?.[2]);
    expect(omnibus).toContain(
      'The products fall into 2 sets that no respondent links (P1, P2, P3 | P4, P5, P6)',
    );
  });

  it('tests one-tailed letters against a benchmark only in the direction "candidate higher"', () => {
    // P1 (benchmark) is clearly liked less than P4 (its answers are 3 + 0 against 3 + 1.8).
    const complete = dataset([[0, 3]], 40);
    const result = generateStatistics(complete, {
      ...options,
      productOrder: 'Unspecified Product Order',
      benchmarkCodes: ['P4'],
      testTypes: ['one_95'],
      multipleComparisons: 'none',
    });
    // P4 is the benchmark and higher: the candidate P1 gets no letter, and neither does the benchmark.
    expect(result.questions[0]?.significance[0]?.letters.map((letter) => letter.text)).toEqual(['', '']);
    expect(result.legend).toContain(
      'One-tailed letters test the direction fixed in advance: a candidate significantly higher than a benchmark.',
    );
  });
});

describe('penalty analysis in the JAR table', () => {
  it('reports the drop with its standard error and p-value, and a truthful skip reason', () => {
    // 51 respondents: 10 too weak (19.6 %), 25 just right, 16 too strong.
    const jar = [...Array(10).fill(1), ...Array(25).fill(5), ...Array(16).fill(9)] as number[];
    const liking = jar.map((value, index) => (value === 5 ? 7 : 4) + (index % 3));
    const data: Dataset = {
      name: 'JAR',
      questions: [
        { id: 'liking', text: 'Overall liking', type: 'numerical', min: 1, max: 9 },
        { id: 'strength', text: 'Strength', type: 'jar', min: 1, max: 9 },
      ],
      rows: jar.flatMap((value, index) => [
        { respondent: `r${index}`, product: 'A', values: [liking[index] ?? 0, value] },
        { respondent: `r${index}`, product: 'B', values: [liking[index] ?? 0, value] },
      ]),
      products: ['A', 'B'],
      productNames: new Map(),
    };
    const result = generateStatistics(data, { ...options, strengthQuestions: ['strength'] });
    const row = result.jar?.data[0] ?? [];
    const tested = penaltySignificance(
      jar.map((value) => harmoniseToFivePoint(value, 1, 9)),
      liking.map((value) => harmoniseToFivePoint(value, 1, 9)),
    );
    expect(row.slice(7, 11)).toEqual([null, null, null, null]);
    expect(row[11]).toBeCloseTo(tested.tooMuch.drop ?? Number.NaN, 12);
    expect(row[12]).toBeCloseTo(tested.tooMuch.stdError ?? Number.NaN, 12);
    expect(row[13]).toBeCloseTo(tested.tooMuch.pValue ?? Number.NaN, 12);
    expect(row[15]).toBe('Weak or too weak skipped: under 20 % of respondents (19.6 %)');
  });
});
