/**
 * A search's filters in words, the same on screen and in the files it exports: "Region: Europe;
 * Category: Fabric Care; Gender: Female; Age: 25 to 44", or "No filters". Study filters read as the
 * filter screens label them; respondent filters as the analytics panel and the results filter label
 * them. Pure, so the server's headers and the web's summaries cannot disagree.
 */
import type { AnalyticsDemographicsFilter, DemographicCondition, RdfType } from './analytics.ts';

/** What a search without any filter says. */
export const NO_FILTERS = 'No filters';

/** The filter screen's label of each study filter key (groups share keys such as region). */
const STUDY_FILTER_LABELS: Record<string, string> = {
  projectName: 'Project name',
  paceNumber: 'CX/Pace #',
  cmiNumber: 'CMI #',
  client: 'Client',
  businessUnit: 'Business unit',
  category: 'Category',
  product: 'Product',
  region: 'Region',
  country: 'Country',
  fragranceName: 'Fragrance name',
  perfumerName: 'Perfumer',
  sapNumber: '6 Digit Code (SAP)',
  family: 'Family',
  subfamily: 'Subfamily',
  specifier: 'Specifier',
  methodology: 'Methodology',
  name: 'Concept name',
  theme: 'Theme',
  ingredient1: 'Ingredient 1',
  ingredient2: 'Ingredient 2',
  panelProfile: 'Panel profile',
  researchType: 'Research type',
  cmiTool: 'CMI tool type',
  designMethod: 'Design method',
  objectiveAndStandards: 'Objective and action standards',
  ethnicity: 'Ethnicity',
  gender: 'Gender',
  socialClass: 'Social class',
};

const GROUP_PREFIX: Record<string, string> = {
  essentials: '',
  fragranceDetails: 'Fragrance ',
  conceptDetails: 'Concept ',
  methodology: '',
  demographics: 'Respondent ',
};

/** The study filters of any search (the study search's, or the analytics screens' own). */
export interface StudyFiltersQuery {
  essentials?: { startYear?: number | null; endYear?: number | null; verified?: boolean | null } & object;
  fragranceDetails?: { creative?: boolean | null } & object;
  conceptDetails?: object;
  methodology?: object;
  demographics?: object | null;
}

function range(from: number | null | undefined, to: number | null | undefined, unit: string): string | null {
  if (from == null && to == null) return null;
  if (from != null && to != null) return from === to ? `${unit}: ${from}` : `${unit}: ${from} to ${to}`;
  return from != null ? `${unit}: from ${from}` : `${unit}: up to ${to}`;
}

/** Each chosen filter as "Label: values", the verified choice last. */
export function searchFiltersInWords(query: StudyFiltersQuery): string[] {
  const words: string[] = [];
  for (const [group, prefix] of Object.entries(GROUP_PREFIX)) {
    const filters = (query as Record<string, unknown>)[group] as Record<string, unknown> | undefined;
    if (!filters) continue;
    for (const [key, value] of Object.entries(filters)) {
      const label = STUDY_FILTER_LABELS[key];
      if (!label) continue;
      const named =
        group === 'essentials' || group === 'methodology' || label.startsWith('Concept')
          ? label
          : `${prefix}${label.charAt(0).toLowerCase()}${label.slice(1)}`;
      if (Array.isArray(value) && value.length > 0) words.push(`${named}: ${value.join(', ')}`);
      else if (typeof value === 'string' && value.trim() !== '') words.push(`${named}: ${value.trim()}`);
    }
  }
  const years = range(query.essentials?.startYear, query.essentials?.endYear, 'Years');
  if (years) words.push(years);
  const demographics = (query.demographics ?? {}) as { startAge?: number | null; endAge?: number | null };
  const ages = range(demographics.startAge, demographics.endAge, 'Respondent ages');
  if (ages) words.push(ages);
  if (query.fragranceDetails?.creative === true) words.push('Fragrances: creative submissions');
  if (query.fragranceDetails?.creative === false) words.push('Fragrances: benchmarks');
  words.push(query.essentials?.verified ? 'Verified studies' : 'Studies not verified');
  return words;
}

/**
 * The study filters, each as "Label: values": the respondent filters left out (the study search
 * ignores them), and the verified choice named only when it narrows to studies not verified (the
 * default, verified studies, is no filter).
 */
export function studyFiltersInWords(query: StudyFiltersQuery): string[] {
  const words = searchFiltersInWords({ ...query, demographics: null });
  words.pop();
  if (query.essentials?.verified === false) words.push('Studies: not verified only');
  return words;
}

/** The study filters in one line, or "No filters" when nothing narrows the search. */
export function searchInWords(query: StudyFiltersQuery): string {
  return joinedOrNone(studyFiltersInWords(query));
}

/** The respondent fields as the analytics panel and the results filter label them. */
export const RESPONDENT_LABELS: Record<DemographicCondition['field'], string> = {
  gender: 'Gender',
  ethnicity: 'Ethnicity',
  social_class: 'Social Class',
  bumo: 'Brand Used Most Often',
  age: 'Age',
};

/** The analytics panel's study types. */
export const STUDY_TYPE_LABELS: Record<RdfType, string> = {
  all: 'All',
  rdf: 'Traditional',
  eeg: 'EEG',
  irt: 'IRT',
};

/** An age range in words ("Age: 18 to 34", "Age: from 18", "Age: 30"); null when open both ends. */
export function ageInWords(from: number | null | undefined, to: number | null | undefined): string | null {
  return range(from, to, RESPONDENT_LABELS.age);
}

/** The respondent filters of the analytics panel (gender, ethnicity, social class, brand, age). */
export function respondentFiltersInWords(
  demographics: Partial<AnalyticsDemographicsFilter> | null | undefined,
): string[] {
  if (!demographics) return [];
  const words: string[] = [];
  const lists: [keyof AnalyticsDemographicsFilter, string][] = [
    ['gender', RESPONDENT_LABELS.gender],
    ['ethnicity', RESPONDENT_LABELS.ethnicity],
    ['socialClass', RESPONDENT_LABELS.social_class],
    ['bumo', RESPONDENT_LABELS.bumo],
  ];
  for (const [key, label] of lists) {
    const values = demographics[key];
    if (Array.isArray(values) && values.length > 0) words.push(`${label}: ${values.join(', ')}`);
  }
  const age = ageInWords(demographics.startAge, demographics.endAge);
  if (age) words.push(age);
  return words;
}

/** Demographic conditions (a profile's, the results filter's), AND-ed, each as "Label: value". */
export function conditionsInWords(conditions: readonly DemographicCondition[]): string[] {
  return conditions.map((condition) =>
    condition.field === 'age'
      ? ageInWords(condition.filter.from, condition.filter.to)!
      : `${RESPONDENT_LABELS[condition.field]}: ${condition.filter.value}`,
  );
}

/** Words joined into one line, or "No filters". */
export function joinedOrNone(words: readonly string[]): string {
  return words.length === 0 ? NO_FILTERS : words.join('; ');
}

/** The search's filters in one line: study filters, then respondent filters, or "No filters". */
export function filtersInWords(
  query: StudyFiltersQuery & { demographics?: Partial<AnalyticsDemographicsFilter> | null },
  respondents = true,
): string {
  return joinedOrNone([
    ...studyFiltersInWords(query),
    ...(respondents ? respondentFiltersInWords(query.demographics) : []),
  ]);
}
