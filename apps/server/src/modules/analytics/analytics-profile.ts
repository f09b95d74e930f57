/**
 * Fragrance and concept profiles (document 2 "Fragrance and concept profile pages"): the product's
 * aggregates per metric over the respondents meeting the demographic conditions, with N/A rows for
 * the required metrics it lacks, and the spreadsheet fragrance_profile.xlsx.
 */
import {
  ANALYTICS_AGE_RANGE,
  PROFILE_FILTERS,
  PROFILE_REQUIRED_METRICS,
  PROFILE_TIME_SERIES_METRICS,
  type DemographicCondition,
  type ProfileDemographicOptions,
  type ProfileResponse,
  type ProfileRow,
} from '@accord/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { answers, concepts, fragrances, products, respondents, studies } from '../../db/schema.ts';
import { studyByIdScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FieldsRepository } from '../fields/fields.repository.ts';
import { mergeOptions } from '../fields/fields.presenter.ts';
import { s } from '../search/search-filters.ts';
import { aggregate } from './analytics-metrics.ts';
import {
  respondentConditions,
  type AnalyticsRepository,
  type MetricRecord,
  type RespondentConditions,
} from './analytics.repository.ts';

const TYPE_ORDER: Record<string, number> = { Performance: 0, Attribute: 1, EEG: 2, Implicit: 3 };
const PERFORMANCE_ORDER: Record<string, number> = { liking: 0, purchase_intention: 1, strength: 2 };

interface ProductInfo {
  productId: number;
  kind: 'fragrance' | 'concept';
  info: ProfileResponse['info'];
}

export function createProfileService(deps: {
  db: Db;
  analytics: AnalyticsRepository;
  fields: FieldsRepository;
}) {
  const { db, analytics, fields } = deps;

  async function findProduct(
    user: AuthUser,
    studyId: number,
    kind: 'fragrance' | 'concept',
    code: string,
  ): Promise<ProductInfo> {
    const result = (await db.execute(sql`select p.id, s.project_name, s.client, s.c_mi_number, s.category,
        s.product_type, p.code as prod, coalesce(f.name, c.name) as name, f.code as sap_code, f.ref_number,
        c.concept_code
      from ${products} p join ${studies} s on s.id = p.study_id
      left join ${fragrances} f on f.id = p.fragrance_id
      left join ${concepts} c on c.id = p.concept_id
      where p.study_id = ${studyId} and p.kind = ${kind} and p.code = ${code}
        and ${studyByIdScope(user, s)}`)) as unknown as {
      rows: {
        id: number;
        project_name: string;
        client: string;
        c_mi_number: string;
        category: string | null;
        product_type: string | null;
        prod: string;
        name: string | null;
        sap_code: string | null;
        ref_number: string | null;
        concept_code: string | null;
      }[];
    };
    const row = result.rows[0];
    if (!row) throw errors.notFound();
    return {
      productId: Number(row.id),
      kind,
      info: {
        product_id: Number(row.id),
        project_name: row.project_name,
        client: row.client,
        name: row.name,
        code: row.sap_code,
        c_mi_number: row.c_mi_number,
        prod: row.prod,
        ref_number: row.ref_number,
        concept_code: row.concept_code,
        category: row.category,
        product: row.product_type,
      },
    };
  }

  /**
   * The product's time series: per recognised EEG metric, the mean score of the answers of the
   * respondents tested on each day (those meeting the demographic conditions), days in order.
   */
  async function timeSeries(
    productId: number,
    catalogue: readonly MetricRecord[],
    conditions: RespondentConditions,
  ): Promise<ProfileResponse['time_series']> {
    // The EEG metrics only: a CATA attribute or an implicit score may share a name with one
    // ('energizing'), and the EEG metric may carry the suffix that tells them apart ('energizing_eeg').
    const metrics = catalogue.filter(
      (metric) =>
        metric.kind === 'eeg' &&
        PROFILE_TIME_SERIES_METRICS.some((name) => name === metric.name || `${name}_eeg` === metric.name),
    );
    if (metrics.length === 0) return {};
    const found = (await db.execute(sql`select a.metric_id, to_char(r.test_date, 'YYYY-MM-DD') as day,
        avg(a.value)::float8 as mean
      from ${answers} a join ${respondents} r on r.id = a.respondent_id
      where a.product_id = ${productId}
        and a.metric_id in (${sql.join(
          metrics.map((metric) => sql`${metric.id}`),
          sql`, `,
        )})
        and r.test_date is not null${conditions.length > 0 ? sql` and ${sql.join(conditions, sql` and `)}` : sql``}
      group by a.metric_id, r.test_date
      order by r.test_date`)) as unknown as { rows: { metric_id: number; day: string; mean: number }[] };
    const series: ProfileResponse['time_series'] = {};
    for (const metric of metrics) {
      const points = found.rows.filter((row) => Number(row.metric_id) === metric.id);
      if (points.length > 0)
        series[metric.name] = Object.fromEntries(points.map((row) => [row.day, Number(row.mean)]));
    }
    return series;
  }

  function placeholder(metric: MetricRecord | undefined, name: string): ProfileRow {
    return {
      metric: name,
      metric_name: metric?.label ?? name,
      metric_type: metric?.metricType ?? 'Performance',
      mean: 'N/A',
      top_box: 'N/A',
      top_2_box: 'N/A',
      just_right: 'N/A',
      bottom_box: 'N/A',
      bottom_2_box: 'N/A',
      selected: null,
      is_binary_scale: false,
      n: 0,
    };
  }

  return {
    /**
     * The profile filter's values for a study you may see (404 otherwise): those its own respondents
     * have, with their counts, and their age range.
     */
    async demographicOptions(user: AuthUser, studyId: number): Promise<ProfileDemographicOptions> {
      const scope = sql`${studyByIdScope(user, s)} and ${s.id} = ${studyId}`;
      const visible = (await db.execute(sql`select 1 from ${studies} s where ${scope}`)) as unknown as {
        rows: unknown[];
      };
      if (visible.rows.length === 0) throw errors.notFound();
      const [definitions, counts, ranges] = await Promise.all([
        fields.definitions(),
        analytics.demographicCounts(scope),
        analytics.ageAndYearRange(scope),
      ]);
      const demographics = definitions
        .filter(
          (def) => def.fieldGroup === 'demographics' && PROFILE_FILTERS.some((name) => name === def.field),
        )
        .map((def) => ({
          field: def.field,
          label: def.label,
          type: def.type,
          multivalue: def.multivalue,
          editable: def.editable,
          tag_group: def.tagGroup,
          options: mergeOptions(def, counts.get(def.field)).filter((option) => option.count > 0),
        }));
      return {
        demographics,
        age: {
          min: Math.max(ANALYTICS_AGE_RANGE.min, ranges.minAge ?? ANALYTICS_AGE_RANGE.min),
          max: Math.min(ANALYTICS_AGE_RANGE.max, ranges.maxAge ?? ANALYTICS_AGE_RANGE.max),
        },
      };
    },

    /** The profile of a fragrance or concept of a study you may see (404 otherwise). */
    async profile(
      user: AuthUser,
      studyId: number,
      kind: 'fragrance' | 'concept',
      code: string,
      demographics: DemographicCondition[],
    ): Promise<ProfileResponse> {
      const product = await findProduct(user, studyId, kind, code);
      const catalogue = await analytics.metrics();
      const conditions = respondentConditions({}, demographics);
      const sums = await analytics.answerSums(
        [product.productId],
        catalogue.map((metric) => metric.id),
        catalogue.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id),
        conditions,
      );
      const rows: ProfileRow[] = [];
      for (const metric of catalogue) {
        const found = sums.find((row) => row.metricId === metric.id && row.n > 0);
        if (!found) continue;
        // A yes/no (CATA) row is its share selected alone: no mean, no boxes (METRICS.md section 3).
        const binary = metric.kind === 'binary';
        const boxes = metric.kind !== 'eeg' && !binary;
        const value = (key: 'top_box' | 'top_2_box' | 'just_right' | 'bottom_box' | 'bottom_2_box') =>
          boxes ? aggregate(found, key, metric.kind) : null;
        rows.push({
          metric: metric.name,
          metric_name: metric.label,
          metric_type: metric.metricType,
          mean: binary ? null : aggregate(found, 'mean', metric.kind),
          top_box: value('top_box'),
          top_2_box: value('top_2_box'),
          just_right: value('just_right'),
          bottom_box: value('bottom_box'),
          bottom_2_box: value('bottom_2_box'),
          selected: binary ? aggregate(found, 'top_box', metric.kind) : null,
          is_binary_scale: binary,
          n: found.n,
        });
      }
      if (rows.length > 0) {
        for (const name of PROFILE_REQUIRED_METRICS) {
          if (!rows.some((row) => row.metric === name))
            rows.push(
              placeholder(
                catalogue.find((metric) => metric.name === name),
                name,
              ),
            );
        }
      }
      const rank = (row: ProfileRow) =>
        (TYPE_ORDER[row.metric_type] ?? 9) * 1000 +
        (row.metric_type === 'Performance' ? (PERFORMANCE_ORDER[row.metric] ?? 9) : 10) * 100 +
        (catalogue.findIndex((metric) => metric.name === row.metric) % 100);
      rows.sort((left, right) => rank(left) - rank(right));
      return {
        result: rows,
        info: product.info,
        filters: [...PROFILE_FILTERS],
        time_series: await timeSeries(product.productId, catalogue, conditions),
      };
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
