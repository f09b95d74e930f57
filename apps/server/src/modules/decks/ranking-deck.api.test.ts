// The Best/Worst and Fragrance Attributes results as slides through the running app: the charts read
// back from the file hold the ranking the results table shows (GET /rankings/{jobId}) in rank order,
// as the table writes it, with bases, the filters in words on every slide; users who may download;
// a job is only its owner's.
import type { RankingRequest, RankingStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { readDeck } from '../../testing/pptx-deck.ts';
import { type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-ranking-deck-',
    { studies: 10, seed: 11, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const request = (method: 'GET' | 'POST', url: string, role: DemoRole | null, payload?: unknown) =>
  t.request({ method, url, payload, ...(role ? { token: tokens[role] } : {}) });

const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';

async function ranking(body: RankingRequest, role: DemoRole) {
  const queued = await request('POST', '/api/rankings', role, body);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = (await request('GET', `/api/rankings/${jobid}`, role)).json<RankingStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return { jobid, result: status.result!.json };
}

async function someRegion(): Promise<string> {
  const { rows } = await t.database.sql.executeSql(
    `select unnest(region) as region from studies where verified order by 1 limit 1`,
  );
  return (rows as { region: string }[])[0]!.region;
}

describe('GET /api/rankings/pptx/{jobId}', () => {
  it('charts the ranked rows in rank order as the table writes them, with bases and the filters in words', async () => {
    const region = await someRegion();
    const { jobid, result } = await ranking(
      {
        kind: 'testers',
        radioDesc: 'best',
        amount: 5,
        radioPercentType: 'number',
        type: 'fragrances',
        rdfType: 'all',
        narrowing: { client: [], region: [region], businessUnit: [], category: [], product: [], year: null },
      },
      'researcher',
    );
    expect(result.rows.length).toBeGreaterThan(1);
    expect(result.rows.some((row) => row.values[result.columns[0]!.key] != null)).toBe(true);
    const file = await request('GET', `/api/rankings/pptx/${jobid}`, 'researcher');
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.headers['content-type']).toContain('presentationml.presentation');
    expect(file.headers['content-disposition']).toContain('ranking.pptx');
    const slides = await readDeck(file.rawPayload);
    expect(slides).toHaveLength(1 + result.columns.length);
    expect(slides[0]!.text.split('\n')[0]).toBe(`Ranking: ${result.rows.length} fragrances`);
    result.columns.forEach((column, index) => {
      const slide = slides[index + 1]!;
      expect(slide.text.split('\n')[0]).toBe(`${column.label} ${column.aggregation_label}`);
      expect(slide.text).toContain(`Filters: Region: ${region}`);
      expect(slide.text).toContain(`Ranking: ${result.rows.length} fragrances in rank order, ranked by`);
      const shown = result.rows.filter((row) => row.values[column.key] != null);
      // A metric none of the ranked rows has (as "-" all down the table) says so instead of a chart.
      if (shown.length === 0) {
        expect(slide.charts).toHaveLength(0);
        expect(slide.text).toContain('No values to chart under these filters.');
        return;
      }
      const series = slide.charts[0]!.series[0]!;
      expect(series.values).toEqual(
        shown.map((row) =>
          column.aggregation === 'mean'
            ? Math.round(row.values[column.key]! * 100) / 100
            : Math.round(row.values[column.key]! * 100),
        ),
      );
      expect(series.categories[0]).toMatch(/^1\. /);
      expect(series.categories).toEqual(
        shown.map((row) =>
          expect.stringContaining(`${row.rank}. ${row.name ?? row.prod} (${row.c_mi_number})`),
        ),
      );
      expect(series.categories[0]).toContain(`n = ${shown[0]!.bases[column.key]}`);
    });
  });

  it('refuses anonymous callers (401), users who may not download (403), a bad id (400), and another user’s job (404)', async () => {
    const { jobid } = await ranking(
      {
        kind: 'testers',
        radioDesc: 'worst',
        amount: 20,
        radioPercentType: 'percentage',
        type: 'fragrances',
        rdfType: 'rdf',
      },
      'sales',
    );
    expect((await request('GET', `/api/rankings/pptx/${jobid}`, null)).statusCode).toBe(401);
    expect((await request('GET', `/api/rankings/pptx/${jobid}`, 'client')).statusCode).toBe(403);
    expect((await request('GET', '/api/rankings/pptx/not-a-job', 'sales')).statusCode).toBe(400);
    expect((await request('GET', `/api/rankings/pptx/${UNKNOWN_JOB}`, 'sales')).statusCode).toBe(404);
    expect((await request('GET', `/api/rankings/pptx/${jobid}`, 'researcher')).statusCode).toBe(404);
    const own = await request('GET', `/api/rankings/pptx/${jobid}`, 'sales');
    expect(own.statusCode).toBe(200);
    expect((await readDeck(own.rawPayload))[0]!.text).toContain('in rank order, ranked by');
  });
});
