import type { MetricSearchStatus } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { postJson } from '../support/api.ts';
import { rowsSettled } from '../support/results-page.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

test.describe.configure({ timeout: 240_000 });

const SEARCH_TIMEOUT = 90_000;
const KEY = 'liking.top_2_box';

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

async function shoot(page: Page, name: string) {
  const folder = process.env.SIGNIFICANCE_SHOTS;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: false });
}

/**
 * A study of the demo library whose fragrances have under 30 liking answers from respondents up to an
 * age: its list is a low base. The ages are tried in turn, from the youngest.
 */
async function oneStudyWithALowBase(
  request: APIRequestContext,
): Promise<{ cmi: string; endAge: number; rows: { id: number; base: number }[] }> {
  const token = await apiToken(request, DEMO_USERS.researcher);
  for (const endAge of [25, 28, 30, 32, 35]) {
    const { jobid } = await postJson(request, token, '/api/analytics/fragrances', {
      q: {
        metrics: {
          rdfType: 'all',
          metricsList: [
            { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box', confidence: true },
          ],
        },
        demographics: { endAge },
      },
    });
    let status: MetricSearchStatus | null = null;
    await expect
      .poll(
        async () => {
          const response = await request.get(`/api/analytics/fragrances/${jobid}`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          status = (await response.json()) as MetricSearchStatus;
          return status.status;
        },
        { timeout: SEARCH_TIMEOUT },
      )
      .toBe('SUCCESS');
    const byStudy = new Map<string, { id: number; base: number }[]>();
    for (const row of status!.result!.json.results) {
      const list = byStudy.get(row.c_mi_number) ?? [];
      list.push({ id: row.id, base: row.bases[KEY] ?? 0 });
      byStudy.set(row.c_mi_number, list);
    }
    // The demo studies are complete blocks: every fragrance of a study has the same base.
    const found = [...byStudy].find(
      ([, rows]) => rows.length >= 2 && rows.some((row) => row.base > 0 && row.base < 30),
    );
    if (found) return { cmi: found[0], endAge, rows: found[1] };
  }
  throw new Error('No study of the demo library has a low-base fragrance under an age filter');
}

test('Calculate on a one-study list names its correction and leaves a low base untested', async ({
  page,
  request,
}) => {
  const study = await oneStudyWithALowBase(request);
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible({
    timeout: 30_000,
  });
  await choose(page, 'Metric 1', 'Overall Liking');
  await choose(page, 'Aggregation 1', /^T2B/);
  await page.getByRole('checkbox', { name: 'Use metric 1 for significance' }).check();
  // Respondents up to an age: a base under 30 for one fragrance of the study.
  await page.getByRole('tab', { name: 'Demographics' }).click();
  const oldest = page.getByRole('slider', { name: 'Oldest age' });
  await oldest.focus();
  for (let step = 64; step > study.endAge; step -= 1) await oldest.press('ArrowLeft');
  await expect(oldest).toHaveAttribute('aria-valuenow', String(study.endAge));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = page.getByRole('table', { name: 'fragrances found' });
  await expect(table).toBeVisible({ timeout: SEARCH_TIMEOUT });
  await expect(page.getByRole('button', { name: 'Show filters' })).toBeVisible();

  // The list of one study: its fragrances selected, the CMI order keeping them together.
  const low = study.rows.find((row) => row.base > 0 && row.base < 30)!;
  const cmiHeader = table.getByRole('columnheader', { name: 'CMI #' });
  await cmiHeader.getByRole('button').click();
  await expect(cmiHeader).toHaveAttribute('aria-sort', 'ascending');
  await rowsSettled(page, SEARCH_TIMEOUT);
  const ofStudy = table.getByRole('checkbox', { name: new RegExp(`\\(${study.cmi}\\)$`) });
  let selected = 0;
  let lowPage = 0;
  for (let number = 1; selected < study.rows.length; number++) {
    if (number > 1) await page.getByRole('button', { name: `Page ${number}` }).click();
    // The page's own rows, not the last page's still shown while it is fetched (50 rows a page).
    await expect(
      page.getByText(new RegExp(`^fragrances ${(number - 1) * 50 + 1}–\\d+ of \\d+$`)),
    ).toBeVisible();
    await rowsSettled(page, SEARCH_TIMEOUT);
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    if ((await table.getByTestId(`value-${low.id}-${KEY}`).count()) > 0) lowPage = number;
    const count = await ofStudy.count();
    for (let at = 0; at < count; at++) {
      await ofStudy.nth(at).check();
      selected++;
    }
  }
  expect(selected).toBe(study.rows.length);
  expect(lowPage, 'the low-base fragrance was on one of the pages read').toBeGreaterThan(0);
  await expect(
    page.getByRole('status').filter({ hasText: new RegExp(`${study.rows.length} of \\d+ selected`) }),
  ).toBeVisible();

  // Calculate with the default correction: the legend names it.
  await choose(page, 'Compare', 'Selection vs Average of the rest');
  await expect(page.getByRole('combobox', { name: 'Correction', exact: true })).toHaveValue(
    'Benjamini-Hochberg (false discovery rate)',
  );
  await page.getByRole('button', { name: 'Calculate' }).click();
  const legend = page.getByTestId('significance-legend');
  await expect(legend).toContainText(
    'Correction: Benjamini-Hochberg (false discovery rate) across every test of this calculation (products × metrics).',
    { timeout: SEARCH_TIMEOUT },
  );
  await expect(legend).toContainText(
    '"low base: not tested": fewer than 30 answers, so no test and no mark.',
  );

  // The low-base fragrance of the study says it was not tested, and why on hover.
  if ((await page.getByRole('button', { name: 'Page 2' }).count()) > 0)
    await page.getByRole('button', { name: `Page ${lowPage}` }).click();
  const cell = table.getByTestId(`not-tested-${low.id}-${KEY}`);
  await expect(cell).toHaveText('low base: not tested');
  await expect(table.getByTestId(`mark-${low.id}-${KEY}`)).toHaveCount(0);
  await cell.hover();
  await expect(page.getByRole('tooltip')).toHaveText(
    `low base: not tested: n = ${low.base}, below 30 answers`,
  );
  await page.mouse.move(0, 0);
  await expectAccessible(page, 'clustered significance with a low base');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shoot(page, 'significance-table-1440');
  await page.getByRole('heading', { name: 'Significance' }).scrollIntoViewIfNeeded();
  await shoot(page, 'significance-1440');

  // No correction, by choice: calculated again and named.
  await choose(page, 'Correction', 'No correction');
  await expect(legend).toContainText('Correction: No correction; each test is read on its own p-value.', {
    timeout: SEARCH_TIMEOUT,
  });
  // A new calculation shows the list from its first page again.
  if ((await page.getByRole('button', { name: 'Page 2' }).count()) > 0)
    await page.getByRole('button', { name: `Page ${lowPage}` }).click();
  await expect(table.getByTestId(`not-tested-${low.id}-${KEY}`)).toHaveText('low base: not tested', {
    timeout: SEARCH_TIMEOUT,
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'significance-390');
});
