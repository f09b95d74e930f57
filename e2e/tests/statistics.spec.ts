import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APAC_SUBREGIONS } from '@accord/contracts';
import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectAccessible } from '../support/a11y.ts';
import { readReportFile } from '../support/report.ts';
import { signIn } from '../support/session.ts';

const SAMPLES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../apps/server/src/modules/statistics/samples',
);
const sample = (name: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: readFileSync(path.join(SAMPLES, name)),
});
/** Set STATISTICS_SCREENSHOTS to a folder to keep screenshots at 1280 and 390 px. */
const SHOTS = process.env.STATISTICS_SCREENSHOTS;

async function screenshots(page: Page, name: string) {
  if (!SHOTS) return;
  await page.screenshot({ path: path.join(SHOTS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 800 });
  // A phone shows the page with its navigation closed.
  const toggle = page.locator('button[aria-label="Toggle navigation"][aria-expanded="true"]:visible');
  const opened = (await toggle.count()) > 0;
  if (opened) await toggle.click();
  await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: true });
  if (opened) await page.locator('button[aria-label="Toggle navigation"]:visible').click();
  await page.setViewportSize({ width: 1280, height: 800 });
}

const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
const next = (page: Page) => page.getByRole('button', { name: 'Next', exact: true });
const prev = (page: Page) => page.getByRole('button', { name: 'Prev', exact: true });

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
}

async function expectDownload(page: Page, button: string, fileName: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  expect((await download).suggestedFilename()).toBe(fileName);
  return (await (await download).path())!;
}

test.describe('statistics generator', () => {
  test.setTimeout(420_000);

  test('a new upload through the six steps to results and the three downloads', async ({ page }) => {
    await signIn(page, 'researcher@accord.test');
    await page.goto('/statistics-generator');
    await expect(page.getByRole('heading', { level: 2, name: 'Upload file' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Existing Study' })).toBeVisible();
    await expectAccessible(page, 'statistics generator choice');
    await screenshots(page, 'choice');
    await page.getByRole('link', { name: 'Upload file: Upload a new RDF' }).click();
    await expect(page).toHaveURL(/\/rdf_upload$/);
    await expect(prev(page)).toBeDisabled();

    // Step 0: nothing filled is refused with the spec's alert; a non-csv file too.
    await next(page).click();
    await expect(alert(page, 'Missing values!')).toBeVisible();
    // One problem a line, each field named by its label.
    await expect(alert(page, 'Missing values!').getByRole('listitem')).toHaveText([
      'Missing value for Study name',
      'Missing value for Data input (csv)',
    ]);
    await expect(page.getByRole('textbox', { name: 'Study name' })).toBeVisible();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'data.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });
    await expect(page.getByText('Invalid file extension')).toBeVisible();
    await page.getByRole('textbox', { name: 'Study name' }).fill('Autumn fragrance test');
    // The data file's content is read at this step: a word among the answers stops it here.
    const data = sample('sample_data.csv');
    await page.locator('input[type=file]').setInputFiles({
      ...data,
      buffer: Buffer.from(
        data.buffer.toString('utf8').replace('R001,F102,male,57,5,', 'R001,F102,male,57,n/a,'),
      ),
    });
    await next(page).click();
    await expect(alert(page, 'sample_data.csv, row 3, column liking: "n/a" is not a number.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Study name' })).toBeVisible();
    await page.locator('input[type=file]').setInputFiles(sample('sample_data.csv'));
    await expectAccessible(page, 'wizard step 0');
    await screenshots(page, 'wizard-step0');
    await next(page).click();

    // Step 1: the scale, with its template made from the data file.
    await expect(page.getByText('Likert scale (csv)')).toBeVisible();
    await expectDownload(page, 'Download template', 'scale_template.csv');
    // The empty picker's placeholder is readable text.
    await expect(page.getByText('Choose a .csv file')).toBeVisible();
    await expectAccessible(page, 'wizard step 1, no file chosen');
    await page.locator('input[type=file]').setInputFiles(sample('sample_scale.csv'));
    await screenshots(page, 'wizard-step1');
    await next(page).click();

    // Step 2: tests (defaults two_99, two_95, two_90), and Holm's control of the pairs of each question
    // (Tukey HSD is offered only with parametric tests).
    await expect(page.getByText('Two-tailed 99%').first()).toBeVisible();
    // The sample's respondents rated every product: paired is preselected from the design found, and
    // non-parametric tests default to Holm.
    await expect(
      page.getByRole('radio', { name: 'Paired (the same respondents rated the products)' }),
    ).toBeChecked();
    await expect(page.getByText(/^Design found: complete block/)).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Multiple comparisons' })).toHaveValue(
      'Holm (family-wise error rate)',
    );
    await page.getByRole('combobox', { name: 'Multiple comparisons' }).click();
    await expect(page.getByRole('option', { name: 'Tukey HSD (parametric tests only)' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await page.getByRole('option', { name: 'Holm (family-wise error rate)' }).click();
    await expect(page.getByRole('combobox', { name: 'Multiple comparisons' })).toHaveValue(
      'Holm (family-wise error rate)',
    );
    await expectAccessible(page, 'wizard step 2');
    await screenshots(page, 'wizard-step2');
    await next(page).click();

    // Step 3: products and questions.
    await expect(page.getByRole('combobox', { name: 'Product code column' })).toHaveValue('product_code');
    await next(page).click();
    await expect(alert(page, 'Missing value for Main question column')).toBeVisible();
    await choose(page, 'Main question column', 'liking: Overall liking');
    await choose(page, 'Display order of products', /^Specified Product Order$/);
    await next(page).click();
    await expect(alert(page, 'The array Product code order is empty!')).toBeVisible();
    await choose(page, 'Display order of products', 'Unspecified Product Order');
    await expectAccessible(page, 'wizard step 3');
    await screenshots(page, 'wizard-step3');
    await next(page).click();

    // Step 4: regression with its file (once the 5 s alerts of step 3, which sit over it, are gone).
    await expect(page.getByRole('alert').filter({ hasText: 'Missing values!' })).toHaveCount(0, {
      timeout: 15_000,
    });
    await page.getByRole('switch', { name: 'Regression' }).check({ force: true });
    await page.locator('input[type=file]').setInputFiles(sample('sample_regression.csv'));
    await screenshots(page, 'wizard-step4');
    await next(page).click();

    // Step 5: charts and product names.
    await page.getByRole('switch', { name: 'Replace product codes with names' }).check({ force: true });
    await page.locator('input[type=file]').setInputFiles(sample('sample_products.csv'));
    await screenshots(page, 'wizard-step5');
    await next(page).click();

    // Results.
    await expect(page.getByRole('columnheader', { name: 'A: Amber Dusk' }).first()).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole('cell', { name: 'Significance Two-tailed 99% / 95%' }).first()).toBeVisible();
    await expect(page.getByText('Paired t-test', { exact: false })).toHaveCount(0);
    await expect(page.getByText('Wilcoxon signed-rank test, two-tailed.').first()).toBeVisible();
    const holm =
      "Multiple comparisons: Holm's adjustment of the p-values of each question's pairs (family-wise error rate).";
    await expect(page.getByText(holm)).toBeVisible();
    // An omnibus row per question: Friedman on the complete blocks (paired, non-parametric); the
    // questions with answers missing, the yes/no one among them, take the intra-block F.
    const summary = page.getByRole('table', { name: 'Summary' });
    await expect(summary.getByRole('cell', { name: 'Omnibus test' })).toHaveCount(7);
    await expect(summary.getByRole('cell', { name: /^Friedman test: chi-square = / }).first()).toBeVisible();
    await expect(
      summary
        .getByRole('cell', { name: /^Intra-block ANOVA \(products adjusted for respondents\): F = / })
        .first(),
    ).toBeVisible();
    await expect(page.getByText(/^Yes\/no questions: shares of yes, where yes is the code 1/)).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Correlations on product means (n = products)' }),
    ).toBeVisible();
    await expect(next(page)).toBeDisabled();
    await expectAccessible(page, 'wizard results');
    await screenshots(page, 'wizard-results');
    await page.getByRole('tab', { name: 'Charts' }).click();
    await expect(page.getByTestId('statistics-chart')).toHaveCount(7);
    await screenshots(page, 'wizard-charts');
    // summary.xlsx carries the omnibus rows, the shares of yes and the method in its legend.
    const file = await expectDownload(page, 'Download summary', 'summary.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const legend: string[] = [];
    workbook.getWorksheet('Legend')!.eachRow((row) => legend.push(String(row.getCell(1).value)));
    expect(legend).toContain(holm);
    // The Summary sheet names each question once, at the head of its rows: carry it down.
    const report = await readReportFile(file);
    let question = '';
    const rows = report.rows.map((row): Record<string, unknown> & { Question: string } => {
      if (row.Question) question = String(row.Question);
      return { ...row, Question: question };
    });
    const firstProduct = report.headings[2]!;
    const omnibus = rows.filter((row) => row.Statistic === 'Omnibus test');
    expect(omnibus).toHaveLength(7);
    expect(String(omnibus.find((row) => row.Question.startsWith('natural'))![firstProduct])).toMatch(
      /^Intra-block ANOVA \(products adjusted for respondents\): F = /,
    );
    expect(
      rows.filter((row) => row.Question.startsWith('natural')).map((row) => row.Statistic),
    ).not.toContain('Mean');
    await expectDownload(page, 'Download correlation', 'Regressions&Correlations.xlsx');
    await expectDownload(page, 'Download charts', 'chart_ppt.pptx');
  });

  test('an existing study from Find Study: search, study statistics, then the wizard from step 3', async ({
    page,
  }) => {
    await signIn(page, 'researcher@accord.test');
    await page.goto('/statistics-generator');
    await page.getByRole('link', { name: 'Existing Study: Use an RDF from an existing study' }).click();
    await expect(page).toHaveURL(/\/rdf_search$/);
    await expect(page.getByRole('combobox', { name: 'Client' })).toBeVisible();
    await expect(page.getByRole('slider', { name: 'First year' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Region' }).click();
    await expect(page.getByRole('option').first()).toContainText(/\(\d+\)$/);
    // APAC stands for its three sub-regions, which are not listed beside it.
    await expect(page.getByRole('option', { name: /^APAC \(\d+\)$/ })).toBeVisible();
    for (const subregion of APAC_SUBREGIONS)
      await expect(page.getByRole('option', { name: new RegExp(`^${subregion} \\(`) })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expectAccessible(page, 'find study');
    await screenshots(page, 'find-study');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/search\?/);
    await expect(page.getByText('Confirm your selections:')).toBeVisible();
    // The search has run on arrival: the studies and their Statistics links are there.
    await expect(page).toHaveURL(/startSearch=true/);
    const statisticsLink = page.getByRole('link', { name: /^Statistics of / }).first();
    await expect(statisticsLink).toBeVisible({ timeout: 30_000 });
    await statisticsLink.click();
    await expect(page).toHaveURL(/\/study\/\d+\/statistics$/);
    // The address changes a moment before the page shows; its Search is the one to press.
    await expect(page.getByRole('heading', { level: 1, name: 'Study Statistics' })).toBeVisible();

    // The study statistics page: the filter card and its Search.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(alert(page, 'Missing value for Main question column')).toBeVisible();
    await page.getByRole('combobox', { name: 'Main question column' }).click();
    await page.getByRole('option').first().click();
    await choose(page, 'Multiple comparisons', 'Benjamini-Hochberg (false discovery rate)');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const summary = page.getByRole('table', { name: 'Summary' });
    await expect(summary).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^Multiple comparisons: Benjamini-Hochberg adjustment/)).toBeVisible();
    await expect(summary.getByRole('cell', { name: 'Omnibus test' }).first()).toBeVisible();
    const productHeaders = summary.getByRole('columnheader', { name: /^[A-Z]+: / });
    const allProducts = await productHeaders.count();
    expect(allProducts).toBeGreaterThan(2);
    await expectAccessible(page, 'study statistics');
    await screenshots(page, 'study-statistics');
    await expectDownload(page, 'Download summary', 'summary.xlsx');

    // The category filter (fragrance family) narrows the products that enter the statistics.
    await page.getByRole('combobox', { name: 'Category', exact: true }).click();
    await expect(page.getByRole('option').first()).toBeVisible();
    const familyOptions = await page.getByRole('option').allTextContents();
    const family = familyOptions
      .map((text) => ({ text, count: Number(/\((\d+)\)$/.exec(text)?.[1] ?? 0) }))
      .find((option) => option.count >= 2 && option.count < allProducts);
    expect(family).toBeDefined();
    await page.getByRole('option', { name: family!.text, exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(productHeaders).toHaveCount(family!.count, { timeout: 30_000 });
    await screenshots(page, 'study-statistics-category');

    // The wizard on the same study starts at step 3 (index 2) after fetching its metrics.
    await page.getByRole('link', { name: 'Open in the Statistic Generator' }).click();
    await expect(page).toHaveURL(/\/rdf_upload\/\d+$/);
    await expect(page.getByText(/^Statistics from the results of CMI-\d{4}-\d{5}\.$/)).toBeVisible();
    // The wizard reads the study's metrics and design first ("Working..."): a busy machine takes a while.
    await expect(
      page.getByRole('radio', { name: 'Paired (the same respondents rated the products)' }),
    ).toBeChecked({ timeout: 30_000 });
    // Prev is disabled at the start (step 2 here) and at step 3, as the spec says for an existing study.
    await expect(prev(page)).toBeDisabled();
    await screenshots(page, 'wizard-existing-step2');
    await next(page).click();
    await expect(page.getByRole('combobox', { name: 'Product code column' })).toHaveValue('Product code');
    await expect(prev(page)).toBeDisabled();
    await page.getByRole('combobox', { name: 'Main question column' }).click();
    await page.getByRole('option').first().click();
    await choose(page, 'Display order of products', 'Unspecified Product Order');
    await next(page).click();
    await expect(page.getByRole('switch', { name: 'Regression' })).toBeVisible();
    await expect(prev(page)).toBeEnabled();
    await screenshots(page, 'wizard-existing-step4');
    await prev(page).click();
    await expect(page.getByRole('combobox', { name: 'Main question column' })).not.toHaveValue('');
    await next(page).click();
    await expect(page.getByRole('switch', { name: 'Regression' })).toBeVisible();
    await next(page).click();
    await expect(page.getByRole('switch', { name: 'Charts' })).toBeVisible();
    await screenshots(page, 'wizard-existing-step5');
    await next(page).click();
    await expect(page.getByRole('table', { name: 'Summary' })).toBeVisible({ timeout: 30_000 });
    await expect(next(page)).toBeDisabled();
    await expect(prev(page)).toBeEnabled();
    await expectAccessible(page, 'wizard results of a study');
  });
});
