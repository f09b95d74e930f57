/**
 * The study planner: consumers needed for a planned test, from the library's own answers.
 *
 * - The base, its description, its counts and the privacy rule are the norm's (norms service): a base
 *   below the rule (NORM_RULE) is too small for a trustworthy estimate and gets no plan, said so.
 * - From the base's products the planner estimates, for the metric and aggregation: the standard
 *   deviation of one answer pooled within products (from each product's variance and n, as the metric
 *   search computes them), the share of the box over every answer, and from the base's complete-block
 *   studies the correlation of a respondent's answers to two products (every pair of products of every
 *   such study, Pearson r averaged on Fisher's z with weights n − 3).
 * - Means: monadic is the two-sample t test (statsmodels' TTestIndPower, n per product), sequential
 *   monadic the paired t test (TTestPower, n respondents rating every product) with effect
 *   d / (sd·√(2(1 − ρ))). Shares: the two-sample normal test on Cohen's h (NormalIndPower) for both
 *   designs: pairing's gain is not counted for shares, which errs on the safe side.
 * - Bonferroni divides alpha by the number of pairs of products. The action standard plan tests one
 *   product against the base's P75 by the same difference (one-sample tests), Bonferroni over products.
 * - Answers are kept per query while the data's change counters are unchanged.
 */
import {
  AGGREGATION_NAMES,
  PLAN_DESIGN_NAMES,
  PLANNER_MESSAGES,
  type ParsedPlanQuery,
  type PlanAnswer,
  type PlanEstimates,
  type PlanResponse,
} from '@accord/contracts';
import {
  detectableEffectH,
  detectableEffectT,
  powerOneSampleT,
  powerOneShare,
  powerProportions,
  powerT,
  shareAtEffect,
  type PowerResult,
} from '@accord/stats';
import type { AuthUser } from '../../plugins/auth.ts';
import { createFingerprintCache } from '../analytics/analytics-cache.ts';
import { isShare } from '../analytics/analytics-metrics.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import type { NormsRepository } from '../norms/norms.repository.ts';
import { baseOf, type NormsService } from '../norms/norms.service.ts';
import type { PlannerRepository } from './planner.repository.ts';

const PLAN_CACHE_ENTRIES = 300;
/** Points of the power curve. */
const CURVE_POINTS = 24;

/** The base's numbers a plan is computed from. */
export async function baseEstimates(
  deps: { norms: NormsRepository; analytics: AnalyticsService; planner: PlannerRepository },
  query: ParsedPlanQuery,
  metric: { id: number; name: string; kind: string },
): Promise<PlanEstimates> {
  const found = await deps.norms.baseProducts(baseOf(query));
  const ids = found.ids;
  const share = isShare(query.aggregation);
  let answers = 0;
  let mean: number | null = null;
  let sd: number | null = null;
  let shareValue: number | null = null;
  if (share) {
    const scores = await deps.analytics.productScores(ids, metric.name, query.aggregation);
    let hits = 0;
    scores.values.forEach((value, index) => {
      if (!Number.isFinite(value)) return;
      const n = scores.bases[index]!;
      answers += n;
      hits += Math.round(value * n);
    });
    shareValue = answers > 0 ? hits / answers : null;
  } else {
    const [means, variances] = await Promise.all([
      deps.analytics.productScores(ids, metric.name, 'mean'),
      deps.analytics.productScores(ids, metric.name, 'variance'),
    ]);
    let total = 0;
    let squares = 0;
    let freedom = 0;
    means.values.forEach((value, index) => {
      if (!Number.isFinite(value)) return;
      const n = means.bases[index]!;
      answers += n;
      total += value * n;
      const variance = variances.values[index]!;
      if (Number.isFinite(variance) && n > 1) {
        squares += (n - 1) * variance;
        freedom += n - 1;
      }
    });
    mean = answers > 0 ? total / answers : null;
    sd = freedom > 0 && squares > 0 ? Math.sqrt(squares / freedom) : null;
  }
  const pairs = await deps.planner.pairCorrelations(ids, metric.id, metric.kind === 'eeg');
  let weighted = 0;
  let weights = 0;
  const studies = new Set<number>();
  const respondentsPerStudy = new Map<number, number>();
  let used = 0;
  for (const pair of pairs) {
    if (pair.r === null || !(Math.abs(pair.r) < 1) || pair.n <= 3) continue;
    weighted += (pair.n - 3) * Math.atanh(pair.r);
    weights += pair.n - 3;
    used += 1;
    studies.add(pair.studyId);
    respondentsPerStudy.set(pair.studyId, Math.max(respondentsPerStudy.get(pair.studyId) ?? 0, pair.n));
  }
  return {
    answers,
    mean,
    sd,
    share: shareValue,
    correlation: weights > 0 ? Math.tanh(weighted / weights) : null,
    correlation_studies: studies.size,
    correlation_respondents: [...respondentsPerStudy.values()].reduce((sum, n) => sum + n, 0),
    correlation_pairs: used,
  };
}

/** 0.05 as "0.05", 0.0083333 as "0.0083". */
const alphaText = (alpha: number) => String(Number(alpha.toPrecision(2)));
const percent = (share: number) => `${Math.round(share * 100)} %`;
const count = (n: number) => n.toLocaleString('en-GB');

/** A round step for a curve's x axis: 1, 2 or 5 times a power of ten. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const scaled = rough / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

export function createPlannerService(deps: {
  normsService: NormsService;
  norms: NormsRepository;
  analytics: AnalyticsService;
  planner: PlannerRepository;
}) {
  const cache = createFingerprintCache<PlanResponse>(PLAN_CACHE_ENTRIES);

  async function compute(user: AuthUser, query: ParsedPlanQuery): Promise<PlanResponse> {
    const norm = await deps.normsService.norm(user, {
      category: query.category,
      region: query.region,
      product_type: query.product_type,
      methodology: query.methodology,
      year_from: query.year_from,
      year_to: query.year_to,
      kind: query.kind,
      metric: query.metric,
      aggregation: query.aggregation,
    });
    const share = norm.aggregation.share;
    const head = {
      base: norm.base,
      metric: norm.metric,
      aggregation: norm.aggregation,
      design: query.design,
      products: query.products,
      difference: query.difference,
      alpha: query.alpha,
      power: query.power,
      correction: query.correction,
      base_products: norm.products,
      base_studies: norm.studies,
      base_clients: norm.clients,
    };
    const nothing = { estimates: null, plan: null, plan_reason: null, action_standard: null, curve: [] };
    if (norm.status === 'empty')
      return { status: 'empty', reason: PLANNER_MESSAGES.noAnswers, ...head, ...nothing, notes: [] };
    if (norm.status === 'withheld')
      return { status: 'withheld', reason: PLANNER_MESSAGES.tooSmall, ...head, ...nothing, notes: [] };

    const metric = (await deps.analytics.metricCatalogue()).find((entry) => entry.name === query.metric)!;
    const estimates = await baseEstimates(deps, query, metric);
    const k = query.products;
    const pairs = (k * (k - 1)) / 2;
    const bonferroni = query.correction === 'bonferroni';
    const alphaPair = bonferroni ? query.alpha / pairs : query.alpha;
    const alphaStandard = bonferroni ? query.alpha / k : query.alpha;
    const sequential = query.design === 'sequential_monadic';
    const unit = share
      ? `${query.difference} points of ${norm.aggregation.label}`
      : `${query.difference} on the 5-point mean`;
    const levels = (alpha: number, family: number, what: string) =>
      `with ${percent(query.power)} power at alpha ${alphaText(alpha)}${
        bonferroni && family > 1
          ? ` per ${what} (${alphaText(query.alpha)} shared by Bonferroni across ${family} ${what}s)`
          : ''
      }, two-sided`;
    const notes: string[] = [];
    if (share)
      notes.push(
        `The share of the base: ${percent(estimates.share ?? 0)} ${norm.aggregation.label} over ${count(estimates.answers)} answers; the plan compares it with a share ${query.difference} points higher (Cohen's h, normal test).`,
      );
    else if (estimates.sd !== null)
      notes.push(
        `Standard deviation of one answer ${estimates.sd.toFixed(2)}: pooled within the base's products over ${count(estimates.answers)} answers.`,
      );
    if (estimates.correlation !== null)
      notes.push(
        `Correlation of a consumer's answers to two products ${estimates.correlation.toFixed(2)}: from ${estimates.correlation_pairs} product pairs of ${estimates.correlation_studies} complete-block studies (${count(estimates.correlation_respondents)} consumers).`,
      );
    if (share && sequential)
      notes.push(
        'Shares: the sequential monadic plan uses the test of two independent shares, which counts no gain from pairing and so errs on the safe side.',
      );

    /** A plan's words and sizes from a solved sample size. */
    const answerOf = (
      result: PowerResult,
      test: string,
      comparisons: number,
      alpha: number,
      what: string,
      goal: string,
    ): PlanAnswer => {
      const perProduct = sequential ? null : result.nRequired;
      const total = sequential ? result.nRequired : result.nRequired * k;
      const words = sequential
        ? `${count(total)} consumers in all, each rating all ${k} products, ${goal} ${levels(alpha, comparisons, what)}.`
        : `Each of the ${k} products needs ${count(result.nRequired)} consumers (${count(total)} in all) ${goal} ${levels(alpha, comparisons, what)}.`;
      return {
        test,
        effect_size: result.effectSize,
        comparisons,
        alpha_per_comparison: alpha,
        n: result.n,
        per_product: perProduct,
        total,
        words,
      };
    };

    let plan: PlanAnswer | null = null;
    let planReason: string | null = null;
    let curve: PlanResponse['curve'] = [];
    const goal = `to detect a difference of ${unit} between two products`;
    if (share && estimates.share! + query.difference / 100 >= 1) {
      planReason = PLANNER_MESSAGES.beyondScale;
    } else if (share) {
      const p0 = estimates.share!;
      const p1 = p0 + query.difference / 100;
      const result = powerProportions({ p1, p2: p0, alpha: alphaPair, power: query.power });
      plan = answerOf(
        result,
        "Two-sample test of shares (normal, Cohen's h)",
        pairs,
        alphaPair,
        'pair',
        goal,
      );
    } else if (estimates.sd === null) {
      planReason = PLANNER_MESSAGES.noAnswers;
    } else if (sequential && estimates.correlation === null) {
      planReason = PLANNER_MESSAGES.noCorrelation;
    } else {
      const result = powerT({
        design: sequential ? 'paired' : 'independent',
        difference: query.difference,
        sd: estimates.sd,
        correlation: sequential ? estimates.correlation : null,
        alpha: alphaPair,
        power: query.power,
      });
      plan = answerOf(
        result,
        sequential ? 'Paired t test (every consumer rates both products)' : 'Two-sample t test',
        pairs,
        alphaPair,
        'pair',
        goal,
      );
    }

    if (plan) {
      // Detectable difference against consumers (per product monadic, in all sequential monadic).
      const top = Math.max(100, Math.ceil(plan.n * 2.5));
      const step = niceStep(top / CURVE_POINTS);
      for (let n = step; n <= top + step / 2; n += step) {
        if (n < 4) continue;
        let difference: number;
        if (share) {
          const p0 = estimates.share!;
          difference = (shareAtEffect(p0, detectableEffectH(n, alphaPair, query.power)) - p0) * 100;
        } else {
          const effect = detectableEffectT(sequential ? 'paired' : 'independent', n, alphaPair, query.power);
          const scale = sequential
            ? estimates.sd! * Math.sqrt(2 * (1 - estimates.correlation!))
            : estimates.sd!;
          difference = effect * scale;
        }
        if (Number.isFinite(difference)) curve.push({ consumers: n, difference });
      }
    } else {
      curve = [];
    }

    let actionStandard: PlanResponse['action_standard'] = null;
    const p75 = norm.percentiles?.p75;
    const beyond =
      p75 !== undefined && (share ? p75 + query.difference / 100 >= 1 : p75 + query.difference > 5);
    if (plan && p75 !== undefined && beyond)
      notes.push(
        `The base's P75 plus the difference passes the top of the scale: no plan against the action standard.`,
      );
    if (plan && p75 !== undefined && !beyond) {
      const label = share
        ? `P75 of the base: ${(p75 * 100).toFixed(1)} % ${norm.aggregation.label}`
        : `P75 of the base: ${p75.toFixed(2)}`;
      const result = share
        ? powerOneShare({
            p0: p75,
            p1: Math.min(1, p75 + query.difference / 100),
            alpha: alphaStandard,
            power: query.power,
          })
        : powerOneSampleT({
            difference: query.difference,
            sd: estimates.sd!,
            alpha: alphaStandard,
            power: query.power,
          });
      if (Number.isFinite(result.n)) {
        actionStandard = {
          p75,
          label,
          plan: answerOf(
            result,
            share
              ? "One-sample test of a share against the P75 (normal, Cohen's h)"
              : 'One-sample t test against the P75',
            k,
            alphaStandard,
            'product',
            `to show a fragrance beats the category's top quartile (${label.replace('P75 of the base: ', 'P75 ')}) by ${unit}`,
          ),
        };
      }
    }

    return {
      status: 'available',
      reason: null,
      ...head,
      estimates,
      plan,
      plan_reason: planReason,
      action_standard: actionStandard,
      curve,
      notes: [
        `Design: ${PLAN_DESIGN_NAMES[query.design]}; ${AGGREGATION_NAMES[query.aggregation]} of ${norm.metric.label}.`,
        ...notes,
      ],
    };
  }

  return {
    /** A plan for a researcher or an admin (the route checks the role). */
    async plan(user: AuthUser, query: ParsedPlanQuery): Promise<PlanResponse> {
      const fingerprint = await deps.norms.fingerprint();
      return cache.get(JSON.stringify(query), fingerprint, () => compute(user, query));
    },
  };
}

export type PlannerService = ReturnType<typeof createPlannerService>;
