/**
 * The filter model of the study search screen (document 2 section 3, "Study filter model"): the
 * editable state, its defaults, the compact query sent to the server and saved, the filter tags and
 * the APAC rule. Demographics and metrics belong to the analytics screens and are never kept here,
 * so they can never reach a saved study search.
 */
import { DEFAULT_VERIFIED, StudySearchQuery } from '@accord/contracts';

export interface EssentialsFilters {
  projectName: string;
  paceNumber: string;
  cmiNumber: string;
  client: string[];
  businessUnit: string[];
  category: string[];
  product: string[];
  region: string[];
  country: string[];
  startYear: number | null;
  endYear: number | null;
  verified: boolean;
}

export interface FragranceDetailsFilters {
  fragranceName: string;
  perfumerName: string;
  sapNumber: string;
  region: string[];
  creative: boolean | null;
  family: string[];
  subfamily: string[];
  specifier: string[];
  country: string[];
  methodology: string[];
}

export interface ConceptDetailsFilters {
  name: string;
  theme: string[];
  region: string[];
  ingredient1: string;
  ingredient2: string;
  country: string[];
}

export interface MethodologyFilters {
  panelProfile: string[];
  researchType: string[];
  cmiTool: string[];
  designMethod: string[];
  methodology: string[];
  objectiveAndStandards: string;
}

export interface SearchFilters {
  essentials: EssentialsFilters;
  fragranceDetails: FragranceDetailsFilters;
  conceptDetails: ConceptDetailsFilters;
  methodology: MethodologyFilters;
}

export type FilterGroup = keyof SearchFilters;

export function defaultFilters(): SearchFilters {
  return {
    essentials: {
      projectName: '',
      paceNumber: '',
      cmiNumber: '',
      client: [],
      businessUnit: [],
      category: [],
      product: [],
      region: [],
      country: [],
      startYear: null,
      endYear: null,
      verified: DEFAULT_VERIFIED,
    },
    fragranceDetails: {
      fragranceName: '',
      perfumerName: '',
      sapNumber: '',
      region: [],
      creative: null,
      family: [],
      subfamily: [],
      specifier: [],
      country: [],
      methodology: [],
    },
    conceptDetails: { name: '', theme: [], region: [], ingredient1: '', ingredient2: '', country: [] },
    methodology: {
      panelProfile: [],
      researchType: [],
      cmiTool: [],
      designMethod: [],
      methodology: [],
      objectiveAndStandards: '',
    },
  };
}

export interface YearRange {
  min: number;
  max: number;
}

/** Whether a single filter value counts as set (text, list, number or a boolean choice). */
function isSet(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/**
 * The filters as the server takes them: only values that are set, the year range dropped when it is
 * the library's full range, `verified` only when it differs from the default. Non-admins never send
 * concept filters or verified:false (the server answers 403 to both).
 */
export function compactFilters(
  filters: SearchFilters,
  options: { isAdmin: boolean; years?: YearRange | null },
): StudySearchQuery {
  const result: Record<string, Record<string, unknown>> = {};
  for (const group of Object.keys(filters) as FilterGroup[]) {
    if (group === 'conceptDetails' && !options.isAdmin) continue;
    const entries: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(filters[group])) {
      if (group === 'essentials' && key === 'verified') {
        if (value === false && options.isAdmin) entries[key] = false;
        continue;
      }
      if (!isSet(value)) continue;
      entries[key] = typeof value === 'string' ? value.trim() : value;
    }
    if (group === 'essentials') dropFullYearRange(entries, options.years ?? null);
    if (Object.keys(entries).length > 0) result[group] = entries;
  }
  return result as StudySearchQuery;
}

function dropFullYearRange(entries: Record<string, unknown>, years: YearRange | null) {
  if (!years) return;
  const start = entries.startYear as number | undefined;
  const end = entries.endYear as number | undefined;
  const startIsFull = start === undefined || start <= years.min;
  const endIsFull = end === undefined || end >= years.max;
  if (startIsFull && endIsFull) {
    delete entries.startYear;
    delete entries.endYear;
    return;
  }
  if (start === undefined || start <= years.min) delete entries.startYear;
  if (end === undefined || end >= years.max) delete entries.endYear;
}

/** True when no filter holds a value a user chose (the default verified flag does not count). */
export function isQueryEmpty(query: StudySearchQuery): boolean {
  return Object.values(query).every((group) => {
    if (!group || typeof group !== 'object') return true;
    return Object.entries(group).every(([key, value]) => key === 'verified' || !isSet(value));
  });
}

/**
 * Rebuilds the full editable state from a compact query (a saved search or the URL). Unknown keys
 * and wrongly typed values are ignored, so an old or hand-edited link cannot break the screen.
 */
export function filtersFromQuery(query: unknown): SearchFilters {
  const filters = defaultFilters();
  if (!query || typeof query !== 'object') return filters;
  const source = query as Record<string, unknown>;
  for (const group of Object.keys(filters) as FilterGroup[]) {
    const incoming = source[group];
    if (!incoming || typeof incoming !== 'object') continue;
    const target = filters[group] as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(incoming as Record<string, unknown>)) {
      if (!(key in target)) continue;
      const current = target[key];
      if (Array.isArray(current)) {
        if (Array.isArray(value))
          target[key] = value.filter((item): item is string => typeof item === 'string');
      } else if (typeof current === 'string') {
        if (typeof value === 'string') target[key] = value;
      } else if (typeof current === 'boolean' || key === 'creative') {
        if (typeof value === 'boolean' || (key === 'creative' && value === null)) target[key] = value;
      } else if (typeof value === 'number' && Number.isFinite(value)) {
        target[key] = value;
      }
    }
  }
  return filters;
}

/** Reads the filters from the text the URL or a saved search holds; bad JSON gives the defaults. */
export function parseFiltersText(text: string | null | undefined): SearchFilters {
  if (!text) return defaultFilters();
  try {
    return filtersFromQuery(JSON.parse(text));
  } catch {
    return defaultFilters();
  }
}

/** The filters of a link, and what in it the search could not use (left out, in words). */
export interface LinkedFilters {
  filters: SearchFilters;
  /** One sentence per filter left out; none when the link was used whole. */
  problems: string[];
}

/** Lengths of the filters a link holds, beyond them the search refuses the filter. */
function whatIsWrong(issue: { code: string; message: string; maximum?: unknown }, value: unknown): string {
  const text = Array.isArray(value)
    ? value.find((item) => typeof item === 'string' && item.length > 0)
    : value;
  if (issue.code === 'too_big' && typeof issue.maximum === 'number' && typeof text === 'string')
    return `is ${text.length} characters long, longer than the ${issue.maximum} a filter may be`;
  if (issue.code === 'too_big' && typeof issue.maximum === 'number')
    return `holds more than the ${issue.maximum} values a filter may hold`;
  return `cannot be used (${issue.message})`;
}

/**
 * Reads the filters of a bookmarked or shared link (the URL's q), held against the search's own
 * schema: a filter the search would refuse (a value too long, too many values) is left out and said
 * in words, so the screen opens on the rest instead of failing on every call.
 */
export function readLinkedFilters(text: string | null | undefined): LinkedFilters {
  if (!text) return { filters: defaultFilters(), problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      filters: defaultFilters(),
      problems: ['The filters of this link could not be read, so the search opens without them.'],
    };
  }
  const filters = filtersFromQuery(parsed);
  const problems: string[] = [];
  const defaults = defaultFilters();
  // Each pass drops the filters named by the schema's issues; a few passes settle any link.
  for (let pass = 0; pass < 5; pass++) {
    const checked = StudySearchQuery.safeParse(filters);
    if (checked.success) break;
    for (const issue of checked.error.issues) {
      const [group, key] = issue.path as [FilterGroup | undefined, string | undefined];
      if (!group || !key || !(group in filters)) continue;
      const target = filters[group] as unknown as Record<string, unknown>;
      if (!(key in target)) continue;
      const label = (FILTER_LABELS[group] as Record<string, string>)[key] ?? key;
      const sentence = `${label} ${whatIsWrong(issue as { code: string; message: string; maximum?: unknown }, target[key])}, so it was left out.`;
      if (!problems.includes(sentence)) problems.push(sentence);
      target[key] = (defaults[group] as unknown as Record<string, unknown>)[key];
    }
  }
  return { filters, problems };
}

export { applyApacRule } from '../../../lib/regions.ts';

/** Labels of every filter, as on the screen and in the tags and the saved-search summary. */
export const FILTER_LABELS: { [Group in FilterGroup]: Record<keyof SearchFilters[Group], string> } = {
  essentials: {
    projectName: 'Project Name',
    paceNumber: 'CX/Pace #',
    cmiNumber: 'CMI #',
    client: 'Client',
    businessUnit: 'Business Unit',
    category: 'Category',
    product: 'Product',
    region: 'Region',
    country: 'Country',
    startYear: 'Start year',
    endYear: 'End year',
    verified: 'Verified',
  },
  fragranceDetails: {
    fragranceName: 'Fragrance Name',
    perfumerName: 'Perfumer Name',
    sapNumber: '6 Digit Code (SAP)',
    region: 'Fragrance Region',
    creative: 'Benchmark / Creative',
    family: 'Family',
    subfamily: 'Subfamily',
    specifier: 'Specifier',
    country: 'Fragrance Country',
    methodology: 'Fragrance Methodology',
  },
  conceptDetails: {
    name: 'Concept Name',
    theme: 'Theme',
    region: 'Concept Region',
    ingredient1: 'Ingredient 1',
    ingredient2: 'Ingredient 2',
    country: 'Concept Country',
  },
  methodology: {
    panelProfile: 'Panel Profile',
    researchType: 'Research Type',
    cmiTool: 'CMI Tool Type',
    designMethod: 'Design Method',
    methodology: 'Methodology',
    objectiveAndStandards: 'Objective and Action Standards',
  },
};

export const GROUP_LABELS: Record<FilterGroup, string> = {
  essentials: 'Essentials',
  fragranceDetails: 'Fragrance Details',
  conceptDetails: 'Concept Details',
  methodology: 'Methodology',
};

export interface FilterTag {
  /** Stable id: group.key (the year range is one tag, "essentials.year"). */
  id: string;
  group: FilterGroup;
  keys: string[];
  label: string;
  value: string;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/**
 * One tag per filter that holds a value, built from a compact query: the year range is one tag and
 * is left out when it covers the library's full range; verified shows only when it is false.
 */
export function filterTags(query: StudySearchQuery, years?: YearRange | null): FilterTag[] {
  const tags: FilterTag[] = [];
  const source = query as Record<string, Record<string, unknown> | undefined>;
  for (const group of Object.keys(FILTER_LABELS) as FilterGroup[]) {
    const values = source[group];
    if (!values) continue;
    const labels = FILTER_LABELS[group] as Record<string, string>;
    for (const [key, label] of Object.entries(labels)) {
      if (key === 'endYear') continue;
      if (key === 'startYear') {
        const start = values.startYear as number | null | undefined;
        const end = values.endYear as number | null | undefined;
        if (start == null && end == null) continue;
        const from = start ?? years?.min;
        const to = end ?? years?.max;
        if (years && (from ?? years.min) <= years.min && (to ?? years.max) >= years.max) continue;
        tags.push({
          id: `${group}.year`,
          group,
          keys: ['startYear', 'endYear'],
          label: 'Year',
          value: `${from ?? '…'} – ${to ?? '…'}`,
        });
        continue;
      }
      const value = values[key];
      if (key === 'verified') {
        if (value === false) {
          tags.push({
            id: `${group}.${key}`,
            group,
            keys: [key],
            label: 'Not verified studies only',
            value: 'Yes',
          });
        }
        continue;
      }
      if (key === 'creative') {
        if (typeof value === 'boolean') {
          tags.push({
            id: `${group}.${key}`,
            group,
            keys: [key],
            label,
            value: value ? 'Creative' : 'Benchmark',
          });
        }
        continue;
      }
      if (!isSet(value)) continue;
      tags.push({ id: `${group}.${key}`, group, keys: [key], label, value: describe(value) });
    }
  }
  return tags;
}

/**
 * Removes one tag's filter with its special reset: the year range returns to the full slider,
 * verified to its default, and removing Benchmark/Creative also clears the perfumer name, whose
 * field is shown only while that choice is set.
 */
export function removeTag(filters: SearchFilters, tag: FilterTag): SearchFilters {
  const defaults = defaultFilters();
  const next: SearchFilters = structuredClone(filters);
  const target = next[tag.group] as unknown as Record<string, unknown>;
  const fresh = defaults[tag.group] as unknown as Record<string, unknown>;
  for (const key of tag.keys) target[key] = fresh[key];
  if (tag.group === 'fragranceDetails' && tag.keys.includes('creative')) {
    next.fragranceDetails.perfumerName = '';
  }
  return next;
}
