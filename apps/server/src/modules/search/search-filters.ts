/**
 * Turns the study search filters (contracts StudySearchQuery) into SQL conditions. Pure: no database,
 * only drizzle `sql` fragments over fixed table aliases, so the repository composes them and the unit
 * tests read the SQL they produce.
 *
 * Every condition carries its facet, `${group}.${field}` with the server field name
 * (metadata.category, fragrance.family ...). The search ANDs them all; the dropdown option counts leave
 * out one facet at a time, so a field's options are counted under every other filter.
 */
import { APAC_SUBREGIONS, type ParsedStudySearchQuery } from '@accord/contracts';
import { and, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { concepts, fragrances, studies, studyFiles } from '../../db/schema.ts';
import { sqlTextArray } from '../../lib/client-scope.ts';

/** Table aliases of every search query: s studies, f fragrances, c concepts, sf study files. */
export const s = alias(studies, 's');
export const f = alias(fragrances, 'f');
export const c = alias(concepts, 'c');
export const sf = alias(studyFiles, 'sf');

export type FacetGroup = 'metadata' | 'fragrance' | 'concept';

/** One filter as SQL, labelled with the field it constrains. */
export interface Condition {
  facet: string;
  sql: SQL;
}

/** The filters of one search: conditions on the study (alias s), on one fragrance (f), on one concept (c). */
export interface CompiledFilters {
  study: Condition[];
  fragrance: Condition[];
  concept: Condition[];
}

/** 'APAC' stands for its three sub-regions (it is never stored); the rest is kept, without repeats. */
export function expandRegions(values: readonly string[]): string[] {
  const expanded = values.flatMap((value) => (value === 'APAC' ? APAC_SUBREGIONS : [value]));
  return [...new Set(expanded)];
}

/** Escapes the LIKE wildcards (%, _) and the escape character itself (PostgreSQL's default, \). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Case-insensitive prefix match. Written as `lower(column) like 'text%'` so that an index on
 * lower(column) text_pattern_ops serves it.
 */
export function startsWith(column: AnyPgColumn, text: string): SQL {
  return sql`lower(${column}) like ${`${escapeLike(text.toLowerCase())}%`}`;
}

/** Case-insensitive substring match. */
export function contains(column: AnyPgColumn, text: string): SQL {
  return sql`${column} ilike ${`%${escapeLike(text)}%`}`;
}

/** Case-insensitive match of the whole value. */
export function equalsIgnoringCase(column: AnyPgColumn, text: string): SQL {
  return sql`lower(${column}) = ${text.toLowerCase()}`;
}

/** A text column holding any of the values. */
export function isAnyOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} = any(${sqlTextArray(values)})`;
}

/** A text[] column sharing at least one value with the list (served by a GIN index). */
export function overlaps(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} && ${sqlTextArray(values)}`;
}

/** Collects conditions, skipping filters left empty. */
class ConditionList {
  readonly items: Condition[] = [];
  constructor(private readonly group: FacetGroup) {}

  text(field: string, value: string | null | undefined, match: (text: string) => SQL) {
    if (value) this.items.push({ facet: `${this.group}.${field}`, sql: match(value) });
  }

  values(field: string, values: readonly string[] | null | undefined, match: (values: string[]) => SQL) {
    const chosen = [...new Set(values ?? [])];
    if (chosen.length > 0) this.items.push({ facet: `${this.group}.${field}`, sql: match(chosen) });
  }

  add(field: string, condition: SQL) {
    this.items.push({ facet: `${this.group}.${field}`, sql: condition });
  }
}

/** The conditions of a parsed query. Demographics and metrics are not study filters and are ignored. */
export function compileFilters(query: ParsedStudySearchQuery): CompiledFilters {
  const { essentials: e, methodology: m, fragranceDetails: fd, conceptDetails: cd } = query;

  const study = new ConditionList('metadata');
  study.text('project_name', e.projectName, (text) => startsWith(s.projectName, text));
  // Codes match anywhere in their text: users type the part they remember ("00187").
  study.text('c_mi_number', e.cmiNumber, (text) => contains(s.cMiNumber, text));
  study.text('pace_number', e.paceNumber, (text) => contains(s.paceNumber, text));
  study.values('client', e.client, (values) => isAnyOf(s.client, values));
  study.values('product_area', e.businessUnit, (values) => overlaps(s.productArea, values));
  study.values('category', e.category, (values) => isAnyOf(s.category, values));
  study.values('product_type', e.product, (values) => isAnyOf(s.productType, values));
  study.values('region', e.region, (values) => overlaps(s.region, expandRegions(values)));
  study.values('country', e.country, (values) => overlaps(s.country, values));
  if (e.startYear != null || e.endYear != null) {
    study.add(
      'year',
      and(
        e.startYear != null ? sql`${s.year} >= ${e.startYear}` : undefined,
        e.endYear != null ? sql`${s.year} <= ${e.endYear}` : undefined,
      )!,
    );
  }
  study.add('verified', sql`${s.verified} = ${e.verified}`);
  study.values('panel_profile', m.panelProfile, (values) => isAnyOf(s.panelProfile, values));
  study.values('research_type', m.researchType, (values) => overlaps(s.researchType, values));
  study.values('cmi_tool_type', m.cmiTool, (values) => overlaps(s.cmiToolType, values));
  study.values('design_method', m.designMethod, (values) => isAnyOf(s.designMethod, values));
  study.values('methodology', m.methodology, (values) => isAnyOf(s.methodology, values));
  study.text('objective_and_action_standards', m.objectiveAndStandards, (text) =>
    contains(s.objectiveAndActionStandards, text),
  );

  const fragrance = new ConditionList('fragrance');
  fragrance.text('name', fd.fragranceName, (text) => startsWith(f.name, text));
  fragrance.text('perfumer_name', fd.perfumerName, (text) => startsWith(f.perfumerName, text));
  fragrance.text('code', fd.sapNumber, (text) => contains(f.code, text));
  fragrance.values('region', fd.region, (values) => isAnyOf(f.region, expandRegions(values)));
  if (fd.creative != null) fragrance.add('bench_create', sql`${f.creative} = ${fd.creative}`);
  fragrance.values('family', fd.family, (values) => isAnyOf(f.family, values));
  fragrance.values('subfamily', fd.subfamily, (values) => isAnyOf(f.subfamily, values));
  fragrance.values('specifier', fd.specifier, (values) => isAnyOf(f.specifier, values));
  fragrance.values('country', fd.country, (values) => isAnyOf(f.country, values));
  fragrance.values('methodology', fd.methodology, (values) => isAnyOf(f.methodology, values));

  const concept = new ConditionList('concept');
  concept.text('name', cd.name, (text) => startsWith(c.name, text));
  concept.values('theme', cd.theme, (values) => isAnyOf(c.theme, values));
  concept.values('region', cd.region, (values) => isAnyOf(c.region, expandRegions(values)));
  concept.text('ingredient_1', cd.ingredient1, (text) => equalsIgnoringCase(c.ingredient1, text));
  concept.text('ingredient_2', cd.ingredient2, (text) => equalsIgnoringCase(c.ingredient2, text));
  concept.values('country', cd.country, (values) => isAnyOf(c.country, values));

  return { study: study.items, fragrance: fragrance.items, concept: concept.items };
}

/** AND of the conditions, leaving out one facet (or none); `true` when nothing is left. */
export function allOf(conditions: readonly Condition[], exceptFacet?: string): SQL {
  const kept = conditions
    .filter((condition) => condition.facet !== exceptFacet)
    .map((condition) => sql`(${condition.sql})`);
  return kept.length === 0 ? sql`true` : sql.join(kept, sql` and `);
}

/** The study has a fragrance meeting every fragrance condition; null when there is none. */
export function hasMatchingFragrance(compiled: CompiledFilters): SQL | null {
  if (compiled.fragrance.length === 0) return null;
  return sql`exists (select 1 from ${fragrances} ${sql.raw('f')} where ${f.studyId} = ${s.id} and ${allOf(compiled.fragrance)})`;
}

/** The study has a concept meeting every concept condition; null when there is none. */
export function hasMatchingConcept(compiled: CompiledFilters): SQL | null {
  if (compiled.concept.length === 0) return null;
  return sql`exists (select 1 from ${concepts} ${sql.raw('c')} where ${c.studyId} = ${s.id} and ${allOf(compiled.concept)})`;
}

/**
 * WHERE of a study (alias s) that the filters select, within the user's scope. Row queries of the
 * fragrance (or concept) tab leave out the fragrance (or concept) existence test and put the
 * conditions on the row itself.
 */
export function studyWhere(
  compiled: CompiledFilters,
  scope: SQL,
  options: { fragrances?: boolean; concepts?: boolean } = {},
): SQL {
  const parts = [scope, allOf(compiled.study)];
  const fragrance = options.fragrances === false ? null : hasMatchingFragrance(compiled);
  const concept = options.concepts === false ? null : hasMatchingConcept(compiled);
  if (fragrance) parts.push(fragrance);
  if (concept) parts.push(concept);
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql` and `,
  );
}

/**
 * File names containing every word of the search phrase (case-insensitive); `true` for a blank
 * phrase.
 */
export function fileNameMatches(phrase: string | null | undefined): SQL {
  const words = (phrase ?? '').split(/\s+/).filter(Boolean);
  if (words.length === 0) return sql`true`;
  return sql.join(
    words.map((word) => contains(sf.name, word)),
    sql` and `,
  );
}
