import {
  CICS_MESSAGES,
  parseQuestionText,
  type CicsQuestionStatistics,
  type CicsSearchResponse,
} from '@accord/contracts';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const PHRASE = '"smells clean"';

async function post<T>(request: APIRequestContext, token: string, path: string, data: unknown): Promise<T> {
  const response = await request.post(`/api${path}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** Picks an option of a select or multi-select by its visible text. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** Moves a slider thumb to a value with the arrow keys (Home first when it is closer). */
async function setSlider(page: Page, thumb: Locator, value: number) {
  await thumb.focus();
  const now = Number(await thumb.getAttribute('aria-valuenow'));
  const key = value > now ? 'ArrowRight' : 'ArrowLeft';
  for (let i = 0; i < Math.abs(value - now); i++) await page.keyboard.press(key);
  await expect(thumb).toHaveAttribute('aria-valuenow', String(value));
}

test('search CICS for a quoted phrase, filter by gender and age, save the search and apply it again', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, DEMO_USERS.researcher);
  const found = await post<CicsSearchResponse>(request, token, '/cics/search_bar/?per_page=20', {
    search_terms: parseQuestionText(PHRASE),
  });
  expect(found.total).toBeGreaterThan(0);
  const first = found.results[0]!;
  const all = await post<CicsQuestionStatistics>(request, token, `/cics/inspect_question/${first.id}/`, {
    q: {},
  });
  // Gender and age narrow the list to the questions women of 25 to 54 answered; the first of those.
  const women = { Gender: ['Female'], Age: [25, 54] };
  const foundWomen = await post<CicsSearchResponse>(request, token, '/cics/search_bar/?per_page=20', {
    search_terms: parseQuestionText(PHRASE),
    q: women,
  });
  expect(foundWomen.total).toBeGreaterThan(0);
  expect(foundWomen.total).toBeLessThanOrEqual(found.total);
  const firstWoman = foundWomen.results[0]!;
  const filtered = await post<CicsQuestionStatistics>(
    request,
    token,
    `/cics/inspect_question/${firstWoman.id}/`,
    { q: women },
  );
  const allOfFirstWoman = await post<CicsQuestionStatistics>(
    request,
    token,
    `/cics/inspect_question/${firstWoman.id}/`,
    { q: {} },
  );
  expect(filtered.statistics.n).toBeGreaterThan(0);
  expect(filtered.statistics.n).toBeLessThan(allOfFirstWoman.statistics.n);

  await signIn(page, DEMO_USERS.researcher);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'CICS' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'CICS' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('CICS');
  await expect(page.getByRole('heading', { level: 2, name: CICS_MESSAGES.title })).toBeVisible();
  await expect(page.getByText(CICS_MESSAGES.subtitle)).toBeVisible();
  await expectAccessible(page, 'CICS, empty');

  // Searching without a question text explains what is missing.
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(CICS_MESSAGES.emptyQuery);

  await page.getByRole('textbox', { name: 'Question text' }).fill(PHRASE);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('list', { name: 'Matching questions' });
  await expect(page.getByText(`${found.total} found`)).toBeVisible();
  const rows = results.locator(':scope > li');
  await expect(rows).toHaveCount(Math.min(found.total, 20));
  for (const text of await rows.allTextContents()) expect(text.toLowerCase()).toContain('smells clean');
  await expectAccessible(page, 'CICS results');

  // A question several studies ask is one row; its studies show on expand, each to inspect.
  const shared = found.results.findIndex((question) => question.studies.length > 1);
  expect(shared, 'a question asked by several studies').toBeGreaterThanOrEqual(0);
  const group = found.results[shared]!;
  const row = rows.nth(shared);
  await row.getByRole('button', { name: `Asked in ${group.studies.length} studies` }).click();
  const studies = row.getByRole('list', { name: `Studies asking ${group.q_text}` });
  await expect(studies.getByRole('listitem')).toHaveCount(group.studies.length);
  const other = group.studies[1]!;
  await studies.getByRole('button', { name: new RegExp(`^${other.study.c_mi_number} `) }).click();
  const statistics = page.getByRole('region', { name: 'Answer statistics' });
  await expect(statistics).toContainText(other.study.c_mi_number);
  await expectAccessible(page, 'CICS question with its studies');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/cics-grouped-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Every question of all the answers.
  await results.getByRole('button').first().click();
  await expect(results.getByRole('button').first()).toHaveAttribute('aria-pressed', 'true');
  await expect(statistics.getByRole('heading', { name: first.q_text })).toBeVisible();
  await expect(statistics.getByText('Base (n)', { exact: true }).locator('..')).toContainText(
    String(all.statistics.n),
  );
  await expect(statistics.getByText('Mean (1-5)').locator('..')).toContainText(
    all.statistics.mean!.toFixed(2),
  );
  await expect(statistics.getByRole('table', { name: 'Answers' }).getByRole('row')).toHaveCount(
    all.answers.length + 1,
  );
  await expect(statistics.getByTestId('answers-chart')).toBeVisible();
  await expectAccessible(page, 'CICS question statistics');

  // Gender and age narrow the respondents: the statistics follow.
  await page.getByRole('tab', { name: 'Demographics' }).click();
  await choose(page, 'Gender', 'Female');
  const lower = page.getByRole('slider', { name: 'Lower age limit' });
  const higher = page.getByRole('slider', { name: 'Higher age limit' });
  await setSlider(page, lower, 25);
  await setSlider(page, higher, 54);
  await expect(lower).toHaveAttribute('aria-valuenow', '25');
  await expect(higher).toHaveAttribute('aria-valuenow', '54');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(`${foundWomen.total} found`)).toBeVisible();
  // Both searches may find one grouped question: its first study tells the new answer has arrived.
  await expect(rows.first().getByRole('button').first()).toContainText(firstWoman.study.c_mi_number);
  await results.getByRole('button').first().click();
  await expect(statistics.getByRole('heading', { name: firstWoman.q_text })).toBeVisible();
  await expect(statistics).toContainText('Respondents: Gender Female; Age 25 - 54');
  await expect(statistics.getByText('Base (n)', { exact: true }).locator('..')).toContainText(
    String(filtered.statistics.n),
  );

  // Save the search, start a new one, then apply the saved one again.
  const name = `Clean women ${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: 'Search name' }).first().fill(name);
  await page.getByRole('button', { name: 'Save search' }).first().click();
  await expect(page.getByText(`Successfully saved current search as "${name}".`)).toBeVisible();

  await page.getByRole('button', { name: 'New search' }).click();
  const popup = page.getByRole('dialog', { name: 'Save current search?' });
  await expect(popup).toContainText('The following action will clear filters and results');
  await expectAccessible(page, 'CICS save-or-discard popup');
  await popup.getByRole('button', { name: 'No', exact: true }).click();
  await expect(popup).toBeHidden();
  await expect(results).toHaveCount(0);
  await page.getByRole('tab', { name: 'Question' }).click();
  await expect(page.getByRole('textbox', { name: 'Question text' })).toHaveValue('');

  await page.getByRole('button', { name: CICS_MESSAGES.savedTitle }).click();
  const panel = page.getByRole('dialog', { name: CICS_MESSAGES.savedTitle });
  const entry = panel.getByRole('listitem').filter({ hasText: name });
  await entry.getByRole('button', { name: /Show filters/ }).click();
  await expect(entry).toContainText(`Question: ${PHRASE}`);
  await expect(entry).toContainText('Gender: Female');
  await expect(entry).toContainText('Age: 25 - 54');
  await expectAccessible(page, 'Saved CICS panel');
  await entry.getByRole('button', { name: `Apply saved search ${name}` }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Question text' })).toHaveValue(PHRASE);
  await expect(page.getByText(`${foundWomen.total} found`)).toBeVisible();
  await results.getByRole('button').first().click();
  await expect(statistics.getByText('Base (n)', { exact: true }).locator('..')).toContainText(
    String(filtered.statistics.n),
  );

  // Leaving with filters set asks first; Cancel stays, No leaves.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).click();
  await expect(popup).toBeVisible();
  await popup.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/cics/);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).click();
  await popup.getByRole('button', { name: 'No', exact: true }).click();
  await expect(page).toHaveURL(/\/home\/$/);
});

test('the region filter ticks the APAC sub-regions and a phrase finds fewer questions than its words', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, DEMO_USERS.admin);
  const phrase = await post<CicsSearchResponse>(request, token, '/cics/search_bar/', {
    search_terms: parseQuestionText('"fragrance smells"'),
  });
  const words = await post<CicsSearchResponse>(request, token, '/cics/search_bar/', {
    search_terms: parseQuestionText('fragrance smells'),
  });
  expect(words.total).toBeGreaterThanOrEqual(phrase.total);

  await signIn(page, DEMO_USERS.admin);
  await page.goto('/cics');
  await page.getByRole('textbox', { name: 'Question text' }).fill('fragrance smells');
  await page.getByRole('textbox', { name: 'Question text' }).press('Enter');
  await expect(page.getByText(`${words.total} found`)).toBeVisible();

  await page.getByRole('tab', { name: 'Geography' }).click();
  await choose(page, 'Geography type', 'Region (new)');
  await page.getByRole('combobox', { name: 'Geography', exact: true }).click();
  await page.getByRole('option', { name: 'APAC', exact: true }).click();
  await page.keyboard.press('Escape');
  const chosen = page.getByRole('combobox', { name: 'Geography', exact: true }).locator('..');
  for (const region of ['APAC', 'South Asia', 'South East Asia', 'North Asia'])
    await expect(chosen).toContainText(region);
  await expectAccessible(page, 'CICS geography tab');

  const inspect = page.waitForRequest((req) => req.url().includes('/api/cics/inspect_question/'));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('list', { name: 'Matching questions' }).getByRole('button').first().click();
  // APAC itself is dropped from the query: its sub-regions stand for it.
  const body = (await inspect).postDataJSON() as { q: { Region_new?: string[] } };
  expect(body.q.Region_new?.sort()).toEqual(['North Asia', 'South Asia', 'South East Asia']);
});
