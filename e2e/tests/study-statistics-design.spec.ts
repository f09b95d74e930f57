import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import type { components } from '../support/api-types.ts';
import { DEMO_STUDY_COUNT, DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

type StudyProducts = components['schemas']['StatisticsStudyProducts'];

/** Set STATISTICS_SCREENSHOTS to a folder to keep screenshots at 1440 and 390 px. */
const SHOTS = process.env.STATISTICS_SCREENSHOTS;

async function screenshots(page: Page, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 800 });
  const toggle = page.locator('button[aria-label="Toggle navigation"][aria-expanded="true"]:visible');
  const opened = (await toggle.count()) > 0;
  if (opened) await toggle.click();
  await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: true });
  if (opened) await page.locator('button[aria-label="Toggle navigation"]:visible').click();
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
}

test.describe('study statistics read the design from the data', () => {
  test.setTimeout(600_000);

  test('an incomplete block study: the design preselected, its line and the adjusted-mean letters', async ({
    page,
    request,
  }) => {
    // The demo library's incomplete block study, found through the filter card's own call.
    const token = await apiToken(request, DEMO_USERS.researcher);
    let studyId = 0;
    let design: StudyProducts['design'] | null = null;
    let fragrances: string[] = [];
    for (let id = 1; id <= DEMO_STUDY_COUNT && studyId === 0; id++) {
      const response = await request.get(`/api/statistics/${id}/products/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      if (response.status() !== 200) continue;
      const body = (await response.json()) as StudyProducts;
      if (body.design.design === 'incomplete_block' || body.design.design === 'balanced_incomplete_block') {
        studyId = id;
        design = body.design;
        fragrances = body.products.map((product) => product.code);
      }
    }
    expect(studyId, 'the demo library holds an incomplete block study').toBeGreaterThan(0);

    await signIn(page, DEMO_USERS.researcher);
    await page.goto(`/study/${studyId}/statistics`);
    await expect(page.getByRole('heading', { level: 1, name: 'Study Statistics' })).toBeVisible();
    const filters = page.getByRole('region', { name: 'Statistics filters' });

    // Paired and its design line are preselected from the data; Holm for non-parametric tests.
    // The card waits for the products call, which reads who rated what from the study's answers.
    await expect(filters.getByRole('combobox', { name: 'Design' })).toHaveValue('Paired', {
      timeout: 60_000,
    });
    // The design comes with the products call, which reads who rated what from the study's answers.
    await expect(filters.getByText(design?.text ?? 'no design line')).toBeVisible({ timeout: 60_000 });
    await expect(filters.getByRole('combobox', { name: 'Multiple comparisons' })).toHaveValue(
      'Holm (family-wise error rate)',
    );
    await filters.getByRole('switch', { name: 'Parametric' }).check();
    await expect(filters.getByRole('combobox', { name: 'Multiple comparisons' })).toHaveValue(
      'Tukey HSD (parametric tests only)',
    );
    // Back to the rank tests: the intra-block analysis stands in for them, said in the results.
    await filters.getByRole('switch', { name: 'Parametric' }).uncheck();

    // "Search" with the required "Order of products" emptied says so under the field.
    await choose(page, 'Main question column', /./);
    await choose(page, 'Order of products', 'Unspecified Product Order');
    await expect(filters.getByRole('combobox', { name: 'Order of products' })).toHaveValue('');
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(filters.getByText('Missing value for Order of products')).toBeVisible();
    await choose(page, 'Order of products', 'Unspecified Product Order');
    await expect(filters.getByText('Missing value for Order of products')).toHaveCount(0);

    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    const summary = page.getByRole('table', { name: 'Summary' });
    await expect(summary).toBeVisible({ timeout: 120_000 });

    // The design found and the analysis used, stated above the tables.
    const designCard = page.getByRole('region', { name: 'Design and analysis' });
    await expect(designCard.getByText(/^Design found: (balanced )?incomplete block/)).toBeVisible();
    await expect(designCard.getByText(/intra-block analysis of incomplete blocks/).first()).toBeVisible();
    await expect(
      designCard
        .getByText(/The rank tests need complete blocks, so the parametric intra-block analysis is used/)
        .first(),
    ).toBeVisible();
    await expect(designCard.getByRole('status')).toHaveCount(0);

    // The letters compare adjusted means: each question shows them, with letters beside them.
    await expect(summary.getByRole('cell', { name: 'Adjusted mean', exact: true }).first()).toBeVisible();
    await expect(
      summary
        .getByRole('cell', { name: /^Intra-block ANOVA \(products adjusted for respondents\): F = / })
        .first(),
    ).toBeVisible();
    await expect(summary.getByRole('cell', { name: /not defined/ })).toHaveCount(0);
    const letters = summary.getByRole('cell', { name: /^[A-Z]+$/ });
    expect(await letters.count()).toBeGreaterThan(0);
    // The product columns are the study's fragrances: no concept among them.
    const headers = summary.getByRole('columnheader', { name: /^[A-Z]+: / });
    await expect(headers).toHaveCount(fragrances.length);

    await expectAccessible(page, 'study statistics with its design');
    await screenshots(page, 'study-statistics-design');

    // Choosing unpaired tests on these respondents warns before and after the search.
    await choose(page, 'Design', 'Unpaired');
    await expect(filters.getByRole('status')).toContainText('unpaired tests treat each respondent');
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(designCard.getByRole('status')).toContainText(
      'Warning: unpaired tests were chosen, but the design found is',
      { timeout: 120_000 },
    );
    await screenshots(page, 'study-statistics-design-warning');
  });
});
