/**
 * The norms screen as slides: the very norm the screen shows (GET /norms) as two native bar charts,
 * its mean, percentiles and action standards, and its distribution (products per score band), with
 * the base, its counts and the privacy rule in words on every slide. Every signed-in user, as the
 * screen and its workbook; a withheld norm answers 403 as its workbook does, a norm without a score
 * 404.
 */
import {
  ErrorResponse,
  NORM_DECK_FILE_NAME,
  NORM_MESSAGES,
  NORM_RULE,
  NormQuery,
  type NormResponse,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import type { Requester } from '../analytics/analytics-exports.ts';
import type { NormsService } from '../norms/norms.service.ts';
import { sendDeck } from './decks.routes.ts';
import type { DeckLine, DeckSpec, DeckUnit } from './deck-writer.ts';

/** How the norm's scores read, as the screen writes them: shares in % (1 decimal), means, variances. */
export function normUnit(norm: Pick<NormResponse, 'aggregation'>): DeckUnit {
  if (norm.aggregation.share) return 'percent1';
  return norm.aggregation.value === 'variance' ? 'decimal3' : 'mean';
}

/** A score as the screen writes it, as a number: a share in % to 1 decimal, a mean to 2, a variance to 3. */
export function normScore(norm: Pick<NormResponse, 'aggregation'>, value: number): number {
  const unit = normUnit(norm);
  if (unit === 'percent1') return Math.round(value * 1000) / 10;
  if (unit === 'decimal3') return Math.round(value * 1000) / 1000;
  return Math.round(value * 100) / 100;
}

/**
 * A line's name short enough for a chart's axis: "Action standard: top quartile (P75)" reads
 * "P75 (top quartile)", the footnote saying which are the action standards.
 */
export function chartLineName(label: string): string {
  return label.replace(/^Action standard: (.+) \((P\d+)\)$/, '$2 ($1)');
}

function scoreText(norm: NormResponse, value: number): string {
  const unit = normUnit(norm);
  const shown = normScore(norm, value);
  return unit === 'percent1' ? `${shown.toFixed(1)}%` : shown.toFixed(unit === 'decimal3' ? 3 : 2);
}

/** norm.pptx: a shown norm (status "available"). */
export function normDeck(norm: NormResponse, who: Requester): DeckSpec {
  const unit = normUnit(norm);
  const measure = `${norm.metric.label}, ${norm.aggregation.label}`;
  const products = norm.base.kind === 'concept' ? 'concepts' : 'fragrances';
  const counts = `${norm.products ?? '-'} ${products} with a score, ${norm.studies ?? '-'} studies, ${norm.clients ?? '-'} clients`;
  const lines: DeckLine[] = [
    { label: 'Base', value: norm.base.description },
    { label: 'Metric', value: measure },
    { label: 'Counts', value: counts },
  ];
  const privacy: DeckLine = {
    label: 'Privacy',
    value: `an anonymous aggregate of the library, shown when its base holds at least ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients`,
  };
  const bands = norm.histogram.map((bin, index) => ({
    label: `${scoreText(norm, bin.from)} to ${index === norm.histogram.length - 1 ? '' : 'under '}${scoreText(norm, bin.to)}`,
    value: bin.count,
    n: null,
    lowBase: false,
    mark: null,
  }));
  return {
    title: `Norm: ${measure}`,
    subtitle: norm.base.description,
    author: who.author,
    date: who.date,
    lines: [
      ...lines,
      {
        label: 'Scores',
        value: `one per ${norm.base.kind}, as the metric search computes it; percentiles by linear interpolation`,
      },
      privacy,
    ],
    charts: [
      {
        title: `${measure}: mean, percentiles and action standards`,
        unit,
        lines,
        bars: [
          ...(norm.mean === null ? [] : [{ label: 'Mean', value: normScore(norm, norm.mean) }]),
          ...norm.lines.map((line) => ({
            label: chartLineName(line.label),
            value: normScore(norm, line.value),
          })),
        ].map((bar) => ({ ...bar, n: null, lowBase: false, mark: null })),
        notes: [
          `Base n: ${counts}; each ${norm.base.kind} counts once, with its score as the metric search computes it.`,
          `Action standards: ${
            norm.lines
              .filter((line) => line.action_standard)
              .map((line) => chartLineName(line.label))
              .join(' and ') || 'none'
          }, the score a product must reach to be in the top quartile or the top decile of the base.`,
        ],
      },
      {
        title: `${measure}: distribution (${products} per score band)`,
        unit: 'count',
        lines,
        bars: bands,
        notes: [
          `${products.charAt(0).toUpperCase()}${products.slice(1)} without a score on the metric are not in the base.`,
        ],
      },
    ],
  };
}

export const normDeckRoutes: FastifyPluginAsyncZod<{ norms: NormsService }> = async (app, { norms }) => {
  app.get(
    '/norms/pptx',
    {
      preHandler: requireUser,
      schema: {
        tags: ['norms'],
        summary: `A norm as ${NORM_DECK_FILE_NAME}: a title slide with the base in words, a native bar chart of its mean, percentiles and action standards and one of its distribution, the base and its counts on every slide. A withheld norm answers 403 with the reason; a norm without any score 404.`,
        querystring: NormQuery,
        response: { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const norm = await norms.norm(user, request.query);
      if (norm.status === 'withheld') throw errors.forbidden(NORM_MESSAGES.withheld);
      if (norm.status === 'empty') throw errors.notFound(norm.reason ?? undefined);
      return sendDeck(reply, NORM_DECK_FILE_NAME, normDeck(norm, { author: user.email, date: new Date() }));
    },
  );
};
