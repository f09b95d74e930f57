import type { MappingQuestion, StudyQuestionsResponse, StudySummaryRow } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
/** Set MAPPING_SCREENSHOTS to a folder to keep screenshots of the page at 1280 and 390 px. */
const SHOTS = process.env.MAPPING_SCREENSHOTS;

async function studyIds(request: APIRequestContext, token: string): Promise<number[]> {
  const response = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(token),
    data: { query: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as StudySummaryRow[]).map((row) => row.id);
}

async function questionsOf(request: APIRequestContext, token: string, id: number) {
  const response = await request.get(`/api/study/${id}/questions/`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as StudyQuestionsResponse;
}

/**
 * A study with an unmapped question whose suggested metric is still free in its file, and another
 * unmapped question of the same file to try a taken metric on.
 */
async function mappingTarget(request: APIRequestContext, token: string) {
  for (const id of await studyIds(request, token)) {
    const data = await questionsOf(request, token, id);
    for (const file of data.files) {
      const used = new Set(file.questions.map((q) => q.metric?.name).filter(Boolean));
      const target = file.questions.find(
        (q) => !q.metric && q.suggested_metric && !used.has(q.suggested_metric.name),
      );
      const other = file.questions.find((q) => !q.metric && q.id !== target?.id);
      const taken = file.questions.find((q) => q.metric_validated && q.metric);
      if (target && other && taken) return { data, file, target, other, taken };
    }
  }
  throw new Error('No study with a free suggested metric in the demo library');
}

const row = (page: Page, question: MappingQuestion) =>
  page.getByRole('listitem', { name: `Question ${question.qid}`, exact: true });

async function screenshots(page: Page, name: string) {
  if (!SHOTS) return;
  await page.screenshot({ path: `${SHOTS}/${name}-1280.png`, fullPage: true });
  // The layout is laid out afresh at the narrow width, as a phone would open it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Mapping to questions' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading questions' })).toHaveCount(0);
  // The layout opens its navigation on every width; a phone user closes it to read the page.
  const navigation = page.getByRole('button', { name: 'Toggle navigation', expanded: true });
  if ((await navigation.count()) > 0) {
    await navigation.click();
    await expect(page.getByRole('button', { name: 'Toggle navigation', expanded: false })).toBeVisible();
    // Let the navigation finish sliding away before the picture is taken.
    await page.waitForTimeout(400);
  }
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await expect(page.getByRole('status', { name: 'Loading questions' })).toHaveCount(0);
}

test('a researcher maps a question to its suggestion, validates it, and adds a constant question', async ({
  page,
  request,
}) => {
  // A long journey with three accessibility scans of a long page on a shared machine.
  test.setTimeout(180_000);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const { data, file, target, other, taken } = await mappingTarget(request, researcher);
  const suggestion = target.suggested_metric!;

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/study/${data.study_id}/mapping/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mapping to questions' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to study' })).toHaveAttribute(
    'href',
    `/study/${data.study_id}/`,
  );
  const section = page.getByRole('region', { name: file.filename, exact: true });
  await expect(section.getByText('Showing the questions not validated yet.', { exact: false })).toBeVisible();
  await expect(section.getByRole('switch', { name: 'Show all questions' })).not.toBeChecked();
  // Validated questions are not listed until 'Show all questions' is on.
  await expect(row(page, taken)).toHaveCount(0);
  const panel = page.getByRole('complementary', { name: /Validated questions/ });
  const validatedBefore = file.questions.filter((q) => q.metric_validated).length;
  await expect(panel.getByRole('heading', { name: `Validated questions ${validatedBefore}` })).toBeVisible();
  await expect(section.getByText(/^\d+ \/ \d+$/)).toHaveText('1 / 1');
  await expectAccessible(page, 'mapping');
  await screenshots(page, 'mapping');

  // Map the question to its suggestion.
  const targetRow = row(page, target);
  await expect(targetRow.getByText(`Suggested metric: ${suggestion.label}`)).toBeVisible();
  // The suggestion says how sure it is and why, in words.
  const detail = target.suggestion!;
  await expect(
    targetRow.getByText(detail.confidence === 'high' ? 'High confidence' : 'Medium confidence', {
      exact: true,
    }),
  ).toBeVisible();
  const reasons = targetRow.getByRole('list', { name: 'Why:' }).getByRole('listitem');
  await expect(reasons).toHaveCount(detail.reasons.length);
  await expect(reasons.first()).toContainText(
    detail.reasons[0]!.kind === 'example' ? 'validated question' : /Words|Scale/,
  );
  const metric = targetRow.getByRole('combobox', { name: `Metric of ${target.qid}` });
  await expect(metric).toHaveValue('');
  await targetRow
    .getByRole('button', { name: `Use the suggested metric ${suggestion.label} for ${target.qid}` })
    .click();
  await expect(metric).toHaveValue(suggestion.label);

  // Validate it: it leaves the list of questions to do and joins the side panel.
  await targetRow.getByRole('button', { name: `Validate ${target.qid}` }).click();
  await expect(targetRow).toHaveCount(0);
  await expect(
    panel.getByRole('heading', { name: `Validated questions ${validatedBefore + 1}` }),
  ).toBeVisible();
  await panel.getByRole('button', { name: `${target.qid}: ${target.text}` }).click();
  await expect(panel.getByText(`ID: ${target.qid}`)).toBeVisible();
  await expect(panel.getByText(`Metric: ${suggestion.label}`)).toBeVisible();

  // A metric already used in the file cannot be chosen again.
  const otherRow = row(page, other);
  const otherMetric = otherRow.getByRole('combobox', { name: `Metric of ${other.qid}` });
  await otherMetric.click();
  const takenOption = page.getByRole('option', { name: `${taken.metric!.label} (used by ${taken.qid})` });
  await expect(takenOption).toHaveAttribute('aria-disabled', 'true');
  await takenOption.click({ force: true });
  await page.keyboard.press('Escape');
  await expect(otherMetric).toHaveValue('');

  // With every question shown, the validated one is there, its metric locked; un-validating it
  // takes it off the side panel.
  await section.getByRole('switch', { name: 'Show all questions' }).click();
  await expect(section.getByText('Showing every question of the file.')).toBeVisible();
  await expect(targetRow.getByRole('combobox', { name: `Metric of ${target.qid}` })).toBeDisabled();
  await targetRow.getByRole('button', { name: `Validate ${target.qid}` }).click();
  await expect(panel.getByRole('heading', { name: `Validated questions ${validatedBefore}` })).toBeVisible();
  await expect(panel.getByRole('button', { name: `${target.qid}: ${target.text}` })).toHaveCount(0);
  await expect(targetRow.getByRole('combobox', { name: `Metric of ${target.qid}` })).toBeEnabled();

  // Add a constant question, then edit its value (Enter saves, Esc cancels).
  await section.getByRole('button', { name: `Add question to ${file.filename}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Add question' });
  await dialog.getByLabel('Substance of the question').fill('Panel wave');
  await dialog.getByLabel('Constant value').fill('Wave 2');
  await expect(dialog.getByRole('combobox', { name: 'Metric mapping' })).toBeVisible();
  await expectAccessible(page, 'add question');
  // The confirmation shows for 3 s only, and on a busy machine the click alone can take longer
  // (Playwright waits after a form's submit button): look for it from before the click.
  const confirmation = expect(page.getByText('Question added.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add tag' }).click();
  await confirmation;
  await expect(dialog).toHaveCount(0);
  const added = page.getByRole('listitem', { name: 'Question C1', exact: true });
  await expect(added.getByText('Panel wave')).toBeVisible();
  await expect(added.getByText('Wave 2')).toBeVisible();
  await added.getByRole('button', { name: 'Edit the value of C1' }).click();
  const value = added.getByRole('textbox', { name: 'Constant value of C1' });
  await value.fill('Wave 3');
  await value.press('Enter');
  await expect(added.getByText('Wave 3')).toBeVisible();
  await added.getByRole('button', { name: 'Edit the value of C1' }).click();
  await added.getByRole('textbox', { name: 'Constant value of C1' }).fill('Not kept');
  await added.getByRole('textbox', { name: 'Constant value of C1' }).press('Escape');
  await expect(added.getByText('Wave 3')).toBeVisible();
  await expect(added.getByText('Not kept')).toHaveCount(0);
  await expectAccessible(page, 'mapping, all questions');
  await screenshots(page, 'mapping-all');

  // The saved state is the server's.
  const after = await questionsOf(request, researcher, data.study_id);
  const saved = after.files.find((f) => f.filename === file.filename)!.questions;
  expect(saved.find((q) => q.id === target.id)).toMatchObject({
    metric: { name: suggestion.name },
    metric_validated: false,
  });
  expect(saved.find((q) => q.qid === 'C1')).toMatchObject({
    text: 'Panel wave',
    domain: { value: 'Wave 3' },
  });

  // Leave the question unmapped again, so journeys that read analytics later see the demo library.
  const restore = await request.put(`/api/study/${data.study_id}/question/`, {
    headers: auth(researcher),
    data: { q_upd: { id: target.id, metric: null } },
  });
  expect(restore.status(), await restore.text()).toBe(200);
});

test('a client user reads the mapping of their study without changing it', async ({ page, request }) => {
  const client = await apiToken(request, DEMO_USERS.client);
  const [id] = await studyIds(request, client);
  const data = await questionsOf(request, client, id!);
  const file = data.files[0]!;

  await signIn(page, DEMO_USERS.client);
  await page.goto(`/study/${id}/mapping/`);
  await expect(page.getByText('Mappings are changed by admins and analytics users')).toBeVisible();
  const section = page.getByRole('region', { name: file.filename, exact: true });
  await section.getByRole('switch', { name: 'Show all questions' }).click();
  const first = row(page, file.questions[0]!);
  await expect(first.getByRole('combobox', { name: `Metric of ${file.questions[0]!.qid}` })).toBeDisabled();
  await expect(first.getByRole('button', { name: /^Validate / })).toHaveCount(0);
  await expect(section.getByRole('button', { name: /^Add question/ })).toHaveCount(0);
  await expectAccessible(page, 'mapping, read only');
  await screenshots(page, 'mapping-client');
});
