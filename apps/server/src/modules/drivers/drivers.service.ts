/**
 * Drivers of liking in a category (METRICS.md section 5, docs/statistics.md "Drivers of liking").
 *
 * - The base is a norm's (norms repository and rule): the library's verified studies of a category,
 *   optionally narrowed, read whatever the caller's scope; staff see any base, client and sales users
 *   only a base of at least NORM_RULE.studies studies of NORM_RULE.clients clients (counted over the
 *   studies behind the figures), otherwise "withheld" with the reason. Another client's study is never
 *   named: it reads "Another client's study", without its id; no product is ever named.
 * - Attributes (metrics of type Attribute): per study, Pearson r of liking with the attribute over each
 *   product's respondents, averaged over the study's products on Fisher's z with weights n − 3, so a
 *   product that is liked more and smells fresher does not pass for "fresh drives liking"; the study's
 *   n is its respondents with both answers (not its answers: in a sequential monadic study a respondent
 *   answers for every product, and counting answers would overstate what the study knows). Studies are
 *   pooled with `metaCorrelation` (DerSimonian-Laird, Hartung-Knapp interval, prediction interval, I²).
 * - Strength (JAR) metrics: the penalty analysis pooled over the base's products: shares of too weak
 *   (1-2) and too strong (4-5) over every paired answer, and the mean drop in liking against the
 *   just-right group, weighted by the group's size per product (products with both groups).
 * - The computed drivers are kept per base and liking metric while the data is unchanged; only the
 *   labels of the studies depend on the caller.
 */
import {
  DRIVER_AGREEMENT_WORDS,
  DRIVERS_MESSAGES,
  agreementOf,
  isClientScopedRole,
  type DriverAttribute,
  type DriverStrength,
  type DriversResponse,
  type ParsedDriversQuery,
} from '@accord/contracts';
import { metaCorrelation } from '@accord/stats';
import { canSeeClient } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { createFingerprintCache } from '../analytics/analytics-cache.ts';
import type { MetricRecord } from '../analytics/analytics-types.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { describeBase } from '../norms/norm-shape.ts';
import type { NormsRepository } from '../norms/norms.repository.ts';
import { baseOf, meetsRule } from '../norms/norms.service.ts';
import type { DriversRepository, PairedSummary, StudyRow } from './drivers.repository.ts';

const DRIVERS_CACHE_ENTRIES = 200;

/** A study's figure before it is labelled for a caller. */
interface StudyFigure<T> {
  studyId: number;
  figure: T;
}

interface PenaltySide {
  share: number;
  drop: number | null;
  penalty: number | null;
}

interface ComputedDrivers {
  studies: StudyRow[];
  clients: number;
  respondents: number;
  years: { from: number; to: number } | null;
  attributes: (Omit<DriverAttribute, 'per_study'> & {
    per_study: StudyFigure<{ r: number; n: number; products: number }>[];
  })[];
  strength: (Omit<DriverStrength, 'per_study'> & {
    per_study: StudyFigure<{ n: number; too_weak: PenaltySide; too_strong: PenaltySide }>[];
  })[];
}

/** The study's correlation from its products': Fisher z averaged with weights n − 3. */
export function studyCorrelation(products: readonly { r: number | null; n: number }[]): number | null {
  let weighted = 0;
  let weights = 0;
  for (const product of products) {
    if (product.r === null || !(Math.abs(product.r) < 1) || product.n <= 3) continue;
    weighted += (product.n - 3) * Math.atanh(product.r);
    weights += product.n - 3;
  }
  return weights > 0 ? Math.tanh(weighted / weights) : null;
}

/** Penalty analysis pooled over products: shares over all answers, drops weighted by group size. */
export function pooledPenalty(products: readonly PairedSummary[]): {
  n: number;
  justRight: number;
  tooWeak: PenaltySide;
  tooStrong: PenaltySide;
} {
  let n = 0;
  let right = 0;
  const sides = {
    weak: { count: 0, weighted: 0, weights: 0 },
    strong: { count: 0, weighted: 0, weights: 0 },
  };
  for (const product of products) {
    n += product.weak + product.right + product.strong;
    right += product.right;
    for (const side of ['weak', 'strong'] as const) {
      const size = product[side];
      const liking = side === 'weak' ? product.weakLiking : product.strongLiking;
      sides[side].count += size;
      if (size > 0 && product.right > 0 && liking !== null && product.rightLiking !== null) {
        sides[side].weighted += size * (product.rightLiking - liking);
        sides[side].weights += size;
      }
    }
  }
  const sideOf = (side: 'weak' | 'strong'): PenaltySide => {
    const share = n > 0 ? sides[side].count / n : 0;
    const drop = sides[side].weights > 0 ? sides[side].weighted / sides[side].weights : null;
    return { share, drop, penalty: drop === null ? null : share * drop };
  };
  return { n, justRight: n > 0 ? right / n : 0, tooWeak: sideOf('weak'), tooStrong: sideOf('strong') };
}

const METHOD = [
  "Per study: Pearson r of liking with the attribute over each product's respondents, averaged over the study's products on Fisher's z (weights n − 3); the study counts its respondents with both answers.",
  "Across studies: Fisher's z pooled by DerSimonian-Laird random effects; the interval is Hartung-Knapp's (t with k − 1 df), the prediction interval Higgins' (t with k − 2 df, from 3 studies), back on the r scale.",
  'Strength: the share of answers too weak (1-2) and too strong (4-5), and the mean drop in liking against just right (3), weighted by the group sizes of each product.',
  "Answers are harmonised to the 5-point scale; a respondent's answers to several questions of one metric for one product are averaged.",
];

export function createDriversService(deps: {
  norms: NormsRepository;
  analytics: AnalyticsService;
  drivers: DriversRepository;
}) {
  const cache = createFingerprintCache<ComputedDrivers>(DRIVERS_CACHE_ENTRIES);
  /** The answers as JSON text per base and audience (staff, or a client user's set of clients). */
  const texts = createFingerprintCache<string>(DRIVERS_CACHE_ENTRIES);

  async function likingOf(name: string): Promise<MetricRecord> {
    const metric = (await deps.analytics.metricCatalogue()).find((entry) => entry.name === name);
    if (!metric || metric.kind !== 'hedonic' || metric.metricType !== 'Performance') {
      const message = DRIVERS_MESSAGES.notLiking(name);
      throw errors.badRequest(message, [{ path: 'liking', message }]);
    }
    return metric;
  }

  async function compute(query: ParsedDriversQuery, liking: MetricRecord): Promise<ComputedDrivers> {
    const catalogue = await deps.analytics.metricCatalogue();
    const attributes = catalogue.filter((metric) => metric.metricType === 'Attribute');
    const strength = catalogue.filter((metric) => metric.kind === 'jar');
    const found = await deps.norms.baseProducts(baseOf(query));
    const summaries = await deps.drivers.pairedSummaries(found.ids, liking.id, [
      ...attributes.map((metric) => metric.id),
      ...strength.map((metric) => metric.id),
    ]);
    const byMetric = new Map<number, PairedSummary[]>();
    for (const row of summaries) {
      const list = byMetric.get(row.metricId);
      if (list) list.push(row);
      else byMetric.set(row.metricId, [row]);
    }
    const behind = new Set<number>();
    const respondentsOfStudy = new Map<number, number>();

    const attributeResults: ComputedDrivers['attributes'] = [];
    for (const metric of attributes) {
      const rows = byMetric.get(metric.id) ?? [];
      const perStudy: ComputedDrivers['attributes'][number]['per_study'] = [];
      const studyIds = [...new Set(rows.map((row) => row.studyId))];
      for (const studyId of studyIds) {
        const products = rows.filter((row) => row.studyId === studyId && row.productId !== null);
        const total = rows.find((row) => row.studyId === studyId && row.productId === null);
        const r = studyCorrelation(products);
        const n = total?.n ?? 0;
        if (r === null || !(Math.abs(r) < 1) || n <= 3) continue;
        perStudy.push({ studyId, figure: { r, n, products: products.length } });
      }
      const pooled = metaCorrelation(perStudy.map((entry) => entry.figure));
      if (pooled.k === 0) continue;
      for (const entry of perStudy) {
        behind.add(entry.studyId);
        respondentsOfStudy.set(
          entry.studyId,
          Math.max(respondentsOfStudy.get(entry.studyId) ?? 0, entry.figure.n),
        );
      }
      const finite = (value: number) => (Number.isFinite(value) ? value : null);
      const agreement = agreementOf(pooled.k > 1 ? pooled.i2 : null);
      perStudy.sort((a, b) => b.figure.r - a.figure.r);
      attributeResults.push({
        metric: { name: metric.name, label: metric.label, kind: metric.kind },
        r: pooled.r,
        ci_low: finite(pooled.ciLow),
        ci_high: finite(pooled.ciHigh),
        pi_low: finite(pooled.piLow),
        pi_high: finite(pooled.piHigh),
        i2: pooled.i2,
        tau2: pooled.tau2,
        q: pooled.q,
        agreement:
          agreement === null ? 'One study: no agreement to judge' : DRIVER_AGREEMENT_WORDS[agreement],
        studies: pooled.k,
        respondents: pooled.respondents,
        per_study: perStudy,
      });
    }
    attributeResults.sort((a, b) => b.r - a.r);

    const strengthResults: ComputedDrivers['strength'] = [];
    for (const metric of strength) {
      const products = (byMetric.get(metric.id) ?? []).filter((row) => row.productId !== null);
      const pooled = pooledPenalty(products);
      if (pooled.n === 0) continue;
      const perStudy: ComputedDrivers['strength'][number]['per_study'] = [];
      for (const studyId of [...new Set(products.map((row) => row.studyId))]) {
        const own = pooledPenalty(products.filter((row) => row.studyId === studyId));
        behind.add(studyId);
        perStudy.push({
          studyId,
          figure: { n: own.n, too_weak: own.tooWeak, too_strong: own.tooStrong },
        });
      }
      strengthResults.push({
        metric: { name: metric.name, label: metric.label, kind: metric.kind },
        respondents: pooled.n,
        studies: perStudy.length,
        just_right: pooled.justRight,
        too_weak: pooled.tooWeak,
        too_strong: pooled.tooStrong,
        per_study: perStudy,
      });
    }

    const studyRows = await deps.drivers.studies([...behind]);
    let from = Infinity;
    let to = -Infinity;
    found.studyIds.forEach((studyId, index) => {
      if (!behind.has(studyId)) return;
      from = Math.min(from, found.years[index]!);
      to = Math.max(to, found.years[index]!);
    });
    return {
      studies: studyRows,
      clients: new Set(studyRows.map((row) => row.client)).size,
      respondents: [...respondentsOfStudy.values()].reduce((sum, n) => sum + n, 0),
      years: behind.size > 0 ? { from, to } : null,
      attributes: attributeResults,
      strength: strengthResults,
    };
  }

  /** The drivers as a caller may read them. */
  function present(
    user: AuthUser,
    query: ParsedDriversQuery,
    liking: MetricRecord,
    computed: ComputedDrivers,
  ): DriversResponse {
    const scoped = isClientScopedRole(user.roleId);
    const base = baseOf(query);
    const chosenYears = { from: base.yearFrom, to: base.yearTo };
    const baseAnswer = (description: string): DriversResponse['base'] => ({
      category: base.category,
      region: base.region,
      product_type: base.productType,
      methodology: base.methodology,
      year_from: base.yearFrom,
      year_to: base.yearTo,
      kind: base.kind,
      description,
    });
    const head = { liking: { name: liking.name, label: liking.label }, method: METHOD };
    const nothing = { attributes: [], strength: [] };
    const counts = {
      studies: computed.studies.length,
      clients: computed.clients,
      respondents: computed.respondents,
    };
    if (computed.studies.length === 0) {
      return {
        status: 'empty',
        reason: DRIVERS_MESSAGES.empty,
        base: baseAnswer(describeBase(base, chosenYears, null)),
        ...head,
        studies: 0,
        clients: 0,
        respondents: 0,
        ...nothing,
      };
    }
    if (scoped && !meetsRule(counts)) {
      return {
        status: 'withheld',
        reason: DRIVERS_MESSAGES.withheld,
        base: baseAnswer(describeBase(base, chosenYears, null)),
        ...head,
        studies: null,
        clients: null,
        respondents: null,
        ...nothing,
      };
    }
    const years = { from: base.yearFrom ?? computed.years!.from, to: base.yearTo ?? computed.years!.to };
    const named = new Map(computed.studies.map((row) => [row.id, row]));
    const label = (studyId: number) => {
      const row = named.get(studyId)!;
      return canSeeClient(user, row.client)
        ? { id: row.id, label: row.projectName }
        : { id: null, label: DRIVERS_MESSAGES.otherClient };
    };
    const description = `${describeBase(base, years, null)}: ${counts.respondents.toLocaleString('en-GB')} respondents in ${counts.studies} ${counts.studies === 1 ? 'study' : 'studies'}`;
    return {
      status: 'available',
      reason: meetsRule(counts) ? null : DRIVERS_MESSAGES.staffOnly,
      base: baseAnswer(description),
      ...head,
      ...counts,
      attributes: computed.attributes.map((attribute) => ({
        ...attribute,
        per_study: attribute.per_study.map((entry) => ({ study: label(entry.studyId), ...entry.figure })),
      })),
      strength: computed.strength.map((entry) => ({
        ...entry,
        per_study: entry.per_study.map((study) => ({ study: label(study.studyId), ...study.figure })),
      })),
    };
  }

  async function answer(user: AuthUser, query: ParsedDriversQuery): Promise<DriversResponse> {
    const liking = await likingOf(query.liking);
    const fingerprint = await deps.norms.fingerprint();
    const computed = await cache.get(JSON.stringify([baseOf(query), liking.name]), fingerprint, () =>
      compute(query, liking),
    );
    return present(user, query, liking, computed);
  }

  return {
    /** Drivers of liking for any signed-in user (client and sales: bases that meet the norms rule). */
    drivers: answer,

    /**
     * The same answer as JSON text, kept per base and audience while the data is unchanged: a large
     * base lists hundreds of studies per attribute, and writing them once spares every later reader.
     */
    async driversText(user: AuthUser, query: ParsedDriversQuery): Promise<string> {
      await likingOf(query.liking);
      const fingerprint = await deps.norms.fingerprint();
      const audience = isClientScopedRole(user.roleId)
        ? `clients:${[...user.clients].sort().join('|')}`
        : 'staff';
      return texts.get(JSON.stringify([baseOf(query), query.liking, audience]), fingerprint, async () =>
        JSON.stringify(await answer(user, query)),
      );
    },
  };
}

export type DriversService = ReturnType<typeof createDriversService>;
