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

/** Codes one trait by respondent id as respondents arrive; `finish` sizes the codes to the ids. */
function traitColumnBuilder() {
  const values: (string | null)[] = [null];
  const codes = new Map<string, number>();
  let codeOf = new Uint16Array(1024);
  return {
    add(id: number, value: string | null): void {
      if (value === null) return;
      let code = codes.get(value);
      if (code === undefined) {
        code = values.length;
        if (code > 0xffff) throw new Error('Too many distinct values of a respondent trait');
        codes.set(value, code);
        values.push(value);
      }
      if (id >= codeOf.length) {
        const grown = new Uint16Array(Math.max(id + 1, codeOf.length * 2));
        grown.set(codeOf);
        codeOf = grown;
      }
      codeOf[id] = code;
    },
    finish(size: number): TraitColumn {
      const sized = values.length <= 256 ? new Uint8Array(size) : new Uint16Array(size);
      sized.set(codeOf.subarray(0, Math.min(size, codeOf.length)));
      return { codeOf: sized, values };
    },
  };
}

/**
 * Builds the traits from respondents added chunk by chunk, so that the rows of every respondent
 * (450,000 at 3,000 studies) are never parsed at once.
 */
export function respondentTraitsBuilder() {
  const genderAndAge: [id: number, gender: string | null, age: number | null][] = [];
  const ethnicity = traitColumnBuilder();
  const socialClass = traitColumnBuilder();
  const bumo = traitColumnBuilder();
  return {
    add(rows: readonly RespondentTraitRow[]): void {
      for (const [id, gender, age, ethnicityValue, socialClassValue, bumoValue] of rows) {
        genderAndAge.push([id, gender, age]);
        ethnicity.add(id, ethnicityValue);
        socialClass.add(id, socialClassValue);
        bumo.add(id, bumoValue);
      }
    },
    finish(): RespondentTraits {
      const people = respondentCellsOf(genderAndAge);
      const size = people.cellOf.length;
      const traits = {
        people,
        ethnicity: ethnicity.finish(size),
        socialClass: socialClass.finish(size),
        bumo: bumo.finish(size),
      };
      const bytes = [
        people.cellOf,
        traits.ethnicity.codeOf,
        traits.socialClass.codeOf,
        traits.bumo.codeOf,
      ].reduce((total, array) => total + array.byteLength, 0);
      return { ...traits, bytes };
    },
  };
}

/** The traits of respondents given as rows. */
export function respondentTraitsOf(rows: readonly RespondentTraitRow[]): RespondentTraits {
  const builder = respondentTraitsBuilder();
  builder.add(rows);
  return builder.finish();
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
