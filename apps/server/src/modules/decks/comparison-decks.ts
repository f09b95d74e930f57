/**
 * "Download slides" of the Category Profile and Group Comparison screens, each from the very answers
 * the screen shows: the fragrance families counted under the profile's filters (the screen's own
 * tendencies call) and the chosen family's finished top fragrances job; the finished group
 * comparison job's differences table, both groups' values with their two bases (fragrances and
 * respondents) and group 1's mark where it differs significantly. Users who may download, as the
 * other decks; a job is only ever its owner's, and every answer is scoped to the caller's studies.
 */
import {
  ANALYTICS_MESSAGES,
  CATEGORY_PROFILE_DECK_FILE_NAME,
  CategoryProfileDeckRequest,
  ErrorResponse,
  GROUP_COMPARISON_DECK_FILE_NAME,
  JobIdParam,
  LOW_BASE,
  TendenciesRequest,
  WIZARD_MESSAGES,
  filtersInWords,
  markIsGood,
  type GroupComparisonResult,
  type GroupDifference,
  type ParsedMetricSearchRequest,
  type TendenciesResponse,
  type TopFamilyFragrance,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { currentUser, requirePermission } from '../../plugins/auth.ts';
import { FILTERS_NOT_KEPT, type Requester } from '../analytics/analytics-exports.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import type { ComparisonsService } from '../comparisons/comparisons.service.ts';
import { HIGHER, LOWER, levelPercent } from '../exports/significance-marks.ts';
import { screenValue, tendencyChart, unitOf } from './analytics-decks.ts';
import { sendDeck } from './decks.routes.ts';
import type { DeckBar, DeckChart, DeckLine, DeckSpec } from './deck-writer.ts';

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** The groupby of the category profile's families chart (as the screen asks for it). */
const FAMILY_GROUPBY = 'perfume_characteristics.family';

export interface CategoryProfileDeckInput {
  essentials: CategoryProfileDeckRequest['essentials'];
  families: TendenciesResponse;
  /** The chosen family's top fragrances, best first, when one was chosen. */
  top: { family: string; fragrances: TopFamilyFragrance[] } | null;
  who: Requester;
}

/** category_profile.pptx: the families chart, then the chosen family's top fragrances. */
export function categoryProfileDeck(input: CategoryProfileDeckInput): DeckSpec {
  const { families, top, who } = input;
  // The families count fragrances of studies: respondent filters do not apply to them.
  const filters: DeckLine = {
    label: 'Filters',
    value: filtersInWords({ essentials: input.essentials ?? {} }, false),
  };
  const counted: DeckLine = { label: 'Fragrances counted', value: String(families.total) };
  const charts: DeckChart[] = [tendencyChart(families, WIZARD_MESSAGES.familyChartTitle, [filters, counted])];
  const family: DeckLine[] = top
    ? [
        { label: 'Family', value: top.family },
        {
          label: 'Ranking',
          value: `the ${plural(top.fragrances.length, 'best fragrance', 'best fragrances')} of the family by top 2 box liking, best first`,
        },
      ]
    : [];
  if (top)
    charts.push({
      title: WIZARD_MESSAGES.topFamily(top.family),
      unit: 'percent',
      lines: [filters, ...family],
      bars: top.fragrances.map((row, index) => ({
        label: `${index + 1}. ${row.name ?? row.prod} (${row.c_mi_number})`,
        value: screenValue('percent', row.top_2_box),
        n: row.n,
        lowBase: row.n < LOW_BASE,
        mark: null,
      })),
      notes: ['Top 2 box liking: the share of the fragrance’s respondents who rated it 4 or 5 of 5.'],
    });
  return {
    title: 'Category profile',
    subtitle: top
      ? `Fragrance families and the top ${top.family} fragrances`
      : `Fragrance families of ${plural(families.total, 'fragrance', 'fragrances')}`,
    author: who.author,
    date: who.date,
    lines: [filters, counted, ...family],
    charts,
  };
}

/** How the screen names an aggregation of a compared metric. */
function aggregationText(metric: string, aggregation: string): string {
  if (aggregation === 'just_right') return metric === 'strength' ? 'Just right' : 'Neutral';
  return (
    ({ mean: 'Mean', top_2_box: 'Top 2 box', bottom_2_box: 'Bottom 2 box' } as Record<string, string>)[
      aggregation
    ] ?? aggregation
  );
}

/** Group 1's mark of a difference: ▲ or ▼ with its level, green for good news and red for bad. */
function groupMark(row: GroupDifference): DeckBar['mark'] {
  if (row.level === null || row.table === null) return null;
  return {
    text: `${row.table === 'mt' ? HIGHER : LOWER} ${levelPercent(row.level)}%`,
    tone: markIsGood(row.metric, row.aggregation, row.table) ? 'good' : 'bad',
  };
}

/** A group's filters in words, from the request its metric search kept. */
function groupFilters(request: ParsedMetricSearchRequest | null): string {
  if (!request) return FILTERS_NOT_KEPT;
  const words = filtersInWords(request.q);
  const chosen = request.fragrances?.length;
  return chosen ? `${words}; ${plural(chosen, 'chosen fragrance', 'chosen fragrances')}` : words;
}

export const GROUP_TEST_WORDS =
  'the fragrance is the unit: each fragrance scores its mean or box share over its respondents, and group 1’s scores are compared with group 2’s by a Welch t-test (n = fragrances), two-sided, at 99, 95 and 90%; a group’s value is the mean of its fragrances’ scores';

/** group_comparison.pptx: the differences table as charts, means on one slide, each metric's boxes on its own. */
export function groupComparisonDeck(
  result: Pick<GroupComparisonResult, 'bases' | 'differences'>,
  requests: [ParsedMetricSearchRequest | null, ParsedMetricSearchRequest | null] | null,
  who: Requester,
): DeckSpec {
  const { bases, differences } = result;
  const groups: DeckLine[] = [
    { label: 'Group 1', value: groupFilters(requests?.[0] ?? null) },
    { label: 'Group 2', value: groupFilters(requests?.[1] ?? null) },
  ];
  const basesLine: DeckLine = {
    label: 'Bases',
    value: `group 1 ${plural(bases.group1.products, 'fragrance', 'fragrances')} and ${plural(bases.group1.respondents, 'respondent', 'respondents')}; group 2 ${plural(bases.group2.products, 'fragrance', 'fragrances')} and ${plural(bases.group2.respondents, 'respondent', 'respondents')}`,
  };
  const test: DeckLine = { label: 'Test', value: GROUP_TEST_WORDS };
  const bars = (row: GroupDifference, name: string): DeckBar[] =>
    ([1, 2] as const).map((group) => {
      const products = group === 1 ? row.n1 : row.n2;
      const respondents = group === 1 ? row.respondents1 : row.respondents2;
      return {
        label: `${name}, group ${group} (${plural(products, 'fragrance', 'fragrances')}, ${plural(respondents, 'respondent', 'respondents')})`,
        value: screenValue(unitOf(row.aggregation), group === 1 ? row.group1 : row.group2),
        n: null,
        lowBase: false,
        mark: group === 1 ? groupMark(row) : null,
      };
    });
  const untested = (rows: GroupDifference[]) =>
    rows
      .filter((row) => row.p_value === null)
      .map((row) => `${row.label} ${aggregationText(row.metric, row.aggregation)}`);
  const chartNotes = (rows: GroupDifference[]) => {
    const none = untested(rows);
    return [
      'In each bar’s name: the fragrances scored (the test’s n) and the respondents behind them; the mark is on group 1’s bar.',
      ...(none.length > 0 ? [`Not testable (too few fragrances with a score): ${none.join(', ')}.`] : []),
    ];
  };
  const lines = [...groups, test];
  const means = differences.filter((row) => row.aggregation === 'mean');
  const charts: DeckChart[] = [];
  if (means.length > 0)
    charts.push({
      title: 'Means, group 1 against group 2',
      unit: 'mean',
      lines,
      bars: means.flatMap((row) => bars(row, row.label)),
      notes: chartNotes(means),
    });
  const metrics = [...new Set(differences.map((row) => row.metric))];
  for (const metric of metrics) {
    const boxes = differences.filter((row) => row.metric === metric && row.aggregation !== 'mean');
    if (boxes.length === 0) continue;
    charts.push({
      title: `${boxes[0]!.label}, group 1 against group 2 (mean share of the fragrances, %)`,
      unit: 'percent',
      lines,
      bars: boxes.flatMap((row) => bars(row, aggregationText(row.metric, row.aggregation))),
      notes: chartNotes(boxes),
    });
  }
  const significant = differences.filter((row) => row.level !== null).length;
  return {
    title: 'Group comparison: group 1 against group 2',
    subtitle: `${plural(significant, 'significant difference', 'significant differences')} of ${differences.length} compared`,
    author: who.author,
    date: who.date,
    lines: [...groups, basesLine, test],
    charts,
  };
}

export const comparisonDeckRoutes: FastifyPluginAsyncZod<{
  analytics: AnalyticsService;
  comparisons: ComparisonsService;
}> = async (app, { analytics, comparisons }) => {
  const tags = ['comparisons'];
  const guard = requirePermission('allowDownload');
  const refusals = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  app.post(
    '/category-profile/pptx',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `The category profile (users who may download) as ${CATEGORY_PROFILE_DECK_FILE_NAME}: a title slide with the filters in words, a native bar chart of the fragrance families in percent of the fragrances counted (of the studies you may see, as POST /analytics/tendencies answers the screen), and with top= a finished top fragrances job of yours, its fragrances by top 2 box liking, best first, each with its base n, low bases marked (404 until that job has succeeded)`,
        body: CategoryProfileDeckRequest,
        response: refusals,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      let top: CategoryProfileDeckInput['top'] = null;
      if (request.body.top) {
        const status = await comparisons.topFamilyStatus(user, request.body.top);
        if (status.status !== 'SUCCESS' || !status.result)
          throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
        top = status.result.json;
      }
      const essentials = request.body.essentials;
      // The screen's own call: POST /analytics/tendencies of the families under these filters.
      const families = await analytics.tendencies(
        user,
        TendenciesRequest.parse({
          q: { essentials },
          data: { return: 'percentage', groupby: FAMILY_GROUPBY },
        }),
      );
      return sendDeck(
        reply,
        CATEGORY_PROFILE_DECK_FILE_NAME,
        categoryProfileDeck({ essentials, families, top, who: { author: user.email, date: new Date() } }),
      );
    },
  );

  app.get(
    '/group-comparison/pptx/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A finished group comparison (yours; users who may download) as ${GROUP_COMPARISON_DECK_FILE_NAME}: a title slide with both groups' filters, bases and the test in words, then native bar charts of the differences table (the means, then each metric's boxes), both groups' values as the table writes them, each bar with its fragrances and respondents and group 1's bar with its mark where the groups differ significantly (404 until it has succeeded)`,
        params: JobIdParam,
        response: refusals,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const status = await comparisons.groupComparisonStatus(user, request.params.jobId);
      if (status.status !== 'SUCCESS' || !status.result) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      const requests = await comparisons.groupComparisonRequests(user, request.params.jobId);
      return sendDeck(
        reply,
        GROUP_COMPARISON_DECK_FILE_NAME,
        groupComparisonDeck(status.result.json, requests, { author: user.email, date: new Date() }),
      );
    },
  );
};
