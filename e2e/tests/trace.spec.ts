import { readFile } from 'node:fs/promises';
import type {
  ProfileResponse,
  StudyDetailsResponse,
  StudySummaryRow,
  TraceResponse,
} from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function json<T>(request: APIRequestContext, token: string, path: string, data?: unknown): Promise<T> {
  const response = data
    ? await request.post(`/api${path}`, { headers: auth(token), data })
    : await request.get(`/api${path}`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** Screenshots of the open trace when TRACE_SHOTS names a folder (for looking at the screen). */
async function shoot(page: Page, name: string) {
  const folder = process.env.TRACE_SHOTS;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: false });
}

test('a researcher traces a profile number to its results file and its answers csv', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const studies = await json<StudySummaryRow[]>(
    request,
    researcher,
    '/smartsearch/study_summarises?per_page=20',
    {
      query: { essentials: { verified: true } },
    },
  );
  let chosen: { studyId: number; code: string; profile: ProfileResponse } | null = null;
  for (const study of studies) {
    const details = await json<StudyDetailsResponse>(request, researcher, `/study/${study.id}`);
    const fragrance = details.perfume_characteristics[0];
    if (!fragrance) continue;
    const profile = await json<ProfileResponse>(
      request,
      researcher,
      `/study/${study.id}/fragrance/${encodeURIComponent(fragrance.fragrance_code)}`,
      { demographics: [] },
    );
    if (profile.result.some((row) => row.metric === 'liking' && row.n > 0)) {
      chosen = { studyId: study.id, code: fragrance.fragrance_code, profile };
      break;
    }
  }
  expect(chosen, 'a verified fragrance with liking answers').not.toBeNull();
  const { studyId, code, profile } = chosen!;
  const liking = profile.result.find((row) => row.metric === 'liking')!;

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/analytics/profile/${studyId}/${encodeURIComponent(code)}`);
  await expect(page.getByRole('table', { name: 'Performance data', exact: true })).toBeVisible();

  // The liking row opens "How was this computed?" on its mean, the number the table shows.
  const opener = page.getByRole('button', {
    name: `How was this computed? ${liking.metric_name}`,
    exact: true,
  });
  await opener.click();
  const drawer = page.getByRole('dialog', { name: 'How was this computed?' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId('trace-value')).toHaveText((liking.mean as number).toFixed(2));
  await expect(drawer.getByTestId('trace-base-answers')).toHaveText(String(liking.n));
  await expect(drawer.getByTestId('trace-filters')).toContainText('No respondent filters');
  await expect(drawer.getByText(/^Scale \d+ to \d+ \(\d+ points\)\./).first()).toBeVisible();
  await expectAccessible(page, 'the trace of a profile row');
  await shoot(page, 'trace-profile-1440');

  // The top 2 box of the same row, as the table shows it.
  await drawer.getByText('T2B', { exact: true }).click();
  await expect(drawer.getByTestId('trace-value')).toHaveText(
    `${Math.round((liking.top_2_box as number) * 100)}%`,
  );

  // Its results file: the question the drawer names is a column of it.
  const trace = await json<TraceResponse>(request, researcher, '/trace', {
    products: [profile.info.product_id],
    metric: 'liking',
    aggregation: 'top_2_box',
  });
  const question = trace.studies[0]!.questions.find((entry) => entry.answers > 0)!;
  await expect(drawer.getByText(`${question.qid}: ${question.text}`)).toBeVisible();
  const fileDownload = page.waitForEvent('download');
  await drawer.getByRole('button', { name: question.results_file!.name }).click();
  const resultsFile = await fileDownload;
  expect(resultsFile.suggestedFilename()).toBe(question.results_file!.name);
  const [header] = parse(await readFile((await resultsFile.path())!, 'utf8'), { to_line: 1 }) as string[][];
  expect(header).toContain(question.qid);

  // The answers behind the number: as many rows as the base, giving the top 2 box back.
  const csvDownload = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Download answers (csv)' }).click();
  const answers = await csvDownload;
  expect(answers.suggestedFilename()).toBe('answers.csv');
  const [columns, ...rows] = parse(await readFile((await answers.path())!, 'utf8')) as string[][];
  expect(columns).toEqual([
    'study',
    'respondent',
    'product',
    'question',
    'question_text',
    'raw_value',
    'harmonised_value',
  ]);
  expect(rows).toHaveLength(liking.n);
  expect(new Set(rows.map((row) => row[2]))).toEqual(new Set([code]));
  const top2 = rows.filter((row) => Number(row[6]) >= 3.5 - 1e-9).length / rows.length;
  expect(top2).toBeCloseTo(liking.top_2_box as number, 12);

  // Escape closes the drawer and gives focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(opener).toBeFocused();

  await page.setViewportSize({ width: 390, height: 844 });
  await opener.click();
  await expect(page.getByRole('dialog', { name: 'How was this computed?' })).toBeVisible();
  await expect(page.getByTestId('trace-value')).toBeVisible();
  await expectAccessible(page, 'the trace on a phone');
  await shoot(page, 'trace-profile-390');
});

test('a client user sees how a number was computed but cannot download its answers', async ({
  page,
  request,
}) => {
  const client = await apiToken(request, DEMO_USERS.client);
  const studies = await json<StudySummaryRow[]>(
    request,
    client,
    '/smartsearch/study_summarises?per_page=20',
    {
      query: { essentials: { verified: true } },
    },
  );
  let target: { studyId: number; code: string } | null = null;
  for (const study of studies) {
    const details = await json<StudyDetailsResponse>(request, client, `/study/${study.id}`);
    const fragrance = details.perfume_characteristics[0];
    if (fragrance) {
      target = { studyId: study.id, code: fragrance.fragrance_code };
      break;
    }
  }
  expect(target).not.toBeNull();
  await signIn(page, DEMO_USERS.client);
  await page.goto(`/analytics/profile/${target!.studyId}/${encodeURIComponent(target!.code)}`);
  await page
    .getByRole('button', { name: /^How was this computed\? / })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: 'How was this computed?' });
  await expect(drawer.getByTestId('trace-base')).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Download answers (csv)' })).toHaveCount(0);
  await expect(drawer.getByTestId('trace-results-file')).toHaveCount(0);
});

test('a marked metric search cell shows its base, filters and the test behind its mark', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('combobox', { name: 'Metric 1', exact: true }).click();
  await page.getByRole('option', { name: 'Overall Liking' }).click();
  await page.getByRole('combobox', { name: 'Aggregation 1', exact: true }).click();
  await page.getByRole('option', { name: /^T2B/ }).click();
  await page.getByRole('checkbox', { name: 'Use metric 1 for significance' }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = page.getByRole('table', { name: 'fragrances found' });
  await expect(table).toBeVisible({ timeout: 90_000 });
  // The filters collapse after the search, moving the significance controls: choose once they rest.
  await expect(page.getByRole('button', { name: 'Show filters' })).toBeVisible();
  await expect(page.getByRole('figure').filter({ hasText: 'Overall Liking' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Compare', exact: true }).click();
  await page.getByRole('option', { name: 'Selection vs Average of the rest' }).click();
  // The trace reads one test's own p-value: with no correction the mark's level is that one too.
  await page.getByRole('combobox', { name: 'Correction', exact: true }).click();
  await page.getByRole('option', { name: 'No correction' }).click();
  await page.getByRole('button', { name: 'Calculate' }).click();
  const mark = table.getByTestId(/^mark-\d+-liking\.top_2_box$/).first();
  await expect(mark).toBeVisible({ timeout: 90_000 });
  const id = /^mark-(\d+)-/.exec((await mark.getAttribute('data-testid'))!)![1]!;
  const shown = (await table.getByTestId(`value-${id}-liking.top_2_box`).textContent())!.replace('*', '');
  const level = (await mark.textContent())!.trim();

  await table.getByTestId(`trace-${id}-liking.top_2_box`).click();
  const drawer = page.getByRole('dialog', { name: 'How was this computed?' });
  await expect(drawer.getByTestId('trace-value')).toHaveText(shown);
  const significance = drawer.getByTestId('trace-significance');
  await expect(significance).toContainText('Two-sample t-test clustered by respondent, two-sided');
  await expect(significance).toContainText(/p (=|<) [\d.e-]+: (Higher|Lower), significant at \d+ %/);
  // The level the mark shows (e.g. 99%) is the one the trace names.
  await expect(significance).toContainText(`significant at ${level.replace('%', ' %')}`);
  await expectAccessible(page, 'the trace of a marked metric cell');
  await shoot(page, 'trace-metric-1440');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await shoot(page, 'metric-cells-1440');
  await table.getByTestId(`trace-${id}-liking.top_2_box`).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'trace-metric-390');
});

test('a summary cell of the study statistics page shows how it was computed', async ({ page, request }) => {
  test.setTimeout(180_000);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const studies = await json<StudySummaryRow[]>(
    request,
    researcher,
    '/smartsearch/study_summarises?per_page=5',
    {
      query: { essentials: { verified: true } },
    },
  );
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/study/${studies[0]!.id}/statistics`);
  await expect(page.getByRole('heading', { level: 1, name: 'Study Statistics' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Main question column' }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const summary = page.getByRole('table', { name: 'Summary' });
  await expect(summary).toBeVisible({ timeout: 60_000 });

  // The mean of the first product column of a traced question.
  const cell = summary
    .getByRole('cell')
    .filter({ has: page.getByRole('button', { name: /^How was this computed\? A: .*, Mean$/ }) })
    .first();
  const opener = cell.getByRole('button');
  const shown = (await cell.textContent())!.trim();
  await opener.click();
  const drawer = page.getByRole('dialog', { name: 'How was this computed?' });
  await expect(drawer.getByTestId('trace-value')).toHaveText(shown);
  await expect(drawer.getByTestId('trace-base')).toBeVisible();
  await expectAccessible(page, 'the trace of a statistics summary cell');
  await shoot(page, 'trace-statistics-1440');
  await page.keyboard.press('Escape');
  await shoot(page, 'statistics-cells-1440');
});

test('a group comparison value is traced to its product scores and the Welch test', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/group-comparison');
  const chooseUnit = async (index: number) => {
    await page.getByRole('combobox', { name: 'Business unit', exact: true }).click();
    await page.getByRole('option').nth(index).click();
    await page.keyboard.press('Escape');
  };
  await chooseUnit(0);
  await page.getByRole('radiogroup', { name: 'Group to edit' }).getByText('Group 2').click();
  await chooseUnit(1);
  await page.getByRole('button', { name: 'Compare' }).click();
  const differences = page.getByRole('table', { name: 'Differences between the groups' });
  await expect(differences).toBeVisible({ timeout: 60_000 });

  const row = differences.getByRole('row', { name: /Overall Liking Mean/ });
  const shown = /^\d+\.\d\d/.exec((await row.getByRole('cell').nth(2).textContent())!)![0];
  const outcome = (await row.getByRole('cell').nth(4).textContent())!;
  await row.getByTestId('trace-group1-liking.mean').click();
  const drawer = page.getByRole('dialog', { name: 'How was this computed?' });
  await expect(drawer.getByTestId('trace-value')).toHaveText(shown);
  await expect(
    drawer.getByText(/giving one score per product; the value is the mean of the product scores/),
  ).toBeVisible();
  const significance = drawer.getByTestId('trace-significance');
  await expect(significance).toContainText('Welch two-sample t-test, two-sided');
  await expect(significance).toContainText(
    outcome.startsWith('Group 1') ? 'significant at' : 'Not significant',
  );
  await expectAccessible(page, 'the trace of a group comparison value');
  await shoot(page, 'trace-group-1440');
  await page.keyboard.press('Escape');
  await shoot(page, 'group-cells-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await row.getByTestId('trace-group2-liking.mean').click();
  await expect(page.getByTestId('trace-value')).toBeVisible();
  await shoot(page, 'trace-group-390');
});
