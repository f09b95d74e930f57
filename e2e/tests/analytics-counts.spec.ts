import type { MetricSearchRequest, MetricSearchStatus } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

test.describe.configure({ timeout: 240_000 });

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

/** Runs a metric search through the API, as the page does, and answers its rows. */
async function metricSearch(request: APIRequestContext, token: string, body: MetricSearchRequest) {
  const queued = await request.post('/api/analytics/fragrances', { headers: auth(token), data: body });
  expect(queued.status(), await queued.text()).toBe(200);
  const { jobid } = (await queued.json()) as { jobid: string };
  for (;;) {
    const response = await request.get(`/api/analytics/fragrances/${jobid}`, { headers: auth(token) });
    expect(response.status()).toBe(200);
    const status = (await response.json()) as MetricSearchStatus;
    if (status.status === 'SUCCESS') return status.result!.json.results;
    expect(status.status, status.error ?? '').not.toBe('FAILURE');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

test('every analytics tab has a count badge, and an EEG histogram has distinct bin labels and a y axis label', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible();
  await choose(page, 'Metric 1', 'HFD Hedonic');
  await choose(page, 'Aggregation 1', 'M (mean)');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('table', { name: 'fragrances found' })).toBeVisible({ timeout: 90_000 });

  // Before any run the three other tabs count nothing yet.
  await expect(tab(page, 'Fragrances')).toContainText(/\d+/);
  await expect(tab(page, 'Fragrance Performance')).toHaveText(/Fragrance Performance\s*0$/);
  await expect(tab(page, 'Top Attributes')).toHaveText(/Top Attributes\s*0$/);
  await expect(tab(page, 'Creative & Olfactive Tendencies')).toHaveText(/Tendencies\s*0$/);

  const figure = page.getByRole('figure').filter({ hasText: 'HFD Hedonic (M) distribution' });
  await expect(figure).toBeVisible();
  await expect(figure).toContainText(/\d+ fragrances, [\d.]+ to [\d.]+/);
  await expect(figure.locator('svg')).toContainText('Number of fragrances');
  const labels = (await figure.locator('svg text').allTextContents()).filter((text) => text.includes('–'));
  expect(labels).toHaveLength(8);
  expect(new Set(labels).size).toBe(8);
  for (const label of labels) {
    const [from, to] = label.split('–');
    expect(from, label).not.toBe(to);
  }
  await expectAccessible(page, 'analytics with an EEG histogram');
  await page.screenshot({ path: 'test-results/analytics-histogram-1280.png', fullPage: true });

  // A tendencies run counts its values in the tab's badge.
  await tab(page, 'Creative & Olfactive Tendencies').click();
  await choose(page, 'Count', 'Top 5');
  await choose(page, 'Metadata Type', 'Olfactive');
  await choose(page, 'Metadata', 'Family');
  await page.getByRole('button', { name: 'Run' }).click();
  const rows = page.getByRole('table', { name: 'Fragrances by family', exact: true }).getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  const listed = (await rows.count()) - 1;
  await expect(tab(page, 'Creative & Olfactive Tendencies')).toHaveText(
    new RegExp(`Tendencies\\s*${listed}$`),
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/analytics-tab-counts-390.png', fullPage: true });
});

test('a respondent filter that leaves no answers says so in words', async ({ page, request }) => {
  const token = await apiToken(request, DEMO_USERS.researcher);
  const body: MetricSearchRequest = {
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: [
          { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box', confidence: false },
        ],
      },
    },
    type: 'fragrances',
    demographics_fragrances: [],
  };
  const all = await metricSearch(request, token, body);
  // The first listed fragrance without a respondent of 64 among its answers.
  const oldest = [{ field: 'age', filter: { type: 'range', from: 64, to: 64 } }] as const;
  let position = -1;
  for (const [index, row] of all.slice(0, 20).entries()) {
    const [filtered] = await metricSearch(request, token, {
      ...body,
      fragrances: [{ id: row.id, c_mi_number: row.c_mi_number, prod: row.prod }],
      demographics_fragrances: [...oldest],
    });
    if (filtered && filtered.values['liking.top_2_box'] == null) {
      position = index;
      break;
    }
  }
  expect(position, 'a fragrance without respondents of 64').toBeGreaterThanOrEqual(0);

  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await choose(page, 'Metric 1', 'Overall Liking');
  await choose(page, 'Aggregation 1', /^T2B/);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = page.getByRole('table', { name: 'fragrances found' });
  await expect(table).toBeVisible({ timeout: 90_000 });
  await table
    .getByRole('row')
    .nth(position + 1)
    .getByRole('checkbox')
    .check();
  await page.getByRole('switch', { name: 'Age' }).check();
  const youngest = page.getByRole('slider', { name: 'Youngest respondent age' });
  await youngest.focus();
  for (let step = 0; step < 46; step += 1) await youngest.press('ArrowRight');
  await expect(page.getByText('Age range 64–64')).toBeVisible();
  await page.getByRole('button', { name: /^Filter/ }).click();
  await expect(
    page.getByText('No data found after filtering. Please change filters and try again.'),
  ).toBeVisible({
    timeout: 90_000,
  });
  await expect(table).toHaveCount(0);
  await expectAccessible(page, 'analytics, nothing left after filtering');
});
