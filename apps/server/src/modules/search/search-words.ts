/**
 * A study search's filters in words, for the header of the files it exports: "Category: Fabric Care,
 * Fine Fragrance; Years: 2018 to 2021; ...". Headings are the filter screen's labels.
 */
import type { ParsedStudySearchQuery } from '@accord/contracts';

/** The filter screen's label of each filter key (groups share keys such as region). */
const LABELS: Record<string, string> = {
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

function range(from: number | null | undefined, to: number | null | undefined, unit: string): string | null {
  if (from == null && to == null) return null;
  if (from != null && to != null) return from === to ? `${unit}: ${from}` : `${unit}: ${from} to ${to}`;
  return from != null ? `${unit}: from ${from}` : `${unit}: up to ${to}`;
}

/** The study filters of any search (the study search's, or the analytics screens' own). */
export type SearchFilters = Pick<
  ParsedStudySearchQuery,
  'essentials' | 'fragranceDetails' | 'conceptDetails' | 'methodology'
> & { demographics?: object | null };

/** Each chosen filter as "Label: values", the verified choice last. */
export function searchFiltersInWords(query: SearchFilters): string[] {
  const words: string[] = [];
  const { essentials } = query;
  for (const [group, prefix] of Object.entries(GROUP_PREFIX)) {
    const filters = (query as Record<string, unknown>)[group] as Record<string, unknown> | undefined;
    if (!filters) continue;
    for (const [key, value] of Object.entries(filters)) {
      const label = LABELS[key];
      if (!label) continue;
      const named =
        group === 'essentials' || group === 'methodology' || label.startsWith('Concept')
          ? label
          : `${prefix}${label.charAt(0).toLowerCase()}${label.slice(1)}`;
      if (Array.isArray(value) && value.length > 0) words.push(`${named}: ${value.join(', ')}`);
      else if (typeof value === 'string' && value.trim() !== '') words.push(`${named}: ${value.trim()}`);
    }
  }
  const years = range(essentials.startYear, essentials.endYear, 'Years');
  if (years) words.push(years);
  const demographics = (query.demographics ?? {}) as { startAge?: number | null; endAge?: number | null };
  const ages = range(demographics.startAge, demographics.endAge, 'Respondent ages');
  if (ages) words.push(ages);
  if (query.fragranceDetails.creative === true) words.push('Fragrances: creative submissions');
  if (query.fragranceDetails.creative === false) words.push('Fragrances: benchmarks');
  words.push(essentials.verified ? 'Verified studies' : 'Studies not verified');
  return words;
}

/**
 * The study filters, each as "Label: values": the respondent filters left out (the study search
 * ignores them), and the verified choice named only when it narrows to studies not verified (the
 * default, verified studies, is no filter).
 */
export function studyFiltersInWords(query: SearchFilters): string[] {
  const words = searchFiltersInWords({ ...query, demographics: null });
  words.pop();
  if (query.essentials.verified === false) words.push('Studies: not verified only');
  return words;
}

/** The study filters in one line, or "No filters" when nothing narrows the search. */
export function searchInWords(query: SearchFilters): string {
  const words = studyFiltersInWords(query);
  return words.length === 0 ? 'No filters' : words.join('; ');
}
