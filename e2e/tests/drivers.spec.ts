// Drivers of liking: a client user opens the drivers of a base that meets the norms rule, reads the
// ranked attributes against the API's numbers, traces a figure (recomputed from its answers, equal to
// the screen's, with the studies behind it and another client's study unnamed), downloads the workbook
// and the slides, and meets a withheld base.
import {
  DRIVERS_MESSAGES,
  type DriversResponse,
  type DriverTraceResponse,
  type NormOptionsResponse,
} from '@accord/contracts';
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

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a client user opens the drivers of liking of a qualifying base, traces a figure and downloads them', async ({
  page,
  request,
}) => {
  // Four screens, two downloads and a recomputation from the answers: a loaded machine needs more than a minute.
  test.setTimeout(120_000);
  const token = await apiToken(request, DEMO_USERS.client);
  const options = await getJson<NormOptionsResponse>(request, token, '/norms/options');
  const all = await Promise.all(
    options.categories.map((category) => getJson<DriversResponse>(request, token, '/drivers', { category })),
  );
  const shown = all.find((drivers) => drivers.status === 'available');
  const withheld = all.find((drivers) => drivers.status === 'withheld');
  expect(shown, 'a category of the journeys library meets the norms rule').toBeDefined();
  expect(withheld, 'a category of the journeys library is below it').toBeDefined();
  const top = shown!.attributes[0]!;

  await signIn(page, DEMO_USERS.client);
  await expect(page.getByRole('article', { name: 'Drivers of Liking' })).toBeVisible();
  await page.getByRole('navigation').getByRole('link', { name: 'Drivers of Liking' }).click();
  await expect(page).toHaveURL(/\/drivers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Drivers of Liking' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'Choose a category to see what drives liking in it.' }),
  ).toBeVisible();

  await choose(page, 'Category', shown!.base.category);
  await expect(page.getByTestId('drivers-base-description')).toHaveText(shown!.base.description);
  await expect(page.getByRole('img', { name: /^Attributes ranked by pooled correlation/ })).toBeVisible();
  const table = page.getByRole('table', { name: 'Attributes ranked by pooled correlation' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(shown!.attributes.length + 1);
  const first = rows.nth(1);
  await expect(first.getByRole('rowheader')).toHaveText(top.metric.label);
  await expect(first).toContainText(top.r.toFixed(2));
  await expect(first).toContainText(`${top.ci_low!.toFixed(2)} to ${top.ci_high!.toFixed(2)}`);
  await expect(first).toContainText(top.agreement);
  await expect(page.getByRole('table', { name: 'Strength penalties' })).toBeVisible();
  await expectAccessible(page, 'drivers of liking');

  // How was this computed? The top attribute's figure recomputed from its answers, equal to the
  // screen's, and the studies behind it, another client's study unnamed.
  const recomputed = await getJson<DriverTraceResponse>(request, token, '/drivers/trace', {
    category: shown!.base.category,
    attribute: top.metric.name,
  });
  expect(recomputed.equal).toBe(true);
  const trace = page.getByRole('button', { name: `How was this computed? ${top.metric.label}` });
  await trace.click();
  const drawer = page.getByRole('dialog');
  const pooled = drawer.getByRole('table', { name: `Pooled correlation of ${top.metric.label}` });
  await expect(pooled.getByRole('row', { name: /^On screen/ })).toContainText(top.r.toFixed(6));
  await expect(pooled.getByRole('row', { name: /^Recomputed from the answers/ })).toContainText(
    top.r.toFixed(6),
  );
  await expect(drawer.getByTestId('driver-trace-equal')).toHaveText('Equal');
  await expect(drawer.getByTestId('driver-trace-counts')).toHaveText(
    `From ${recomputed.recomputed.pairs.toLocaleString('en-GB')} paired answers of ${top.respondents.toLocaleString('en-GB')} respondents to ${recomputed.recomputed.products} products in ${top.studies} studies.`,
  );
  // The client user has no download right: no answers to download.
  await expect(drawer.getByRole('button', { name: 'Download answers (csv)' })).toHaveCount(0);
  const studies = drawer.getByRole('table', { name: `Studies behind ${top.metric.label}` });
  await expect(studies.getByRole('row')).toHaveCount(top.per_study.length + 1);
  const foreign = top.per_study.filter((entry) => entry.study.id === null).length;
  await expect(studies.getByText(DRIVERS_MESSAGES.otherClient, { exact: true })).toHaveCount(foreign);
  for (const entry of top.per_study.filter((item) => item.study.id !== null)) {
    await expect(studies.getByRole('link', { name: entry.study.label })).toBeVisible();
  }
  await expectAccessible(page, 'drivers of liking, how was this computed');
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(trace).toBeFocused();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Workbook (xlsx)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('drivers-of-liking.xlsx');
  const file = await readReportFile((await download.path())!);
  expect(file.lines[0]).toBe(`Drivers of liking: ${shown!.liking.label}`);
  expect(file.lines.join('\n')).toContain(shown!.base.description);
  expect(file.rows[0]!.Attribute).toBe(top.metric.label);
  expect(file.rows[0]!['Pooled r'] as number).toBeCloseTo(top.r, 12);

  const slides = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Slides (pptx)' }).click();
  expect((await slides).suggestedFilename()).toBe('drivers-of-liking.pptx');

  // Too small a base: withheld with the reason, nothing to download.
  await choose(page, 'Category', withheld!.base.category);
  await expect(page.getByRole('status').filter({ hasText: 'Drivers withheld' })).toContainText(
    DRIVERS_MESSAGES.withheld,
  );
  await expect(page.getByRole('button', { name: 'Workbook (xlsx)' })).toHaveCount(0);
  await expectAccessible(page, 'drivers of liking, withheld');
});
