/**
 * Every respondent's demographics held in memory, by respondent id: gender and age as the cells of
 * respondent-index.ts, ethnicity, social class and BUMO as small codes (one byte each while a trait
 * has at most 255 distinct values). With the respondent indexes they let a filter on any of them be
 * applied without reading the answers table: 450,000 respondents at 3,000 studies take 2.3 MB
 * (0.9 MB of gender and age cells, 1.35 MB of codes).
 */
import type { DemographicMatch } from './analytics-types.ts';
import { respondentCellsOf, type RespondentCells } from './respondent-index.ts';

/** A test of one text trait's value; null is a missing value. */
export type TraitTest = (value: string | null) => boolean;

/**
 * Every condition of a respondent filter as tests of a respondent's values, with SQL's rule that a
 * missing value fails a condition: a respondent is kept when every test passes.
 */
export interface RespondentMatcher {
  /** The gender and age conditions (a test that passes everybody when there are none). */
  genderAndAge: DemographicMatch;
  /** The ethnicity, social class and BUMO conditions: null when the filter sets none. */
  ethnicity: TraitTest | null;
  socialClass: TraitTest | null;
  bumo: TraitTest | null;
}

/** The matcher of no condition: it keeps every respondent. */
export const EVERY_RESPONDENT: RespondentMatcher = {
  genderAndAge: () => true,
  ethnicity: null,
  socialClass: null,
  bumo: null,
};

/** A respondent's demographic values, as the respondents table holds them. */
export interface RespondentValues {
  gender: string | null;
  age: number | null;
  ethnicity: string | null;
  socialClass: string | null;
  bumo: string | null;
}

/** Whether the matcher keeps a respondent of these values. */
export function matchesRespondent(matcher: RespondentMatcher, person: RespondentValues): boolean {
  return (
    matcher.genderAndAge(person.gender, person.age) &&
    (matcher.ethnicity === null || matcher.ethnicity(person.ethnicity)) &&
    (matcher.socialClass === null || matcher.socialClass(person.socialClass)) &&
    (matcher.bumo === null || matcher.bumo(person.bumo))
  );
}

/** One text trait by respondent id: code 0 is a missing value (or no respondent), code c is values[c]. */
export interface TraitColumn {
  codeOf: Uint8Array | Uint16Array;
  /** The distinct values; values[0] is null. */
  values: (string | null)[];
}

/** Every respondent's gender, age, ethnicity, social class and BUMO. */
export interface RespondentTraits {
  /** Gender and age, as the respondent counts and the significance tests read them. */
  people: RespondentCells;
  ethnicity: TraitColumn;
  socialClass: TraitColumn;
  bumo: TraitColumn;
  /** Bytes held by the arrays by respondent id. */
  bytes: number;
}

/** One respondent as loaded. */
export type RespondentTraitRow = [
  id: number,
  gender: string | null,
  age: number | null,
  ethnicity: string | null,
  socialClass: string | null,
  bumo: string | null,
];

/** Codes one trait of the rows (column `at`) by respondent id. */
function traitColumn(rows: readonly RespondentTraitRow[], at: 3 | 4 | 5, size: number): TraitColumn {
  const values: (string | null)[] = [null];
  const codes = new Map<string, number>();
  for (const row of rows) {
    const value = row[at];
    if (value !== null && !codes.has(value)) {
      codes.set(value, values.length);
      values.push(value);
    }
  }
  const codeOf = values.length <= 256 ? new Uint8Array(size) : new Uint16Array(size);
  if (values.length > 65536) throw new Error('Too many distinct values of a respondent trait');
  for (const row of rows) {
    const value = row[at];
    if (value !== null) codeOf[row[0]] = codes.get(value)!;
  }
  return { codeOf, values };
}

/** The traits of respondents given as rows. */
export function respondentTraitsOf(rows: readonly RespondentTraitRow[]): RespondentTraits {
  const people = respondentCellsOf(rows.map(([id, gender, age]) => [id, gender, age]));
  const size = people.cellOf.length;
  const ethnicity = traitColumn(rows, 3, size);
  const socialClass = traitColumn(rows, 4, size);
  const bumo = traitColumn(rows, 5, size);
  const bytes = [people.cellOf, ethnicity.codeOf, socialClass.codeOf, bumo.codeOf].reduce(
    (total, array) => total + array.byteLength,
    0,
  );
  return { people, ethnicity, socialClass, bumo, bytes };
}

const NO_CELL = 0xffff;

/**
 * Which respondents the matcher keeps, by id (1: kept), as SQL's join to the respondents and their
 * conditions would: an id without respondent is never kept. Each condition is tested once per
 * distinct value, not once per respondent.
 */
export function keptRespondentIds(traits: RespondentTraits, matcher: RespondentMatcher): Uint8Array {
  const { people } = traits;
  const keptCell = Uint8Array.from(people.cells, (cell) =>
    matcher.genderAndAge(cell.gender, cell.age) ? 1 : 0,
  );
  const passing = (column: TraitColumn, test: TraitTest | null) =>
    test === null ? null : Uint8Array.from(column.values, (value) => (test(value) ? 1 : 0));
  const ethnicity = passing(traits.ethnicity, matcher.ethnicity);
  const socialClass = passing(traits.socialClass, matcher.socialClass);
  const bumo = passing(traits.bumo, matcher.bumo);
  const size = people.cellOf.length;
  const kept = new Uint8Array(size);
  for (let id = 0; id < size; id++) {
    const cell = people.cellOf[id]!;
    if (cell === NO_CELL || keptCell[cell] === 0) continue;
    if (ethnicity && ethnicity[traits.ethnicity.codeOf[id]!] === 0) continue;
    if (socialClass && socialClass[traits.socialClass.codeOf[id]!] === 0) continue;
    if (bumo && bumo[traits.bumo.codeOf[id]!] === 0) continue;
    kept[id] = 1;
  }
  return kept;
}
