import { StudySearchQuery, type StudySearchQuery as StudySearchQueryInput } from '@accord/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import {
  allOf,
  compileFilters,
  contains,
  escapeLike,
  expandRegions,
  fileNameMatches,
  isAnyOf,
  overlaps,
  s,
  startsWith,
  studyWhere,
} from './search-filters.ts';

const dialect = new PgDialect();
const render = (fragment: SQL) => dialect.sqlToQuery(fragment);
const compile = (query: StudySearchQueryInput) => compileFilters(StudySearchQuery.parse(query));

describe('expandRegions', () => {
  it('replaces APAC by its three sub-regions without repeats', () => {
    expect(expandRegions(['Europe', 'APAC', 'South Asia'])).toEqual([
      'Europe',
      'South Asia',
      'South East Asia',
      'North Asia',
    ]);
    expect(expandRegions(['Europe'])).toEqual(['Europe']);
    expect(expandRegions([])).toEqual([]);
  });
});

describe('escapeLike', () => {
  it('escapes the LIKE wildcards and the escape character', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(escapeLike('plain')).toBe('plain');
  });
});

describe('match helpers', () => {
  it('matches a prefix on the lower-cased column, so an index on lower(column) serves it', () => {
    expect(render(startsWith(s.cMiNumber, 'CMI_20%'))).toEqual({
      sql: 'lower("s"."c_mi_number") like $1',
      params: ['cmi\\_20\\%%'],
      typings: ['none'],
    });
  });

  it('matches a substring case-insensitively', () => {
    expect(render(contains(s.projectName, 'Rose'))).toMatchObject({
      sql: '"s"."project_name" ilike $1',
      params: ['%Rose%'],
    });
  });

  it('binds lists as text arrays: any() for a value column, && for a list column', () => {
    expect(render(isAnyOf(s.category, ['A', 'B']))).toMatchObject({
      sql: '"s"."category" = any(array[$1, $2]::text[])',
      params: ['A', 'B'],
    });
    expect(render(overlaps(s.region, ['Europe']))).toMatchObject({
      sql: '"s"."region" && array[$1]::text[]',
      params: ['Europe'],
    });
  });
});

describe('compileFilters', () => {
  it('keeps only the verified condition for empty filters', () => {
    const compiled = compile({});
    expect(compiled.study.map((c) => c.facet)).toEqual(['metadata.verified']);
    expect(render(compiled.study[0]!.sql)).toMatchObject({ sql: '"s"."verified" = $1', params: [true] });
    expect(compiled.fragrance).toEqual([]);
    expect(compiled.concept).toEqual([]);
  });

  it('skips empty texts, empty lists and nulls', () => {
    const compiled = compile({
      essentials: { cmiNumber: '   ', client: [], startYear: null, region: null },
      fragranceDetails: { creative: null, fragranceName: '' },
      conceptDetails: { name: '', theme: [] },
    });
    expect(compiled.study.map((c) => c.facet)).toEqual(['metadata.verified']);
    expect(compiled.fragrance).toEqual([]);
    expect(compiled.concept).toEqual([]);
  });

  it('labels each filter with the server field it constrains', () => {
    const compiled = compile({
      essentials: {
        projectName: 'a',
        paceNumber: 'p',
        cmiNumber: 'c',
        client: ['x'],
        businessUnit: ['b'],
        category: ['c'],
        product: ['p'],
        region: ['APAC'],
        country: ['India'],
        startYear: 2010,
        endYear: 2020,
        verified: false,
      },
      methodology: {
        panelProfile: ['p'],
        researchType: ['r'],
        cmiTool: ['t'],
        designMethod: ['d'],
        methodology: ['m'],
        objectiveAndStandards: 'o',
      },
      fragranceDetails: {
        fragranceName: 'n',
        perfumerName: 'p',
        sapNumber: '1',
        region: ['Europe'],
        creative: true,
        family: ['f'],
        subfamily: ['s'],
        specifier: ['s'],
        country: ['c'],
        methodology: ['m'],
      },
      conceptDetails: {
        name: 'n',
        theme: ['t'],
        region: ['r'],
        ingredient1: 'i',
        ingredient2: 'j',
        country: ['c'],
      },
    });
    expect(compiled.study.map((c) => c.facet)).toEqual([
      'metadata.project_name',
      'metadata.c_mi_number',
      'metadata.pace_number',
      'metadata.client',
      'metadata.product_area',
      'metadata.category',
      'metadata.product_type',
      'metadata.region',
      'metadata.country',
      'metadata.year',
      'metadata.verified',
      'metadata.panel_profile',
      'metadata.research_type',
      'metadata.cmi_tool_type',
      'metadata.design_method',
      'metadata.methodology',
      'metadata.objective_and_action_standards',
    ]);
    expect(compiled.fragrance.map((c) => c.facet)).toEqual([
      'fragrance.name',
      'fragrance.perfumer_name',
      'fragrance.code',
      'fragrance.region',
      'fragrance.bench_create',
      'fragrance.family',
      'fragrance.subfamily',
      'fragrance.specifier',
      'fragrance.country',
      'fragrance.methodology',
    ]);
    expect(compiled.concept.map((c) => c.facet)).toEqual([
      'concept.name',
      'concept.theme',
      'concept.region',
      'concept.ingredient_1',
      'concept.ingredient_2',
      'concept.country',
    ]);
  });

  it('expands APAC in the study region filter and matches by overlap', () => {
    const region = compile({ essentials: { region: ['APAC', 'Europe'] } }).study.find(
      (c) => c.facet === 'metadata.region',
    )!;
    expect(render(region.sql)).toMatchObject({
      sql: '"s"."region" && array[$1, $2, $3, $4]::text[]',
      params: ['South Asia', 'South East Asia', 'North Asia', 'Europe'],
    });
  });

  it('turns a one-sided year range into one bound', () => {
    const year = compile({ essentials: { startYear: 2016 } }).study.find((c) => c.facet === 'metadata.year')!;
    expect(render(year.sql)).toMatchObject({ sql: '"s"."year" >= $1', params: [2016] });
    const both = compile({ essentials: { startYear: 2016, endYear: 2018 } }).study.find(
      (c) => c.facet === 'metadata.year',
    )!;
    expect(render(both.sql)).toMatchObject({
      sql: '("s"."year" >= $1 and "s"."year" <= $2)',
      params: [2016, 2018],
    });
  });

  it('matches the concept ingredients as whole values, ignoring case', () => {
    const [ingredient] = compile({ conceptDetails: { ingredient1: 'Green Tea' } }).concept;
    expect(render(ingredient!.sql)).toMatchObject({
      sql: 'lower("c"."ingredient_1") = $1',
      params: ['green tea'],
    });
  });
});

describe('allOf', () => {
  const conditions = [
    { facet: 'metadata.a', sql: sql`a` },
    { facet: 'metadata.b', sql: sql`b` },
  ];
  it('ANDs the conditions, optionally leaving one facet out', () => {
    expect(render(allOf(conditions)).sql).toBe('(a) and (b)');
    expect(render(allOf(conditions, 'metadata.a')).sql).toBe('(b)');
    expect(render(allOf([])).sql).toBe('true');
  });
});

describe('studyWhere', () => {
  const scope = sql`scope`;

  it('requires one fragrance meeting every fragrance filter, and one concept meeting every concept filter', () => {
    const compiled = compile({
      fragranceDetails: { family: ['Floral'], creative: false },
      conceptDetails: { theme: ['Care'] },
    });
    const { sql: text } = render(studyWhere(compiled, scope));
    expect(text).toBe(
      '(scope) and (("s"."verified" = $1)) and (exists (select 1 from "fragrances" f where "f"."study_id" = "s"."id" and ("f"."creative" = $2) and ("f"."family" = any(array[$3]::text[])))) and (exists (select 1 from "concepts" c where "c"."study_id" = "s"."id" and ("c"."theme" = any(array[$4]::text[]))))',
    );
  });

  it('leaves out the existence tests a row query replaces with conditions on the row', () => {
    const compiled = compile({
      fragranceDetails: { family: ['Floral'] },
      conceptDetails: { theme: ['Care'] },
    });
    expect(render(studyWhere(compiled, scope, { fragrances: false })).sql).not.toContain('from "fragrances"');
    expect(render(studyWhere(compiled, scope, { concepts: false })).sql).not.toContain('from "concepts"');
    expect(render(studyWhere(compile({}), scope)).sql).toBe('(scope) and (("s"."verified" = $1))');
  });
});

describe('fileNameMatches', () => {
  it('requires every word of the phrase in the file name', () => {
    expect(render(fileNameMatches('  Final  report_ '))).toMatchObject({
      sql: '"sf"."name" ilike $1 and "sf"."name" ilike $2',
      params: ['%Final%', '%report\\_%'],
    });
    expect(render(fileNameMatches('')).sql).toBe('true');
    expect(render(fileNameMatches(null)).sql).toBe('true');
  });
});
