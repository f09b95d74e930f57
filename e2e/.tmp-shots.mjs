import { chromium } from '@playwright/test';
const base = 'http://localhost:3271';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(base + '/login');
await page.getByLabel('Email', { exact: true }).fill('researcher@accord.test');
await page.getByLabel('Password', { exact: true }).fill('accord-demo');
await page.getByRole('button', { name: 'Login' }).click();
await page.waitForURL(/home/);
await page.goto(base + '/analytics');
const choose = async (box, option) => { await page.getByRole('combobox', { name: box, exact: true }).click(); await page.getByRole('option', { name: option }).first().click(); await page.keyboard.press('Escape'); };
await choose('Metric 1', 'Overall Liking');
await choose('Aggregation 1', /^T2B/);
await page.getByRole('checkbox', { name: 'Use metric 1 for significance' }).check();
await page.getByRole('button', { name: 'Add metric' }).click();
await choose('Metric 2', 'Overall Liking');
await choose('Aggregation 2', /^M \(mean\)/);
await page.getByRole('tab', { name: 'Essentials' }).click();
await choose('Category', /^Fabric Care/);
await page.getByRole('button', { name: 'Search', exact: true }).click();
const table = page.getByRole('table', { name: 'fragrances found' });
await table.waitFor({ timeout: 90000 });
await table.getByRole('button', { name: 'T2B Overall Liking' }).click();
await page.getByRole('button', { name: 'Calculate' }).click();
await page.getByRole('group', { name: 'Show products by significance' }).getByRole('button', { name: /^99% higher/ }).waitFor({ timeout: 90000 });
// a few rows selected, so the chart shows the selection
for (const i of [1, 3]) await table.getByRole('row').nth(i).getByRole('checkbox').check();
await page.waitForTimeout(1500);
for (const w of [1440, 390]) {
  await page.setViewportSize({ width: w, height: 900 });
  await page.waitForTimeout(800);
  const section = page.locator('section').filter({ has: page.getByRole('heading', { name: /^Ranked:/ }) });
  await section.screenshot({ path: `/tmp/decks-shots/ranked-${w}.png` });
  await page.getByRole('heading', { name: 'Analytics Results' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/decks-shots/metrics-${w}.png` });
}
await page.setViewportSize({ width: 1440, height: 900 });
for (const [tab, name] of [[/Fragrance Performance/, 'performance'], [/Top Attributes/, 'attributes'], [/Tendencies/, 'tendencies']]) {
  await page.getByRole('tab', { name: tab }).click();
  if (name === 'attributes') { const run = page.getByRole('button', { name: /^(Show|Run|Search|Update)/ }); }
  await page.waitForTimeout(4000);
  for (const w of [1440, 390]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/decks-shots/${name}-${w}.png`, fullPage: false });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
await browser.close();
