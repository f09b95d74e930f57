import { readFile } from 'node:fs/promises';
import type {
  AnalyticsOptionsResponse,
  DemographicCondition,
  ProfileDemographicOptions,
  ProfileResponse,
  StudyDetailsResponse,
  StudyQuestionsResponse,
  StudySummaryRow,
} from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function summaries(request: APIRequestContext, token: string, query: object = {}) {
  const response = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(token),
    data: { query },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as StudySummaryRow[];
}

async function getJson<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const response = await request.get(`/api${path}`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

async function profileOf(
  request: APIRequestContext,
  token: string,
  path: string,
  demographics: DemographicCondition[] = [],
): Promise<ProfileResponse> {
  const response = await request.post(`/api${path}`, { headers: auth(token), data: { demographics } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as ProfileResponse;
}

async function remap(request: APIRequestContext, token: string, studyId: number, change: object) {
  const response = await request.put(`/api/study/${studyId}/question/`, {
    headers: auth(token),
    data: { q_upd: change },
  });
  expect(response.status(), await response.text()).toBe(200);
}

const table = (page: Page, name: string) => page.getByRole('table', { name, exact: true });

/** The navigation may be open over the page on a narrow screen; close it to look at the page. */
async function closeNavigation(page: Page) {
  const open = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await open.count()) > 0) await open.click();
}

/** The base n cell (last cell) of a metric's row. */
const baseOf = (page: Page, tableName: string, metric: string) =>
  table(page, tableName)
    .getByRole('row', { name: new RegExp(`\\b${metric}\\b`) })
    .getByRole('cell')
    .last();

test('a researcher reads, filters and downloads a fragrance profile, then a concept profile', async ({
  page,
  request,
}) => {
  // Two profiles, a download and a profile per demographic value of the study: a loaded machine needs more than a minute.
  test.setTimeout(180_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  // Prefer the not verified study (the search and analytics journeys read verified studies only), then
  // any study whose first fragrance has respondents of both genders.
  const candidates = [
    ...(await summaries(request, admin, { essentials: { verified: false } })),
    ...(await summaries(request, admin)),
  ];
  let chosen: {
    study: StudySummaryRow;
    fragrance: StudyDetailsResponse['perfume_characteristics'][number];
    path: string;
    gender: string;
  } | null = null;
  for (const candidate of candidates) {
    const found = await getJson<StudyDetailsResponse>(request, admin, `/study/${candidate.id}`);
    const first = found.perfume_characteristics[0];
    if (!first) continue;
    const path = `/study/${candidate.id}/fragrance/${encodeURIComponent(first.fragrance_code)}`;
    const total = (await profileOf(request, researcher, path)).result.find((row) => row.metric === 'liking');
    for (const gender of ['Female', 'Male']) {
      const part = await profileOf(request, researcher, path, [
        { field: 'gender', filter: { type: 'equal', value: gender } },
      ]);
      const liking = part.result.find((row) => row.metric === 'liking');
      if (total && liking && liking.n > 0 && liking.n < total.n) {
        chosen = { study: candidate, fragrance: first, path, gender };
        break;
      }
    }
    if (chosen) break;
  }
  expect(chosen, 'a fragrance with respondents of both genders').not.toBeNull();
  const { study, fragrance, path, gender } = chosen!;

  // Unmap the purchase intention question so the profile lacks a required metric.
  const questions = await getJson<StudyQuestionsResponse>(request, admin, `/study/${study.id}/questions/`);
  const purchase = questions.files
    .flatMap((file) => file.questions)
    .find((question) => question.metric?.name === 'purchase_intention');
  expect(purchase).toBeDefined();
  if (purchase!.metric_validated)
    await remap(request, admin, study.id, { id: purchase!.id, metric_validated: false });
  await remap(request, admin, study.id, { id: purchase!.id, metric: null });

  const all = await profileOf(request, researcher, path);
  const filtered = await profileOf(request, researcher, path, [
    { field: 'gender', filter: { type: 'equal', value: gender } },
  ]);
  const likingAll = all.result.find((row) => row.metric === 'liking')!;
  const likingFemale = filtered.result.find((row) => row.metric === 'liking')!;
  // The filter offers the values of the study's own respondents; a library value the study lacks is
  // not offered. A value of the study that none of this product's respondents has still finds nothing.
  const options = await getJson<AnalyticsOptionsResponse>(request, researcher, '/analytics/options');
  const own = await getJson<ProfileDemographicOptions>(
    request,
    researcher,
    `/study/${study.id}/demographic-options`,
  );
  let absent: { label: string; valueLabel: string } | null = null;
  let empty: { field: string; label: string; value: string; valueLabel: string } | null = null;
  for (const field of ['ethnicity', 'social_class'] as const) {
    const library = options.data.fields.demographics.find((entry) => entry.field === field)!;
    const study = own.demographics.find((entry) => entry.field === field)!;
    const offered = new Set(study.options.map((option) => option.value));
    const missing = library.options.find((option) => option.count > 0 && !offered.has(option.value));
    if (missing && !absent) absent = { label: library.label, valueLabel: missing.label };
    for (const option of study.options) {
      if (empty) break;
      const found = await profileOf(request, researcher, path, [
        { field, filter: { type: 'equal', value: option.value } },
      ]);
      if (found.result.length === 0)
        empty = { field, label: study.label, value: option.value, valueLabel: option.label };
    }
  }
  const ownGenders = own.demographics.find((entry) => entry.field === 'gender')!.options.map((o) => o.label);

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/analytics/profile/${study.id}/${encodeURIComponent(fragrance.fragrance_code)}`);
  await expect(page.getByRole('heading', { level: 1, name: fragrance.name })).toBeVisible();
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(breadcrumb.getByRole('link', { name: 'Search' })).toBeVisible();
  await expect(breadcrumb).toContainText('Profile');
  await expect(page.getByRole('link', { name: study.c_mi_number })).toHaveAttribute(
    'href',
    `/study/${study.id}/`,
  );
  await expect(page.getByText(study.client, { exact: true }).first()).toBeVisible();

  const performance = table(page, 'Performance data');
  for (const heading of ['Mean', 'Top Box', 'Top 2 Box', 'Neutral', 'Bottom Box', 'Bottom 2 Box', 'Base n'])
    await expect(performance.getByRole('columnheader', { name: heading, exact: true })).toBeVisible();
  const strength = table(page, 'Strength');
  for (const heading of ['Too strong', 'Strong', 'Too weak', 'Weak'])
    await expect(strength.getByRole('columnheader', { name: heading, exact: true })).toBeVisible();
  await expect(strength.getByRole('columnheader', { name: 'Neutral' })).toHaveCount(0);
  const purchaseRow = performance.getByRole('row', { name: /Purchase Intention/ });
  await expect(purchaseRow.getByRole('cell').filter({ hasText: 'N/A' })).toHaveCount(6);
  const likingRow = performance.getByRole('row', { name: /Overall Liking/ });
  await expect(likingRow).toContainText(likingAll.mean === 'N/A' ? 'N/A' : likingAll.mean!.toFixed(2));
  await expect(likingRow).toContainText(`${Math.round(Number(likingAll.top_2_box) * 100)}%`);
  await expect(baseOf(page, 'Performance data', 'Overall Liking')).toHaveText(String(likingAll.n));
  await expect(table(page, 'Attributes data')).toBeVisible();
  // An EEG study dates its sessions and draws them; any other study has no time series.
  if (Object.keys(all.time_series).length === 0)
    await expect(page.getByText('No time series data available.')).toBeVisible();
  else await expect(page.getByRole('figure', { name: /^Mean score by test date/ })).toBeVisible();
  await expect(
    page.getByText('All scores and metrics have been harmonized to a common 5 point scale'),
  ).toBeVisible();
  await expectAccessible(page, 'fragrance profile');
  await page.screenshot({ path: 'test-results/profile-fragrance-1280.png', fullPage: true });

  // Hovering a number shows its base.
  await likingRow.getByText(likingAll.mean === 'N/A' ? 'N/A' : likingAll.mean!.toFixed(2)).hover();
  await expect(page.getByRole('tooltip')).toHaveText(`Base: n = ${likingAll.n}`);

  // The table filter narrows the rows.
  await page.getByLabel('Filter tables').fill('liking');
  await expect(performance.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Filter tables').fill('');

  // Gender: only the study's own values; the numbers change and the base follows.
  await page.getByRole('combobox', { name: 'Demographic category' }).click();
  await page.getByRole('option', { name: 'Gender', exact: true }).click();
  await page.getByRole('combobox', { name: 'Value' }).click();
  await expect(page.getByRole('option')).toHaveText(ownGenders);
  await page.getByRole('option', { name: gender, exact: true }).click();
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByText(`Respondents shown: Gender: ${gender}`)).toBeVisible();
  await expect(baseOf(page, 'Performance data', 'Overall Liking')).toHaveText(String(likingFemale.n));
  await expect(likingRow).toContainText(likingFemale.mean === 'N/A' ? 'N/A' : likingFemale.mean!.toFixed(2));

  if (absent) {
    await page.getByRole('combobox', { name: 'Demographic category' }).click();
    await page.getByRole('option', { name: absent.label, exact: true }).click();
    await page.getByRole('combobox', { name: 'Value' }).click();
    await expect(page.getByRole('option', { name: absent.valueLabel, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
  }

  // A filter without respondents: the message, the previous data kept, the filters cleared.
  if (empty) {
    await page.getByRole('combobox', { name: 'Demographic category' }).click();
    await page.getByRole('option', { name: empty.label, exact: true }).click();
    await page.getByRole('combobox', { name: 'Value' }).click();
    await page.getByRole('option', { name: empty.valueLabel, exact: true }).click();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(
      page.getByText('No data found for provided filters, displaying previous data.'),
    ).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Demographic category' })).toHaveValue('');
    await expect(page.getByText(`Respondents shown: Gender: ${gender}`)).toBeVisible();
    await expect(baseOf(page, 'Performance data', 'Overall Liking')).toHaveText(String(likingFemale.n));
    await expectAccessible(page, 'fragrance profile with the no-result message');
  }

  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(page.getByText('Respondents shown: all respondents')).toBeVisible();
  await expect(baseOf(page, 'Performance data', 'Overall Liking')).toHaveText(String(likingAll.n));
  await expect(page.getByText('No data found for provided filters, displaying previous data.')).toHaveCount(
    0,
  );

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('fragrance_profile.xlsx');
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(table(page, 'Performance data')).toBeVisible();
  await closeNavigation(page);
  await expectAccessible(page, 'fragrance profile at 390 px');
  await page.screenshot({ path: 'test-results/profile-fragrance-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A link naming chosen metrics highlights their rows.
  const attribute = all.result.find((row) => row.metric_type === 'Attribute')!;
  await page.goto(
    `/analytics/profile/${study.id}/${encodeURIComponent(fragrance.fragrance_code)}?attributes=${encodeURIComponent(JSON.stringify([attribute.metric]))}`,
  );
  const attributes = table(page, 'Attributes data');
  await expect(
    attributes.getByRole('row', { name: new RegExp(`\\b${attribute.metric_name}\\b`) }),
  ).toContainText('Chosen');
  await expect(page.getByText('Chosen', { exact: true })).toHaveCount(1);
  await expectAccessible(page, 'fragrance profile with a chosen metric');

  // A concept profile: performance data only, strength missing as N/A.
  const withConcepts = (await summaries(request, researcher)).map((row) => row.id);
  let concept: { studyId: number; code: string; name: string } | null = null;
  for (const id of withConcepts) {
    const found = await getJson<StudyDetailsResponse>(request, researcher, `/study/${id}`);
    const first = found.concepts[0];
    if (first?.concept_code) {
      concept = { studyId: id, code: first.concept_code, name: first.name };
      break;
    }
  }
  expect(concept, 'a study with concepts').not.toBeNull();
  const conceptProfile = await profileOf(
    request,
    researcher,
    `/study/${concept!.studyId}/concept/${encodeURIComponent(concept!.code)}`,
  );
  await page.goto(`/analytics/concept/${concept!.studyId}/${encodeURIComponent(concept!.code)}`);
  await expect(page.getByRole('heading', { level: 1, name: concept!.name })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Concept Details' })).toHaveAttribute(
    'href',
    `/study/${concept!.studyId}/`,
  );
  await expect(page.getByText('Project number / concept code')).toBeVisible();
  await expect(table(page, 'Performance data')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Attributes data' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);
  for (const row of conceptProfile.result.filter((entry) => entry.metric_type === 'Performance')) {
    if (row.mean === 'N/A') {
      const name = row.metric === 'strength' ? 'Strength' : 'Performance data';
      await expect(table(page, name).getByRole('row', { name: new RegExp(row.metric_name) })).toContainText(
        'N/A',
      );
    }
  }
  await expectAccessible(page, 'concept profile');
  await page.screenshot({ path: 'test-results/profile-concept-1280.png', fullPage: true });

  // Leave the mapping as the demo library has it.
  await remap(request, admin, study.id, {
    id: purchase!.id,
    metric: 'purchase_intention',
    metric_validated: purchase!.metric_validated,
  });
});

test('a client user reads a profile of their clients and not another client’s', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const client = await apiToken(request, DEMO_USERS.client);
  const ownRows = await summaries(request, client);
  const own = new Set(ownRows.map((row) => row.id));
  const other = (await summaries(request, admin)).find((row) => !own.has(row.id));
  expect(other).toBeDefined();
  const details = await getJson<StudyDetailsResponse>(request, admin, `/study/${other!.id}`);
  const code = details.perfume_characteristics[0]!.fragrance_code;
  let mine: StudyDetailsResponse | null = null;
  for (const row of ownRows) {
    const found = await getJson<StudyDetailsResponse>(request, client, `/study/${row.id}`);
    if (found.perfume_characteristics.length > 0) {
      mine = found;
      break;
    }
  }
  expect(mine, 'a study of the client user with fragrances').not.toBeNull();
  const fragrance = mine!.perfume_characteristics[0]!;

  await signIn(page, DEMO_USERS.client);
  // Their own client's profile: readable and filterable, without the download.
  await page.goto(`/analytics/profile/${mine!.id}/${encodeURIComponent(fragrance.fragrance_code)}`);
  await expect(page.getByRole('heading', { level: 1, name: fragrance.name })).toBeVisible();
  await expect(table(page, 'Performance data')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Demographic category' }).click();
  await expect(page.getByRole('option', { name: 'Brand Used Most Often' })).toHaveCount(0);
  await page.getByRole('option', { name: 'Gender', exact: true }).click();
  await page.getByRole('combobox', { name: 'Value' }).click();
  // The study's own genders are offered (some studies ask women or men only).
  await expect(page.getByRole('option', { name: /^(Female|Male)$/ }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  // Age asks for a range instead of a value; Filter without a value says what is missing.
  await page.getByRole('combobox', { name: 'Demographic category' }).click();
  await page.getByRole('option', { name: 'Age', exact: true }).click();
  await expect(page.getByRole('slider', { name: 'Youngest age' })).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Oldest age' })).toBeVisible();
  await expectAccessible(page, 'profile age filter');
  await page.getByRole('combobox', { name: 'Demographic category' }).click();
  await page.getByRole('option', { name: 'Ethnicity', exact: true }).click();
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Value' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Choose a value', { exact: true })).toBeVisible();
  await expect(page.getByText('Respondents shown: all respondents')).toBeVisible();

  await page.goto(`/analytics/profile/${other!.id}/${encodeURIComponent(code)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile not found' })).toBeVisible();
  await expect(page.getByText('This fragrance does not exist or is not available to you.')).toBeVisible();
  await expect(page.getByText(details.perfume_characteristics[0]!.name)).toHaveCount(0);
  await expectAccessible(page, 'profile not found');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile not found' })).toBeVisible();
  await closeNavigation(page);
  await page.screenshot({ path: 'test-results/profile-not-found-390.png', fullPage: true });
});

test('an EEG fragrance profile draws its scores by test date', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  let chosen: { path: string; url: string; profile: ProfileResponse } | null = null;
  for (const study of await summaries(request, admin)) {
    const details = await getJson<StudyDetailsResponse>(request, admin, `/study/${study.id}`);
    const first = details.perfume_characteristics[0];
    if (!first) continue;
    const path = `/study/${study.id}/fragrance/${encodeURIComponent(first.fragrance_code)}`;
    const profile = await profileOf(request, researcher, path);
    if (Object.keys(profile.time_series).length > 0) {
      chosen = {
        path,
        url: `/analytics/profile/${study.id}/${encodeURIComponent(first.fragrance_code)}`,
        profile,
      };
      break;
    }
  }
  expect(chosen, 'a demo EEG study with test dates').not.toBeNull();
  const { url, profile } = chosen!;
  const metrics = Object.keys(profile.time_series);
  expect(metrics).toContain('hfd_hedonic');
  // The EEG Energizing only: never the CATA attribute or implicit score named 'energizing'.
  expect(metrics).not.toContain('energizing');
  const days = Object.keys(profile.time_series.hfd_hedonic!);
  expect(days.length).toBeGreaterThanOrEqual(4);
  // Every EEG score is on the 0 to 1 scale the axis shows.
  for (const points of Object.values(profile.time_series)) {
    for (const value of Object.values(points)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
  }
  const EEG_NAMES: Record<string, string> = {
    hfd_hedonic: 'HFD Hedonic',
    addiction: 'Addiction',
    cogproc: 'Cognitive Processing',
    attention: 'Attention',
    relaxation: 'Relaxation',
    energizing_eeg: 'Energizing (EEG)',
  };
  const labelOf = (metric: string) => {
    const named = profile.result.find((row) => row.metric === metric)?.metric_name;
    return named && named !== metric ? named : EEG_NAMES[metric]!;
  };
  const labels = metrics.slice(0, 3).map(labelOf);

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(url);
  const section = page.getByRole('region', { name: 'Time series' });
  await section.scrollIntoViewIfNeeded();
  await expect(page.getByText('No time series data available.')).toHaveCount(0);
  const figure = page.getByRole('figure', {
    name: `Mean EEG score by test date: ${labels.join(', ')}`,
  });
  await expect(figure).toBeVisible();
  // One line per chosen metric, named as the metrics are (never by key), the test dates along the
  // x axis, the EEG scores on their 0 to 1 axis.
  await expect(figure.locator('svg')).toBeVisible();
  for (const label of labels) await expect(figure.getByText(label, { exact: true })).toBeVisible();
  await expect(figure.getByText('hfd_hedonic', { exact: true })).toHaveCount(0);
  await expect(figure.getByText('Test date', { exact: true })).toBeVisible();
  await expect(figure.getByText('Mean EEG score (0 to 1)', { exact: true })).toBeVisible();
  await expect(figure.getByText(days[0]!, { exact: true })).toBeVisible();
  await expectAccessible(page, 'profile time series');
  await page.setViewportSize({ width: 1440, height: 900 });
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: 'test-results/profile-time-series-1440.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await closeNavigation(page);
  await section.scrollIntoViewIfNeeded();
  await expect(figure).toBeVisible();
  await section.screenshot({ path: 'test-results/profile-time-series-390.png' });

  // Removing every metric leaves a hint instead of an empty frame.
  const select = page.getByRole('combobox', { name: 'Metrics' });
  await select.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
  await expect(page.getByText('Choose at least one metric to draw its time series.')).toBeVisible();
});
