// The analytics downloads written and read back with exceljs: the header block states the search's
// filters in words, the metrics carry the significance marks beside the numbers they qualify (with
// their legend), every aggregate has its base n, low bases are marked, and the print set-up holds.
import {
  MetricSearchRequest,
  performanceBaseNotes,
  SignificanceRequest,
  TopAttributesRequest,
  type MetricSearchResult,
  type SignificanceStatus,
} from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import { reportBytes, reportDate } from '../../lib/report-workbook.ts';
import { openWorkbook, readReport } from '../../testing/report-table.ts';
import {
  attributesReport,
  metricsReport,
  performanceReport,
  profileReport,
  tendenciesReport,
  FILTERS_NOT_KEPT,
} from '../analytics/analytics-exports.ts';
import { SIGNIFICANCE_EXPORT_MESSAGES, checkSameList, markTable, type Mark } from './significance-marks.ts';

const who = { author: 'researcher@accord.test', date: new Date('2026-11-25T09:40:00Z') };

const request = MetricSearchRequest.parse({
  q: {
    essentials: { region: ['Europe'] },
    demographics: { gender: ['Female'], startAge: 18, endAge: 34 },
    metrics: {
      metricsList: [
        { metric: 'liking', aggregation: 'top_2_box', confidence: true },
        { metric: 'liking', aggregation: 'mean', confidence: true },
      ],
    },
  },
});

const column = (aggregation: 'top_2_box' | 'mean') => ({
  metric: 'liking',
  label: 'Overall Liking',
  metric_type: 'Performance',
  aggregation,
  aggregation_label: aggregation === 'mean' ? 'M' : 'T2B',
  confidence: true,
  key: `liking.${aggregation}`,
});

const row = (id: number, name: string, t2b: number | null, mean: number | null, n: number) => ({
  id,
  study_id: 1,
  c_mi_number: 'CMI-1',
  category: 'Fabric Care',
  product: 'Softener',
  name,
  prod: `P${id}`,
  kind: 'fragrance' as const,
  values: { 'liking.top_2_box': t2b, 'liking.mean': mean },
  bases: { 'liking.top_2_box': n, 'liking.mean': n },
  low_base: n < 30 ? ['liking.top_2_box', 'liking.mean'] : [],
});

const result: MetricSearchResult = {
  type: 'fragrances',
  columns: [column('top_2_box'), column('mean')],
  results: [row(1, 'Alpha', 0.62, 3.91, 120), row(2, 'Beta', 0.31, 3.02, 118), row(3, 'Gamma', 0.5, 3.4, 20)],
  summary: {},
  diagnostics: { studies_found: 1, studies_with_anomalies: 0, studies: [] },
  filtered: true,
  performance: [
    {
      category: { name: 'client', value: 'Acme' },
      metrics: [
        { name: 'liking.top_2_box', value: 0.48 },
        { name: 'liking.mean', value: 3.5 },
      ],
      fragrances: 2,
      n: { 'liking.top_2_box': 238, 'liking.mean': 238 },
    },
    {
      category: { name: 'client', value: 'Zenith' },
      metrics: [
        { name: 'liking.top_2_box', value: 0.5 },
        { name: 'liking.mean', value: 3.4 },
      ],
      fragrances: 1,
      n: { 'liking.top_2_box': 20, 'liking.mean': 20 },
    },
  ],
};

const mark = (level: number | null, table: 'mt' | 'let' | null, test: string): Mark => ({
  level,
  table,
  test,
  p_value: level === null ? 0.4 : level / 2,
  n: 100,
});
type SignificanceResult = NonNullable<SignificanceStatus['result']>;
/** Rows as the significance job answers them: the product id and a mark per confidence column. */
const rows = (list: ({ id: number } & Record<string, Mark | number>)[]) =>
  list as unknown as SignificanceResult['results'];
const significance: SignificanceResult = {
  calculation: 'avg',
  results: rows([
    {
      id: 1,
      'liking.top_2_box.confidence': mark(0.01, 'mt', 'one-proportion-z'),
      'liking.mean.confidence': mark(0.05, 'mt', 'one-sample-t'),
    },
    {
      id: 2,
      'liking.top_2_box.confidence': mark(0.1, 'let', 'one-proportion-z'),
      'liking.mean.confidence': mark(null, null, 'one-sample-t'),
    },
    {
      id: 3,
      'liking.top_2_box.confidence': mark(null, null, 'one-proportion-z'),
      'liking.mean.confidence': mark(null, null, 'one-sample-t'),
    },
  ]),
};

const significanceRequest = SignificanceRequest.parse({
  data: result.results.map((r) => ({ id: r.id })),
  calculation: 'avg',
  metrics: [
    { field: 'liking', aggregation: 'top_2_box', confidence: true },
    { field: 'liking', aggregation: 'mean', confidence: true },
  ],
  demographics: request.q.demographics,
  demographics_fragrances: [],
});

async function written(report: ReturnType<typeof metricsReport>) {
  return readReport(await openWorkbook(await reportBytes('Sheet', report.header, report.table)));
}

describe('fragrance_metrics.xlsx', () => {
  it('states the search’s filters in words in its header block', async () => {
    const sheet = await written(metricsReport(result, new Set(['bases']), who, request));
    expect(sheet.lines).toEqual([
      'Metric search: 3 fragrances',
      'Filters: Region: Europe; Gender: Female; Age: 18 to 34',
      'Studies: 1 study',
      'Metrics: T2B Overall Liking, M Overall Liking',
      'Spreadsheet: bases shown',
      'Prepared by: researcher@accord.test',
      `Date: ${reportDate(who.date)}`,
      'All scores and metrics have been harmonized to a common 5 point scale.',
    ]);
    const none = await written(
      metricsReport(
        result,
        new Set(['bases']),
        who,
        MetricSearchRequest.parse({ q: { metrics: request.q.metrics } }),
      ),
    );
    expect(none.lines[1]).toBe('Filters: No filters');
    const old = await written(metricsReport(result, new Set(['bases']), who, null));
    expect(old.lines[1]).toBe(`Filters: ${FILTERS_NOT_KEPT}`);
  });

  it('names the selection and the respondents it was filtered on', async () => {
    const selected = MetricSearchRequest.parse({
      ...request,
      fragrances: [{ id: 1 }, { id: 2 }],
      demographics_fragrances: [{ field: 'age', filter: { type: 'range', from: 25, to: 34 } }],
    });
    const sheet = await written(metricsReport(result, new Set(['bases']), who, selected));
    expect(sheet.lines.slice(1, 4)).toEqual([
      'Filters: Region: Europe; Gender: Female; Age: 18 to 34',
      'Selection: 2 chosen fragrances',
      'Respondents of the selection: Age: 25 to 34',
    ]);
  });

  it('writes each mark right of the number it qualifies, coloured as on screen, with the legend', async () => {
    const marks = markTable(significance);
    const sheet = await written(metricsReport(result, new Set(['bases']), who, request, marks));
    expect(sheet.headings).toEqual([
      'CMI #',
      'Fragrance',
      'Category',
      'Product',
      'Product code',
      'T2B Overall Liking',
      'Significance (T2B Overall Liking)',
      'Base n (T2B Overall Liking)',
      'M Overall Liking',
      'Significance (M Overall Liking)',
      'Base n (M Overall Liking)',
    ]);
    expect(sheet.lines).toContain(
      'Significance: Selection vs Average, two-sided tests at 99, 95, 90 % confidence; correction: No correction',
    );
    // Each row against the significance job's answer: the level and direction beside the value.
    const expected = (id: number, key: string) => {
      const found = significance.results.find((r) => r.id === id)![`${key}.confidence`] as ReturnType<
        typeof mark
      >;
      if (found.level === null) return undefined;
      return `${found.table === 'mt' ? '▲' : '▼'} ${Math.round((1 - found.level) * 100)}%`;
    };
    result.results.forEach((r, index) => {
      const cells = sheet.rows[index]!;
      expect(cells.slice(5)).toEqual([
        r.values['liking.top_2_box'],
        expected(r.id, 'liking.top_2_box'),
        r.bases['liking.top_2_box'],
        r.values['liking.mean'],
        expected(r.id, 'liking.mean'),
        r.bases['liking.mean'],
      ]);
    });
    expect(sheet.rows[0]![6]).toBe('▲ 99%');
    expect(sheet.rows[1]![6]).toBe('▼ 90%');
    const higher = sheet.tableRows[0]!.getCell(7);
    const lower = sheet.tableRows[1]!.getCell(7);
    expect(higher.font?.color?.argb).toBe('FF1B5E20');
    expect(lower.font?.color?.argb).toBe('FF8E1B1B');
    expect(higher.alignment?.horizontal).toBe('right');
    // Low bases: the value starred, the base said to be low, the footnote under the table.
    expect(sheet.tableRows[2]!.getCell(6).numFmt).toBe('0%" *"');
    expect(sheet.tableRows[2]!.getCell(8).numFmt).toBe('#,##0" (low base)"');
    expect(sheet.tableRows[0]!.getCell(8).numFmt).toBe('#,##0');
    expect(sheet.footnotes).toEqual([
      'Shares are of the answers counted (base n); means are on the harmonised 1 to 5 scale.',
      '▲ 99% / ▲ 95% / ▲ 90%: significantly higher than the average of the list at that confidence; ▼: significantly lower; blank: not significant (Selection vs Average).',
      'Green: good news, red: bad news (a higher bottom box, bottom 2 box, too strong or too weak share is bad news).',
      'Correction: No correction: each of the 6 tests is read on its own p-value.',
      '"low base: not tested": fewer than 30 answers, so no test and no mark.',
      'Tests: one-sample z-test of a proportion; one-sample t-test.',
      '* and (low base): a base below 30 answers; read with care.',
    ]);
    expect(sheet.sheet.autoFilter).toBe(`A${sheet.headingRow}:K${sheet.headingRow}`);
    expect(sheet.sheet.pageSetup).toMatchObject({
      orientation: 'landscape',
      fitToWidth: 1,
      fitToHeight: 0,
      printTitlesRow: `${sheet.headingRow}:${sheet.headingRow}`,
    });
  });

  it('writes marks only for the metrics significance was calculated on', async () => {
    const onlyShare = markTable({
      calculation: 'rest',
      results: rows(
        significance.results.map(({ id, 'liking.top_2_box.confidence': share }) => ({
          id,
          'liking.top_2_box.confidence': share!,
        })),
      ),
    });
    const sheet = await written(metricsReport(result, new Set<string>(), who, request, onlyShare));
    expect(sheet.headings.slice(5)).toEqual([
      'T2B Overall Liking',
      'Significance (T2B Overall Liking)',
      'M Overall Liking',
    ]);
    expect(sheet.lines).toContain('Spreadsheet: bases hidden');
    expect(sheet.footnotes[1]).toContain('the average of the rest of the list');
  });
});

describe('checkSameList', () => {
  it('accepts the significance of the search’s own list', () => {
    expect(() => checkSameList(request, result, significanceRequest)).not.toThrow();
  });

  it('refuses another list of products, other respondents or another metric', () => {
    const refusals = [
      { ...significanceRequest, data: significanceRequest.data.slice(0, 2) },
      { ...significanceRequest, data: [...significanceRequest.data.slice(0, 2), { id: 9 }] },
      { ...significanceRequest, demographics: { gender: ['Male'] } },
      {
        ...significanceRequest,
        demographics_fragrances: [
          { field: 'gender' as const, filter: { type: 'equal' as const, value: 'Male' } },
        ],
      },
      {
        ...significanceRequest,
        metrics: [{ field: 'fresh', aggregation: 'mean' as const, confidence: true }],
      },
    ];
    for (const other of refusals)
      expect(() => checkSameList(request, result, other)).toThrow(SIGNIFICANCE_EXPORT_MESSAGES.otherList);
  });
});

describe('the other analytics workbooks state their filters in words', () => {
  it('fragrance_performance.xlsx', async () => {
    const sheet = await written(
      performanceReport(result, 'client', { key: 'liking.mean', desc: false }, who, request),
    );
    expect(sheet.lines[0]).toBe('Performance by Client');
    expect(sheet.lines[1]).toBe('Filters: Region: Europe; Gender: Female; Age: 18 to 34');
    expect(sheet.rows.map((r) => r[0])).toEqual(['Zenith', 'Acme']);
    expect(sheet.tableRows[0]!.getCell(4).numFmt).toBe('#,##0" (low base)"');
    // The base in words: answers pooled per row, products weighed by their respondents, overlapping rows.
    expect(sheet.footnotes).toEqual(expect.arrayContaining(performanceBaseNotes('products')));
    expect(sheet.footnotes.join(' ')).toContain('counts in each of its rows');
  });

  it('fragrance_attributes.xlsx', async () => {
    const asked = TopAttributesRequest.parse({
      q: { essentials: { category: ['Fabric Care'] } },
      demographics: [{ field: 'gender', filter: { type: 'equal', value: 'Female' } }],
      data: { order: 'worst', count: 5, aggregation: 'mean', attribute_type: 'binary' },
    });
    const sheet = await written(
      attributesReport(
        {
          fragrances: 4,
          attributes: [
            {
              attribute: 'Fresh',
              field: 'fresh',
              top_2_box: null,
              bottom_2_box: null,
              mean: null,
              top_box: null,
              bottom_box: null,
              selected: 0.4,
              is_binary_scale: true,
              n: 80,
            },
          ],
        },
        who,
        asked,
      ),
    );
    expect(sheet.lines.slice(1, 5)).toEqual([
      'Filters: Category: Fabric Care',
      'Respondents of the selection: Gender: Female',
      'Ranking: Worst 5 by Mean, CATA attributes',
      'Pooled over: 4 fragrances',
    ]);
    expect(sheet.rows[0]![0]).toBe('Fresh*');
    // A yes/no attribute is a share "% selected", with no mean or boxes.
    expect(sheet.headings.slice(0, 3)).toEqual(['Attribute', '% selected', 'Top 2 Box']);
    expect(sheet.rows[0]![1]).toBe(0.4);
    expect(sheet.rows[0]!.map((value) => value ?? null)).toEqual([
      'Fresh*',
      0.4,
      null,
      null,
      null,
      null,
      null,
      80,
    ]);
    expect(sheet.footnotes.join(' ')).toContain('share of answers selecting it (% selected)');
  });

  it('fragrance_tendencies.xlsx (fragrances counted: no respondent filters)', async () => {
    const sheet = await written(
      tendenciesReport(
        {
          table_data: [{ name: 'Citrus', count: 3, percentage: 60 }],
          chart_data: { labels: [], data: [] },
          total: 5,
        },
        'perfume_characteristics.family',
        { ...request.q, metrics: { rdfType: 'eeg' } },
        null,
        who,
      ),
    );
    expect(sheet.lines.slice(1, 4)).toEqual([
      'Filters: Region: Europe',
      'Study type: EEG',
      'Fragrances counted: 5',
    ]);
  });

  it('fragrance_profile.xlsx', async () => {
    const profile = {
      result: [],
      info: {
        product_id: 1,
        project_name: 'Study',
        client: 'Acme',
        name: 'Alpha',
        code: null,
        c_mi_number: 'CMI-1',
        prod: 'P1',
        ref_number: null,
        concept_code: null,
        category: null,
        product: null,
      },
      filters: [],
      time_series: {},
    };
    const filtered = await written(
      profileReport(profile, [{ field: 'age', filter: { type: 'range', from: 18, to: 34 } }], who),
    );
    expect(filtered.lines[2]).toBe('Filters: Age: 18 to 34');
    expect((await written(profileReport(profile, [], who))).lines[2]).toBe('Filters: No filters');
  });
});
