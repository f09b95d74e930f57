import type {
  FieldDefinitionsResponse,
  MetricSearchRequest,
  MetricSearchStatus,
  WizardNavigationState,
} from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

// ---------------------------------------------------------------------------------------------
// Advanced Analytics (another feature) as the wizards see it: every locator of that page lives here.
const analyticsPage = {
  header: (page: Page) => page.getByText('Confirm your selections:', { exact: true }),
  /** Values of the results list (liking top 2 box in rounded percent), top to bottom. */
  async listedValues(page: Page): Promise<number[]> {
    const cells = page.getByRole('row').getByText(/^\d+ ?%$/);
    await expect(cells.first()).toBeVisible({ timeout: 30_000 });
    return (await cells.allInnerTexts()).map((text) => Number(text.replace(/\D/g, '')));
  },
};
// ---------------------------------------------------------------------------------------------

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The React Router state handed to the page we are on. */
async function navigationState(page: Page): Promise<WizardNavigationState> {
  return page.evaluate(
    () => (globalThis as unknown as { history: { state: { usr: WizardNavigationState } } }).history.state.usr,
  );
}

async function fields(request: APIRequestContext, token: string): Promise<FieldDefinitionsResponse> {
  const response = await request.get('/api/smartsearch/fields', { headers: auth(token) });
  expect(response.status()).toBe(200);
  return (await response.json()) as FieldDefinitionsResponse;
}

/** Runs a query as the analytics page will (admin, who has analytics access) and answers its rows. */
async function runSearch(request: APIRequestContext, token: string, query: MetricSearchRequest) {
  const queued = await request.post('/api/analytics/fragrances', { headers: auth(token), data: query });
  expect(queued.status(), await queued.text()).toBe(200);
  const { jobid } = (await queued.json()) as { jobid: string };
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await request.get(`/api/analytics/fragrances/${jobid}`, { headers: auth(token) });
    const status = (await response.json()) as MetricSearchStatus;
    if (status.status === 'SUCCESS') return status.result!.json;
    expect(status.status).not.toBe('FAILURE');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the search did not finish');
}

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
  await page.keyboard.press('Escape');
}

/** The navigation may be open over the page on a narrow screen; close it to look at the page. */
async function closeNavigation(page: Page) {
  const open = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await open.count()) > 0) await open.click();
}

const startsWith = (value: string) => new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(|$)`);

test('best 10 % fragrances by explicit liking in one region land on analytics, best first', async ({
  page,
  request,
}) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const regions = (await fields(request, admin)).metadata
    .find((field) => field.field === 'region')!
    .options.map((option) => option.value)
    .filter((region) => !['APAC', 'South Asia', 'South East Asia', 'North Asia'].includes(region));
  const expected = (region: string): MetricSearchRequest => ({
    q: {
      essentials: {
        client: undefined,
        region: [region],
        businessUnit: undefined,
        category: undefined,
        product: undefined,
        startYear: undefined,
        endYear: undefined,
      },
      metrics: {
        rdfType: 'rdf',
        threshold: { applyThreshold: true, amount: 10, desc: true, type: 'percentage' },
        metricsList: [
          {
            metricType: 'Performance',
            metric: 'liking',
            aggregation: 'top_2_box',
            confidence: false,
            applyThreshold: false,
          },
        ],
      },
    },
    type: 'fragrances',
    demographics_fragrances: [],
  });
  let region = '';
  for (const candidate of regions) {
    if ((await runSearch(request, admin, expected(candidate))).results.length > 0) {
      region = candidate;
      break;
    }
  }
  expect(region, 'a region with explicit liking results').not.toBe('');

  await signIn(page, DEMO_USERS.researcher);
  await page
    .getByRole('link', { name: /Best\/Worst Testers/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/topworst$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Best/Worst Testers' })).toBeVisible();
  await expect(
    page.getByText(
      'Explicit is based on top two box liking scores, Implicit on mean EEG hedonic scores, All on both.',
    ),
  ).toBeVisible();
  await expectAccessible(page, 'best/worst step 1');

  // A top amount that is not a positive whole number is refused with a clear message.
  await page.getByLabel('Top amount').fill('2.5');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('The top amount must be a positive whole number.')).toBeVisible();
  await page.getByLabel('Top amount').fill('10');
  await page.getByRole('radio', { name: 'Best' }).check();
  await page.getByRole('radio', { name: 'Percentage (%)' }).check();
  await page.getByRole('radio', { name: 'Fragrances' }).check();
  await page.getByRole('radio', { name: 'Explicit' }).check();
  await page.screenshot({ path: 'test-results/topworst-step1-1280.png', fullPage: true });
  await page.getByRole('button', { name: 'Next' }).click();

  await pick(page, 'Region', startsWith(region));
  await expectAccessible(page, 'best/worst step 2');
  await page.screenshot({ path: 'test-results/topworst-step2-1280.png', fullPage: true });
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  await expect(page).toHaveURL(/\/analytics$/);
  const state = await navigationState(page);
  expect(state).toEqual({
    startSearch: true,
    hideDescription: true,
    header: 'Confirm your selections:',
    query: JSON.parse(JSON.stringify(expected(region))),
  });
  const result = await runSearch(request, admin, state.query);
  expect(result.results.length).toBeGreaterThan(0);
  const values = result.results.map((row) => row.values['liking.top_2_box']!);
  expect(values).toEqual([...values].sort((a, b) => b - a));

  await expect(analyticsPage.header(page)).toBeVisible();
  const listed = await analyticsPage.listedValues(page);
  expect(listed.length).toBeGreaterThan(0);
  expect(listed).toEqual([...listed].sort((a, b) => b - a));
});

test('worst 5 concepts by implicit hand analytics the mean EEG hedonic query', async ({ page }) => {
  // Analytics results are for roles with analytics access, so a researcher runs this one.
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/topworst');
  await page.getByRole('radio', { name: 'Worst' }).check();
  await page.getByLabel('Top amount').fill('5');
  await page.getByRole('radio', { name: 'Number (#)' }).check();
  await page.getByRole('radio', { name: 'Concepts' }).check();
  await page.getByRole('radio', { name: 'Implicit' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('combobox', { name: 'Client', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Top amount')).toHaveValue('5');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  await expect(page).toHaveURL(/\/analytics$/);
  const state = await navigationState(page);
  expect(state.header).toBe('Confirm your selections:');
  expect(state.query.type).toBe('concepts');
  expect(state.query.q.metrics).toEqual({
    rdfType: 'eeg',
    threshold: { applyThreshold: true, amount: 5, desc: false, type: 'fragrances' },
    metricsList: [
      {
        metricType: 'Performance',
        metric: 'hfd_hedonic',
        aggregation: 'mean',
        confidence: false,
        applyThreshold: false,
      },
    ],
  });

  await expect(analyticsPage.header(page)).toBeVisible();
});

test("an attribute search for 'fresh' hands analytics its top 2 box query", async ({ page }) => {
  // Users without analytics access see the results on the wizard page (rankings.spec.ts).
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/fragrance-profile');
  await closeNavigation(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Fragrance Attributes' })).toBeVisible();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await page.getByRole('radio', { name: /Olfactive/ }).click();
  await page.getByLabel('Search attributes').fill('fre');
  await expect(page.getByRole('radio', { name: 'Clean', exact: true })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Fresh', exact: true }).check();
  await expect(next).toBeEnabled();
  // Choosing an attribute type clears the attribute.
  await page.getByRole('radio', { name: /Moods/ }).click();
  await expect(next).toBeDisabled();
  await page.getByRole('radio', { name: /Olfactive/ }).click();
  await page.getByRole('radio', { name: 'Fresh', exact: true }).check();
  await expectAccessible(page, 'attributes step 1');
  await page.screenshot({ path: 'test-results/attributes-step1-390.png', fullPage: true });
  await next.click();

  await expect(page.getByText('Based on top 2 box scores of the attribute.')).toBeVisible();
  await page.getByLabel('Top amount').fill('0');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('The top amount must be a positive whole number.')).toBeVisible();
  await page.getByLabel('Top amount').fill('3');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
  await page.screenshot({ path: 'test-results/attributes-step3-390.png', fullPage: true });
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  await expect(page).toHaveURL(/\/analytics$/);
  const state = await navigationState(page);
  expect(state.startSearch).toBe(true);
  expect(state.hideDescription).toBe(true);
  expect(state.query.q.metrics).toEqual({
    rdfType: 'rdf',
    threshold: { applyThreshold: true, amount: 3, desc: true, type: 'fragrances' },
    metricsList: [
      {
        metricType: 'Attribute: olfactive ',
        metric: 'fresh',
        aggregation: 'top_2_box',
        confidence: false,
        applyThreshold: false,
      },
    ],
  });
});

test('category profile: families of a category, a bar click shows its top fragrances', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_USERS.researcher);
  await page
    .getByRole('link', { name: /Category Profile/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/category-profile$/);
  await expectAccessible(page, 'category profile first view');
  await expect(page.getByRole('combobox', { name: 'Region', exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Category', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  await expect(page.getByText('Fragrance Families frequency (in %)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update Search' })).toBeVisible();
  for (const label of ['Category', 'Region', 'Product', 'Client'])
    await expect(page.getByRole('combobox', { name: label, exact: true })).toBeVisible();

  // The first family bar (not 'No tag') of the chart.
  const familyButtons = page.getByRole('group', { name: /choose a family here/ }).getByRole('button');
  const family = ((await familyButtons.filter({ hasNotText: 'No tag' }).first().innerText()) ?? '').replace(
    / \(\d+ %\)$/,
    '',
  );
  const bar = page.locator('svg path[fill="#be4bdb"], svg path[fill="rgb(190,75,219)"]').first();
  await bar.click();
  await expect(page.getByRole('heading', { name: /^Top .* fragrances based on T2B liking$/ })).toBeVisible();
  const heading = await page
    .getByRole('heading', { name: /^Top .* fragrances based on T2B liking$/ })
    .innerText();
  expect(heading).toMatch(/^Top .+ fragrances based on T2B liking$/);
  const table = page.getByRole('table', { name: heading });
  await expect(table.or(page.getByText('No data available for this set of filters.'))).toBeVisible({
    timeout: 20_000,
  });

  // The same through the keyboard-friendly family buttons.
  await familyButtons.filter({ hasText: family }).first().click();
  await expect(
    page.getByRole('heading', { name: `Top ${family} fragrances based on T2B liking` }),
  ).toBeVisible();
  const rows = page
    .getByRole('table', { name: `Top ${family} fragrances based on T2B liking` })
    .getByRole('row');
  await expect(rows.nth(1)).toBeVisible({ timeout: 20_000 });
  const shares = (await rows.locator('td:nth-child(4)').allInnerTexts()).map((text) =>
    Number(text.split(' ')[0]),
  );
  expect(shares.length).toBeGreaterThan(0);
  expect(shares.length).toBeLessThanOrEqual(5);
  expect(shares).toEqual([...shares].sort((a, b) => b - a));
  for (const noTag of await familyButtons.filter({ hasText: 'No tag' }).all())
    await expect(noTag).toBeDisabled();
  await expectAccessible(page, 'category profile second view');
  // A CMI number reads on one line at 1440 px (it wrapped onto three).
  await page.setViewportSize({ width: 1440, height: 900 });
  const cmiLines = await rows
    .nth(1)
    .locator('td:nth-child(3)')
    .evaluate((cell) => {
      const range = cell.ownerDocument.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
  expect(cmiLines).toBe(1);
  await page.screenshot({ path: 'test-results/category-profile-1440.png', fullPage: true });
  await page.screenshot({ path: 'test-results/category-profile-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await closeNavigation(page);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await familyButtons.filter({ hasText: family }).first().click();
  await expect(page.getByRole('table', { name: `Top ${family} fragrances based on T2B liking` })).toBeVisible(
    {
      timeout: 20_000,
    },
  );
  await page.screenshot({ path: 'test-results/category-profile-390.png', fullPage: true });
});

test('group comparison of two business units with one group filtered by gender', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, DEMO_USERS.researcher);
  const units = (await fields(request, token)).metadata
    .find((field) => field.field === 'product_area')!
    .options.filter((option) => option.count > 0)
    .map((option) => option.value);
  expect(units.length).toBeGreaterThanOrEqual(2);
  const [unit1, unit2] = units as [string, string];

  await signIn(page, DEMO_USERS.researcher);
  await page
    .getByRole('link', { name: /Group Comparison/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/group-comparison$/);
  await pick(page, 'Business unit', startsWith(unit1));
  await page.getByRole('radiogroup', { name: 'Group to edit' }).getByText('Group 2').click();
  await expect(page.getByRole('combobox', { name: 'Business unit', exact: true })).toHaveValue('');
  await pick(page, 'Business unit', startsWith(unit2));
  await expectAccessible(page, 'group comparison step 1');
  await page.screenshot({ path: 'test-results/group-comparison-step1-1280.png', fullPage: true });
  await page.getByRole('button', { name: 'Compare' }).click();

  await expect(page.getByRole('heading', { name: 'Group 1', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Group 2', exact: true })).toBeVisible();
  await expect(page.getByText(`Business unit: ${unit1}`)).toBeVisible();
  await expect(page.getByText(`Business unit: ${unit2}`)).toBeVisible();
  // All listed fragrances are selected on load.
  const list1 = page.getByRole('button', { name: /^List of Fragrances/ }).first();
  await expect(list1).toHaveText(/\((\d+) of \1 selected\)/);
  await list1.click();
  const boxes = page.getByRole('checkbox', { name: /^Select .+ \(/ });
  await expect(boxes.first()).toBeChecked();
  await expect(page.getByRole('link').filter({ hasText: /.+/ }).first()).toBeVisible();
  const differences = page.getByRole('table', { name: 'Differences between the groups' });
  await expect(differences.getByRole('row')).toHaveCount(10);

  // Group 2 only women, then compare again.
  const group2 = page.getByRole('heading', { name: 'Group 2', exact: true }).locator('xpath=..');
  await group2.getByRole('combobox', { name: 'Gender', exact: true }).click();
  await page.getByRole('option', { name: 'Female', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(group2.getByText('Gender: Female')).toBeVisible();
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByRole('status')).toHaveCount(0, { timeout: 30_000 });
  await expect(group2.getByText('Gender: Female')).toBeVisible();
  await expect(differences.getByRole('row')).toHaveCount(10);
  await expect(
    differences
      .getByRole('row', { name: /Overall Liking Top 2 box/ })
      .getByText(/Group 1 (higher|lower)|Not significant|Not testable/),
  ).toBeVisible();
  // The fragrance is the unit of the test: each score shows both bases, fragrances and respondents.
  await expect(page.getByText(/Welch t-test \(n = fragrances\)/)).toBeVisible();
  await expect(page.getByTestId('group-bases')).toHaveText(
    /^Bases: group 1 [\d,]+ fragrances? and [\d,]+ respondents?; group 2 [\d,]+ fragrances? and [\d,]+ respondents?\.$/,
  );
  const likingRow = differences.getByRole('row', { name: /Overall Liking Mean/ });
  await expect(likingRow.getByText(/^\([\d,]+ fragrances?, [\d,]+ respondents?\)$/)).toHaveCount(2);
  await expectAccessible(page, 'group comparison results');
  await page.screenshot({ path: 'test-results/group-comparison-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const toggle = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await toggle.count()) > 0) await toggle.click();
  await page.screenshot({ path: 'test-results/group-comparison-390.png', fullPage: true });

  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('radiogroup', { name: 'Group to edit' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Business unit', exact: true })).toBeVisible();
});
