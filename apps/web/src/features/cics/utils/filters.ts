/**
 * The filters of the CICS screen (document 2 sections 3 and 5): geography type and values, gender,
 * question text and the age limits; how they are saved, restored, summarised and sent.
 */
import {
  CICS_AGE,
  CICS_GEO_TYPES,
  CicsFilters,
  parseQuestionText,
  type CicsGeoType,
  type CicsInspectFilter,
} from '@accord/contracts';

export interface CicsScreenFilters {
  geo_type: CicsGeoType | null;
  geo_value: string[];
  gender: string[];
  question: string;
  lower_age: number;
  higher_age: number;
}

export const GEO_TYPE_LABELS: Record<CicsGeoType, string> = {
  Country: 'Country',
  Region: 'Region',
  Region_new: 'Region (new)',
};

export function defaultCicsFilters(): CicsScreenFilters {
  return {
    geo_type: null,
    geo_value: [],
    gender: [],
    question: '',
    lower_age: CICS_AGE.min,
    higher_age: CICS_AGE.max,
  };
}

const isFullAge = (filters: CicsScreenFilters) =>
  filters.lower_age <= CICS_AGE.min && filters.higher_age >= CICS_AGE.max;

/** The region filter never sends 'APAC': its sub-regions stand for it (document 2 section 5). */
export function geoValuesForQuery(filters: CicsScreenFilters): string[] {
  return filters.geo_type === 'Country' ? filters.geo_value : filters.geo_value.filter((v) => v !== 'APAC');
}

/** The filters as saved: empty entries dropped, the age left out when it is the full range. */
export function toSavedFilters(filters: CicsScreenFilters): CicsFilters {
  const saved: CicsFilters = {};
  const question = filters.question.trim();
  if (question) saved.question = question;
  if (filters.geo_type && filters.geo_value.length > 0) {
    saved.geo_type = filters.geo_type;
    saved.geo_value = filters.geo_value;
  }
  if (filters.gender.length > 0) saved.gender = filters.gender;
  if (!isFullAge(filters)) {
    saved.lower_age = filters.lower_age;
    saved.higher_age = filters.higher_age;
  }
  return saved;
}

export function isCicsEmpty(filters: CicsScreenFilters): boolean {
  return Object.keys(toSavedFilters(filters)).length === 0;
}

/** Filters of a saved CICS search; older ones keep the geography under geographicalValue.value. */
export function fromSavedFilters(text: string): CicsScreenFilters {
  const filters = defaultCicsFilters();
  let parsed: CicsFilters;
  try {
    const result = CicsFilters.safeParse(JSON.parse(text));
    if (!result.success) return filters;
    parsed = result.data;
  } catch {
    return filters;
  }
  const legacy = parsed.geographicalValue?.value;
  const geoValue = parsed.geo_value ?? (legacy == null ? [] : Array.isArray(legacy) ? legacy : [legacy]);
  return {
    geo_type: parsed.geo_type && CICS_GEO_TYPES.includes(parsed.geo_type) ? parsed.geo_type : null,
    geo_value: parsed.geo_type ? geoValue : [],
    gender: parsed.gender ?? [],
    question: parsed.question ?? '',
    lower_age: parsed.lower_age ?? CICS_AGE.min,
    higher_age: parsed.higher_age ?? CICS_AGE.max,
  };
}

/** The respondent filter of inspect_question: the geography under its type, gender and age. */
export function inspectFilter(filters: CicsScreenFilters): CicsInspectFilter {
  const filter: CicsInspectFilter = {};
  const geo = geoValuesForQuery(filters);
  if (filters.geo_type && geo.length > 0) filter[filters.geo_type] = geo;
  if (filters.gender.length > 0) filter.Gender = filters.gender;
  if (!isFullAge(filters)) filter.Age = [filters.lower_age, filters.higher_age];
  return filter;
}

export function searchTerms(filters: CicsScreenFilters): string[] {
  return parseQuestionText(filters.question);
}

export interface SummaryLine {
  id: string;
  label: string;
  value: string;
}

/** The non-empty filters as label and value (the saved panel summary and the statistics heading). */
export function summaryLines(filters: CicsScreenFilters): SummaryLine[] {
  const lines: SummaryLine[] = [];
  if (filters.question.trim())
    lines.push({ id: 'question', label: 'Question', value: filters.question.trim() });
  if (filters.geo_type && filters.geo_value.length > 0)
    lines.push({
      id: 'geo',
      label: GEO_TYPE_LABELS[filters.geo_type],
      value: filters.geo_value.join(', '),
    });
  if (filters.gender.length > 0)
    lines.push({ id: 'gender', label: 'Gender', value: filters.gender.join(', ') });
  if (!isFullAge(filters))
    lines.push({ id: 'age', label: 'Age', value: `${filters.lower_age} - ${filters.higher_age}` });
  return lines;
}
