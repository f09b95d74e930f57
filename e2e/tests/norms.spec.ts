// Norms: the norms screen with its histogram, table, base in words, withheld state and spreadsheet
// (opened and checked against the API's numbers), and a norm looked up from a fragrance profile.
import type { NormOptionsResponse, NormRankResponse, NormResponse, StudySummaryRow } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { readReportFile } from '../support/report.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function getJson<T>(request: APIRequestContext, token: string, path: string, params = {}): Promise<T> {
  const response = await request.get(`/api${path}`, { headers: auth(token), params });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** The liking top 2 box norm of every category, as the API answers them to the token's user. */
async function categoryNorms(request: APIRequestContext, token: string) {
  const options = await getJson<NormOptionsResponse>(request, token, '/norms/options');
  return Promise.all(
    options.categories.map((category) =>
      getJson<NormResponse>(request, token, '/norms', {
        category,
        metric: 'liking',
        aggregation: 'top_2_box',
      }),
    ),
  );
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a client user reads a category norm on the norms screen, downloads it and meets a withheld one', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, DEMO_USERS.client);
  const norms = await categoryNorms(request, token);
  const shown = norms.find((norm) => norm.status === 'available');
  const withheld = norms.find((norm) => norm.status === 'withheld');
  expect(shown, 'a category of the journeys library holds a norm that may be shown').toBeDefined();
  expect(withheld, 'a category of the journeys library is too small for a norm').toBeDefined();

  await signIn(page, DEMO_USERS.client);
  // The home card and the sidebar entry lead there, for every signed-in user.
  await expect(page.getByRole('main').getByRole('heading', { name: 'Norms' })).toBeVisible();
  await page.getByRole('navigation').getByRole('link', { name: 'Norms' }).click();
  await expect(page).toHaveURL(/\/norms$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Norms' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'Choose a category to see its norm.' }),
  ).toBeVisible();

  await choose(page, 'Category', shown!.base.category);
  const description = page.getByTestId('norm-base-description');
  await expect(description).toHaveText(shown!.base.description);
  expect(shown!.base.description).toMatch(
    new RegExp(`^${shown!.base.category}, \\d{4}-\\d{4}: \\d+ fragrances in \\d+ studies$`),
  );
  await expect(page).toHaveURL(/category=/);
  const table = page.getByRole('table', { name: 'Norm' });
  await expect(table.getByRole('row', { name: /^Fragrances/ })).toContainText(String(shown!.products));
  await expect(table.getByRole('row', { name: /P50 \(median\)/ })).toContainText(
    percent(shown!.percentiles!.p50),
  );
  await expect(table.getByRole('row', { name: 'Action standard: top quartile (P75)' })).toContainText(
    percent(shown!.percentiles!.p75),
  );
  // The histogram names its lines, the action standards as such.
  const chart = page.getByRole('img', { name: /^Histogram of/ });
  await expect(chart).toBeVisible();
  await expect(chart).toContainText(
    `Action standard: top quartile (P75) ${percent(shown!.percentiles!.p75)}`,
  );
  await expectAccessible(page, 'norms screen');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the norm (xlsx)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('norm.xlsx');
  const file = await readReportFile((await download.path())!);
  expect(file.lines[0]).toBe('Norm: Overall Liking, Top 2 box');
  expect(file.lines.join('\n')).toContain(shown!.base.description);
  const value = (label: string) => file.rows.find((row) => row.Statistic === label)?.Value;
  expect(value('Fragrances (n)')).toBe(shown!.products);
  expect(value('Studies')).toBe(shown!.studies);
  expect(value('Clients')).toBe(shown!.clients);
  expect(value('Mean') as number).toBeCloseTo(shown!.mean!, 12);
  for (const key of ['p10', 'p25', 'p50', 'p75', 'p90'] as const) {
    const line = shown!.lines.find((entry) => entry.key === key)!;
    expect(value(line.label) as number, line.label).toBeCloseTo(shown!.percentiles![key], 12);
  }

  // Too small a base: the norm is withheld with the reason, and nothing is offered for download.
  await choose(page, 'Category', withheld!.base.category);
  await expect(description).toHaveText(withheld!.base.category);
  await expect(page.getByRole('status').filter({ hasText: 'Norm withheld' })).toContainText(
    withheld!.reason!,
  );
  await expect(page.getByRole('button', { name: 'Download the norm (xlsx)' })).toHaveCount(0);
  await expect(page.getByRole('img', { name: /^Histogram of/ })).toHaveCount(0);
  await expectAccessible(page, 'norms screen, withheld norm');
});

test("a researcher looks up a fragrance's norm from its profile, with the base named", async ({
  page,
  request,
}) => {
  const token = await apiToken(request, DEMO_USERS.researcher);
  const shown = (await categoryNorms(request, token)).find((norm) => norm.status === 'available')!;
  const found = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(token),
    data: { query: { essentials: { category: [shown.base.category] } } },
  });
  expect(found.status()).toBe(200);
  const [study] = (await found.json()) as StudySummaryRow[];
  const details = await getJson<{ perfume_characteristics: { fragrance_code: string }[] }>(
    request,
    token,
    `/study/${study!.id}`,
  );
  const code = details.perfume_characteristics[0]!.fragrance_code;
  const ranked = await getJson<NormRankResponse>(request, token, '/norms/rank', {
    study_id: study!.id,
    code,
    kind: 'fragrance',
    metric: 'liking',
    aggregation: 'top_2_box',
  });
  expect(ranked.rank).not.toBeNull();

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/analytics/profile/${study!.id}/${code}`);
  const performance = page.getByRole('table', { name: 'Performance data', exact: true });
  const liking = performance.getByRole('row').filter({ hasText: 'Overall Liking' });
  await liking.getByRole('button', { name: /^Norm of .*Overall Liking/ }).click();
  const popover = page.getByTestId('norm-popover');
  await expect(popover.getByTestId('norm-rank')).toHaveText(
    `${ordinal(Math.round(ranked.rank! * 100))} percentile`,
  );
  await expect(popover.getByTestId('norm-base')).toHaveText(`Base: ${ranked.norm.base.description}`);
  expect(ranked.norm.base.description.startsWith(`${shown.base.category}, `)).toBe(true);
  await expect(popover).toContainText(`Score ${percent(ranked.product.score!)} (n = ${ranked.product.n})`);
  await expectAccessible(page, 'profile with a norm open');

  // Another score of the row, then on to the norms screen with the same base and metric.
  await popover.getByRole('combobox', { name: 'Score' }).click();
  await popover.getByRole('option', { name: 'Overall Liking, Mean' }).click();
  await expect(popover.getByTestId('norm-rank')).toHaveText(/percentile$/);
  await popover.getByRole('link', { name: 'Open in Norms' }).click();
  await expect(page).toHaveURL(/\/norms\?/);
  await expect(page.getByTestId('norm-base-description')).toHaveText(/^.+: \d+ fragrances in \d+ studies$/);
  await expect(page.getByRole('combobox', { name: 'Aggregation' })).toHaveValue('Mean');
});

function ordinal(value: number): string {
  const tens = value % 100;
  if (tens >= 11 && tens <= 13) return `${value}th`;
  return `${value}${['th', 'st', 'nd', 'rd'][value % 10] ?? 'th'}`;
}
