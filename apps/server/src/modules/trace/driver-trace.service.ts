/**
 * "How was this computed?" for a driver of liking: the pooled correlation of one attribute recomputed
 * from the answers it is made of, beside the figure the drivers answer shows.
 *
 * - The answer on screen is the drivers service's (cached per base and data version); the trace reads
 *   the base's paired answers afresh (each respondent's liking and attribute answer per product) and
 *   recomputes, per product, Pearson r over its respondents; per study, those r averaged on Fisher's z
 *   with weights n − 3 (`studyCorrelation`, as the drivers do), with the study's respondents who gave
 *   both answers; across studies, the DerSimonian-Laird pool of `metaCorrelation`. The two figures are
 *   shown side by side with whether they are equal. The recomputation is kept per base, liking and
 *   attribute while the data's change counters are unchanged, as the drivers are: at 3,000 studies a
 *   category's base holds about 600,000 paired answers, some seconds to read.
 * - Scoping is the drivers': client and sales users trace only a base that meets the norms rule (403
 *   otherwise); another client's study reads "Another client's study" with no id, its products
 *   "Product 1", "Product 2"... in order, never their codes. The answers download (users with the
 *   download right) holds the studies the caller may see; the others are counted, not listed.
 */
import {
  DRIVER_ANSWERS_CSV_COLUMNS,
  DRIVERS_MESSAGES,
  TRACE_MESSAGES,
  type DriverTraceResponse,
  type ParsedDriverTraceQuery,
  type ParsedDriversQuery,
} from '@accord/contracts';
import { metaCorrelation, pearson, type MetaCorrelationResult } from '@accord/stats';
import { canSeeClient } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { createFingerprintCache } from '../analytics/analytics-cache.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { studyCorrelation, type DriversService } from '../drivers/drivers.service.ts';
import type { NormsRepository } from '../norms/norms.repository.ts';
import { baseOf } from '../norms/norms.service.ts';
import type {
  DriverTraceRepository,
  PairedAnswer,
  TracedProduct,
  TracedStudy,
} from './driver-trace.repository.ts';
import { csvLine } from './trace-words.ts';

const TRACE_CACHE_ENTRIES = 200;
/** The recomputed r must equal the shown one this closely (both are double sums of the same answers). */
const EQUAL_WITHIN = 1e-9;

/** A study's recomputed figure: its products' r and n, the study's r and respondents. */
interface StudyRecomputed {
  studyId: number;
  r: number;
  respondents: number;
  products: { productId: number; r: number | null; n: number }[];
}

/** Per study of the pairs, the drivers' figure recomputed (studies the drivers leave out are left out). */
export function recomputeStudies(pairs: readonly PairedAnswer[]): StudyRecomputed[] {
  const byStudy = new Map<number, Map<number, PairedAnswer[]>>();
  for (const pair of pairs) {
    const study = byStudy.get(pair.studyId) ?? new Map<number, PairedAnswer[]>();
    byStudy.set(pair.studyId, study);
    const list = study.get(pair.productId);
    if (list) list.push(pair);
    else study.set(pair.productId, [pair]);
  }
  const found: StudyRecomputed[] = [];
  for (const [studyId, byProduct] of byStudy) {
    const productFigures = [...byProduct].map(([productId, list]) => {
      const r = pearson(
        list.map((pair) => pair.liking),
        list.map((pair) => pair.attribute),
      ).r;
      return { productId, r: Number.isFinite(r) ? r : null, n: list.length };
    });
    const r = studyCorrelation(productFigures);
    const respondents = new Set([...byProduct.values()].flat().map((pair) => pair.respondentId)).size;
    if (r === null || !(Math.abs(r) < 1) || respondents <= 3) continue;
    found.push({ studyId, r, respondents, products: productFigures });
  }
  return found.sort((a, b) => b.r - a.r);
}

export function createDriverTraceService(deps: {
  drivers: DriversService;
  norms: NormsRepository;
  analytics: AnalyticsService;
  repository: DriverTraceRepository;
}) {
  /** The recomputation per base, liking and attribute, kept while the data is unchanged (as the drivers). */
  const cache = createFingerprintCache<{
    perStudy: StudyRecomputed[];
    pooled: MetaCorrelationResult;
    studyRows: TracedStudy[];
    productRows: TracedProduct[];
  }>(TRACE_CACHE_ENTRIES);

  /** The drivers answer of the base and the traced attribute in it: 403 withheld, 404 empty, 400. */
  async function shownAttribute(user: AuthUser, query: ParsedDriverTraceQuery) {
    const { attribute: name, ...rest } = query;
    const driversQuery: ParsedDriversQuery = rest;
    const answer = await deps.drivers.drivers(user, driversQuery);
    if (answer.status === 'withheld') throw errors.forbidden(DRIVERS_MESSAGES.withheld);
    if (answer.status === 'empty') throw errors.notFound(answer.reason ?? undefined);
    const attribute = answer.attributes.find((entry) => entry.metric.name === name);
    if (!attribute) {
      const message = DRIVERS_MESSAGES.notAttribute(name);
      throw errors.badRequest(message, [{ path: 'attribute', message }]);
    }
    const catalogue = await deps.analytics.metricCatalogue();
    const ids = {
      liking: catalogue.find((metric) => metric.name === answer.liking.name)!.id,
      attribute: catalogue.find((metric) => metric.name === name)!.id,
    };
    const base = await deps.norms.baseProducts(baseOf(query));
    return { answer, attribute, ids, base };
  }

  return {
    async trace(user: AuthUser, query: ParsedDriverTraceQuery): Promise<DriverTraceResponse> {
      const { answer, attribute, ids, base } = await shownAttribute(user, query);
      const fingerprint = await deps.norms.fingerprint();
      const key = JSON.stringify([baseOf(query), answer.liking.name, attribute.metric.name]);
      const { perStudy, pooled, studyRows, productRows } = await cache.get(key, fingerprint, async () => {
        const studies = recomputeStudies(await deps.repository.pairs(base.ids, ids.liking, ids.attribute));
        const [studyList, productList] = await Promise.all([
          deps.repository.studies(studies.map((study) => study.studyId)),
          deps.repository.products(studies.flatMap((study) => study.products.map((p) => p.productId))),
        ]);
        return {
          perStudy: studies,
          pooled: metaCorrelation(studies.map((study) => ({ r: study.r, n: study.respondents }))),
          studyRows: studyList,
          productRows: productList,
        };
      });
      const studyOf = new Map(studyRows.map((row) => [row.id, row]));
      const codeOf = new Map(productRows.map((row) => [row.id, row.code]));
      const finite = (value: number) => (Number.isFinite(value) ? value : null);
      const hidden = perStudy.some((study) => !canSeeClient(user, studyOf.get(study.studyId)!.client));
      return {
        base: answer.base,
        liking: answer.liking,
        attribute: attribute.metric,
        shown: {
          r: attribute.r,
          ci_low: attribute.ci_low,
          ci_high: attribute.ci_high,
          studies: attribute.studies,
          respondents: attribute.respondents,
        },
        recomputed: {
          r: pooled.r,
          ci_low: finite(pooled.ciLow),
          ci_high: finite(pooled.ciHigh),
          pi_low: finite(pooled.piLow),
          pi_high: finite(pooled.piHigh),
          i2: pooled.i2,
          studies: pooled.k,
          respondents: pooled.respondents,
          products: perStudy.reduce((total, study) => total + study.products.length, 0),
          pairs: perStudy.reduce(
            (total, study) => total + study.products.reduce((sum, product) => sum + product.n, 0),
            0,
          ),
        },
        equal: Math.abs(pooled.r - attribute.r) <= EQUAL_WITHIN,
        studies: perStudy.map((study) => {
          const row = studyOf.get(study.studyId)!;
          const visible = canSeeClient(user, row.client);
          return {
            study: visible
              ? { id: row.id, label: row.projectName }
              : { id: null, label: DRIVERS_MESSAGES.otherClient },
            r: study.r,
            respondents: study.respondents,
            products: study.products.map((product, index) => ({
              label: visible ? codeOf.get(product.productId)! : `Product ${index + 1}`,
              r: product.r,
              n: product.n,
            })),
          };
        }),
        method: answer.method,
        can_download: user.permissions.allowDownload,
        download_note: hidden ? DRIVERS_MESSAGES.otherClientAnswers : null,
      };
    },

    /**
     * The paired answers behind the figure as csv lines (header first), one study at a time: the
     * studies the caller may see (users with the download right only: 403).
     */
    async answersCsv(user: AuthUser, query: ParsedDriverTraceQuery): Promise<AsyncIterable<string>> {
      if (!user.permissions.allowDownload) throw errors.forbidden(TRACE_MESSAGES.downloadNotAllowed);
      const { ids, base } = await shownAttribute(user, query);
      const byStudy = new Map<number, number[]>();
      base.ids.forEach((productId, index) => {
        if (!canSeeClient(user, base.clients[base.clientIndex[index]!]!)) return;
        const studyId = base.studyIds[index]!;
        byStudy.set(studyId, [...(byStudy.get(studyId) ?? []), productId]);
      });
      const repository = deps.repository;
      return (async function* lines() {
        yield csvLine(DRIVER_ANSWERS_CSV_COLUMNS);
        for (const studyProducts of byStudy.values()) {
          const rows = await repository.labelledPairs(studyProducts, ids.liking, ids.attribute);
          if (rows.length === 0) continue;
          yield rows
            .map((row) =>
              csvLine([row.cMiNumber, row.respondentCode, row.productCode, row.liking, row.attribute]),
            )
            .join('');
        }
      })();
    },
  };
}

export type DriverTraceService = ReturnType<typeof createDriverTraceService>;
