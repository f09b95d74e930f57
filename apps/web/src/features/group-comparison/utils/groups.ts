import {
  ANALYTICS_AGE_RANGE,
  APAC_SUBREGIONS,
  type ComparisonGroup,
  type GroupDifference,
  type MetricResultRow,
} from '@accord/contracts';

/** The step 1 filters of one group. */
export interface GroupFilters {
  businessUnit: string[];
  category: string[];
  product: string[];
  client: string[];
  region: string[];
  fragranceName: string;
  year: [number, number] | null;
}

/** The respondent filters of one group on the results page. */
export interface GroupDemographics {
  ethnicity: string[];
  gender: string[];
  age: [number, number];
}

export const EMPTY_GROUP: GroupFilters = {
  businessUnit: [],
  category: [],
  product: [],
  client: [],
  region: [],
  fragranceName: '',
  year: null,
};

export const ALL_RESPONDENTS: GroupDemographics = {
  ethnicity: [],
  gender: [],
  age: [ANALYTICS_AGE_RANGE.min, ANALYTICS_AGE_RANGE.max],
};

/** The request body of one group: its filters, respondent filters and, once chosen, its products. */
export function groupRequest(
  filters: GroupFilters,
  demographics: GroupDemographics,
  products: number[] | null,
): ComparisonGroup {
  const list = (values: string[]) => (values.length > 0 ? values : undefined);
  const fullAges =
    demographics.age[0] <= ANALYTICS_AGE_RANGE.min && demographics.age[1] >= ANALYTICS_AGE_RANGE.max;
  return {
    essentials: {
      businessUnit: list(filters.businessUnit),
      category: list(filters.category),
      product: list(filters.product),
      client: list(filters.client),
      region: list(filters.region),
      startYear: filters.year?.[0],
      endYear: filters.year?.[1],
    },
    fragranceDetails: { fragranceName: filters.fragranceName.trim() || undefined },
    demographics: {
      ethnicity: list(demographics.ethnicity),
      gender: list(demographics.gender),
      startAge: fullAges ? undefined : demographics.age[0],
      endAge: fullAges ? undefined : demographics.age[1],
    },
    ...(products ? { products: products.map((id) => ({ id })) } : {}),
  };
}

/** The filter tags of a group: one per chosen value ('Region: Europe', 'Year: 2019-2023'). */
export function filterTags(filters: GroupFilters, demographics: GroupDemographics): string[] {
  const tags: string[] = [];
  const add = (label: string, values: string[]) => values.forEach((value) => tags.push(`${label}: ${value}`));
  add('Business unit', filters.businessUnit);
  add('Category', filters.category);
  add('Product', filters.product);
  add('Client', filters.client);
  add(
    'Region',
    filters.region.includes('APAC')
      ? filters.region.filter((region) => !APAC_SUBREGIONS.includes(region))
      : filters.region,
  );
  if (filters.fragranceName.trim()) tags.push(`Fragrance name: ${filters.fragranceName.trim()}`);
  if (filters.year) tags.push(`Year: ${filters.year[0]}-${filters.year[1]}`);
  add('Ethnicity', demographics.ethnicity);
  add('Gender', demographics.gender);
  if (demographics.age[0] > ANALYTICS_AGE_RANGE.min || demographics.age[1] < ANALYTICS_AGE_RANGE.max)
    tags.push(`Age: ${demographics.age[0]}-${demographics.age[1]}`);
  return tags;
}

/** The studies of the listed fragrances, in order of first appearance, with their fragrance ids. */
export function studiesOf(rows: MetricResultRow[]): { studyId: number; cmi: string; productIds: number[] }[] {
  const studies = new Map<number, { studyId: number; cmi: string; productIds: number[] }>();
  for (const row of rows) {
    const study = studies.get(row.study_id) ?? {
      studyId: row.study_id,
      cmi: row.c_mi_number,
      productIds: [],
    };
    study.productIds.push(row.id);
    studies.set(row.study_id, study);
  }
  return [...studies.values()];
}

const LEVEL_TEXT: Record<string, string> = { '0.01': '99 %', '0.05': '95 %', '0.1': '90 %' };

/** How a difference reads: 'Group 1 higher (95 %)', 'Group 1 lower (99 %)' or 'Not significant'. */
export function differenceText(difference: GroupDifference): string {
  if (difference.level === null || difference.table === null) {
    return difference.p_value === null ? 'Not testable' : 'Not significant';
  }
  const level = LEVEL_TEXT[String(difference.level)] ?? String(difference.level);
  return `Group 1 ${difference.table === 'mt' ? 'higher' : 'lower'} (${level})`;
}

/** A mean with 2 decimals, a box as a rounded percent; '-' without a value. */
export function formatValue(aggregation: string, value: number | null): string {
  if (value === null) return '-';
  return aggregation === 'mean' ? value.toFixed(2) : `${Math.round(value * 100)} %`;
}
