/**
 * The fragrance page as slides: the page's own answer (every test of the fragrance in the caller's
 * studies, the pooled estimates, the scores by market) as native bar charts, one per score the tests
 * table shows, and the liking by market; the pooled estimate and its interval in words on the
 * slides of means. Roles as the other downloads (users who may download); a client sees only the
 * tests of their clients' studies, as on the page.
 */
import {
  ErrorResponse,
  FRAGRANCE_DECK_FILE_NAME,
  FragranceParams,
  FragranceQuery,
  LOW_BASE,
  type FragranceResponse,
  type FragranceTestScore,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { currentUser, requirePermission } from '../../plugins/auth.ts';
import type { Requester } from '../analytics/analytics-exports.ts';
import { createAnalyticsRepository } from '../analytics/analytics.repository.ts';
import { createFragranceRepository } from '../fragrance/fragrance.repository.ts';
import { createFragranceService } from '../fragrance/fragrance.service.ts';
import { screenValue } from './analytics-decks.ts';
import { sendDeck } from './decks.routes.ts';
import type { DeckBar, DeckChart, DeckLine, DeckSpec } from './deck-writer.ts';

type Metric = 'liking' | 'purchase_intention' | 'strength';

/** The scores of the tests table, as it heads them. */
const SCORES: { metric: Metric; key: 'mean' | 'top_2_box' | 'just_right'; title: string }[] = [
  { metric: 'liking', key: 'mean', title: 'Liking (mean)' },
  { metric: 'liking', key: 'top_2_box', title: 'Liking (T2B)' },
  { metric: 'purchase_intention', key: 'mean', title: 'Purchase intention (mean)' },
  { metric: 'purchase_intention', key: 'top_2_box', title: 'Purchase intention (T2B)' },
  { metric: 'strength', key: 'just_right', title: 'Strength (just right)' },
];

const mean = (value: number | null) => (value === null ? '-' : value.toFixed(2));

/**
 * The pooled estimate of a metric in words, as the page's card says it: the Hartung-Knapp-Sidik-
 * Jonkman 95 % interval and, from 3 studies, the prediction interval for a new test.
 */
export function pooledInWords(pooled: FragranceResponse['pooled'][number]): string {
  if (pooled.estimate === null)
    return `${pooled.label}: not pooled (${pooled.k} verified ${pooled.k === 1 ? 'study' : 'studies'}; pooling needs 2)`;
  const i2 = pooled.i2 === null ? '' : `, I² ${Math.round(pooled.i2 * 100)}%`;
  const prediction =
    pooled.pi_low === null || pooled.pi_high === null
      ? 'prediction interval for a new test: needs 3 studies'
      : `prediction interval for a new test ${mean(pooled.pi_low)} to ${mean(pooled.pi_high)}`;
  return `${pooled.label}: ${mean(pooled.estimate)} (95% interval ${mean(pooled.hk_ci_low)} to ${mean(pooled.hk_ci_high)}, Hartung-Knapp; ${prediction}), ${pooled.k} studies${i2}`;
}

/** Which tests are pooled, in words, with the caution of a widened pool. */
export function poolInWords(data: FragranceResponse): DeckLine[] {
  const group = data.pooling_group;
  const which =
    group === null
      ? 'no verified test'
      : data.pool === 'all'
        ? data.pool_label
        : data.pool === 'category'
          ? `${data.pool_label}: ${group.category ?? 'No category'}`
          : `${data.pool_label}: ${group.category ?? 'No category'} · ${group.methodology ?? 'No methodology'}`;
  return [
    { label: 'Pooled tests', value: `${which}; verified studies only; strength is not pooled` },
    ...(data.pool_caution ? [{ label: 'Caution', value: data.pool_caution }] : []),
  ];
}

function bar(
  label: string,
  score: FragranceTestScore | undefined,
  key: (typeof SCORES)[number]['key'],
): DeckBar {
  const unit = key === 'mean' ? 'mean' : 'percent';
  const n = score?.n ?? 0;
  return {
    label,
    value: screenValue(unit, score?.[key] ?? null),
    n,
    lowBase: n > 0 && n < LOW_BASE,
    mark: null,
  };
}

/** fragrance_tests.pptx: the fragrance's tests and markets as the page shows them. */
export function fragranceDeck(data: FragranceResponse, who: Requester): DeckSpec {
  const studies = new Set(data.tests.map((test) => test.study_id)).size;
  const markets = new Set(data.tests.map((test) => test.market).filter(Boolean)).size;
  const scope: DeckLine = {
    label: 'Tests',
    value: `${data.tests.length} ${data.tests.length === 1 ? 'test' : 'tests'} of 6 Digit Code (SAP) ${data.code} in the studies you may see, latest first; no respondent filter`,
  };
  const pooledOf = (metric: Metric) => data.pooled.find((entry) => entry.metric === metric);
  const charts: DeckChart[] = SCORES.map(({ metric, key, title }) => {
    const pooled = pooledOf(metric);
    return {
      title: `${title} in each test`,
      unit: key === 'mean' ? 'mean' : 'percent',
      lines: [
        scope,
        ...(key === 'mean' && pooled
          ? [{ label: 'Pooled across studies', value: pooledInWords(pooled) }, ...poolInWords(data)]
          : []),
      ],
      bars: data.tests.map((test) =>
        bar(
          `${test.c_mi_number} (${[test.market, test.year, test.pooled ? null : 'not verified'].filter(Boolean).join(', ')})`,
          test.scores[metric],
          key,
        ),
      ),
      notes: [
        'Means on the harmonised 1 to 5 scale; pooled: DerSimonian-Laird random effects over the pooled verified studies, Hartung-Knapp-Sidik-Jonkman 95% interval, prediction interval from 3 studies.',
      ],
    };
  });
  charts.push({
    title: 'Liking (mean) by market',
    unit: 'mean',
    lines: [scope, { label: 'Bars', value: 'the answers of the verified tests in each market, summed' }],
    bars: data.by_market.map((group) =>
      bar(
        `${group.key} (${group.tests} ${group.tests === 1 ? 'test' : 'tests'})`,
        group.scores.liking,
        'mean',
      ),
    ),
  });
  return {
    title: `${data.name} (6 Digit Code (SAP) ${data.code})`,
    subtitle: `Across ${data.tests.length} ${data.tests.length === 1 ? 'test' : 'tests'} in ${studies} ${studies === 1 ? 'study' : 'studies'} and ${markets} ${markets === 1 ? 'market' : 'markets'}`,
    author: who.author,
    date: who.date,
    lines: [
      scope,
      { label: 'Family / subfamily', value: `${data.family ?? '-'} / ${data.subfamily ?? '-'}` },
      ...poolInWords(data),
      ...data.pooled.map((pooled) => ({ label: 'Pooled', value: pooledInWords(pooled) })),
    ],
    charts,
  };
}

/** GET /fragrance/{code}/pptx. */
export const fragranceDeckRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const fragrances = createFragranceService({
    fragrances: createFragranceRepository(db),
    analytics: createAnalyticsRepository(db),
  });
  app.get(
    '/fragrance/:code/pptx',
    {
      preHandler: requirePermission('allowDownload'),
      schema: {
        tags: ['profiles'],
        summary: `The fragrance page as ${FRAGRANCE_DECK_FILE_NAME} (users who may download): per score of the tests table a native bar chart of each test in the studies you may see, the pooled estimates in words (under the page's query: the category and methodology, and the pool widened or not, with its caution), and the liking by market`,
        params: FragranceParams,
        querystring: FragranceQuery,
        response: { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const data = await fragrances.acrossTests(user, request.params.code, request.query);
      return sendDeck(
        reply,
        FRAGRANCE_DECK_FILE_NAME,
        fragranceDeck(data, { author: user.email, date: new Date() }),
      );
    },
  );
};
