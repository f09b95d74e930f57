/**
 * Coherence rules of a study's metadata, checked on the server whenever a details edit or a tag
 * touches one of their fields (document 2 section 5: "incoherent region, country or methodology
 * fields are highlighted"). Pure: the country -> region map comes from field_options.parent_value of
 * the metadata country options, so the rules follow the reference data.
 *
 * Rules
 * 1. Countries in chosen regions: every country of the study belongs to one of its regions. 'APAC'
 *    stands for South Asia, South East Asia and North Asia. A country the reference data does not
 *    place in any region is not judged. Violations are reported on both `country` and `region`.
 * 2. Lead country: it belongs to one of the study's regions and, when the study lists countries, is
 *    one of them. Reported on `lead_country`.
 * 3. Methodology fits the design method (METHODOLOGIES_BY_DESIGN_METHOD): an EEG lab session shows
 *    one fragrance at a time, so 'Neuro Lab (EEG)' needs 'Monadic Sequential'; an implicit test has
 *    every respondent react to every product, so 'Online Implicit Test' needs 'Balance Complete
 *    Block Design'; classic tests (home use, central location, sniff, online survey) fit every
 *    design. A methodology or design method outside the table is not judged. Reported on both
 *    `methodology` and `design_method`.
 *
 * A rule is only checked when the edit changes one of its fields, so an untouched legacy study can
 * still have its other fields edited.
 */
import { APAC_SUBREGIONS } from '@accord/contracts';

/** The fields the rules read, as stored (region already without 'APAC' or with it, both work). */
export interface CoherenceSubject {
  region: readonly string[];
  country: readonly string[];
  lead_country: string | null;
  methodology: string | null;
  design_method: string | null;
}

/** field -> messages; empty when the study is coherent. */
export type IncoherentFields = Record<string, string[]>;

const CLASSIC_METHODOLOGIES = ['Home Use Test', 'Central Location Test', 'Sniff Test', 'Online Survey'];

/** Which methodologies each design method allows (rule 3). */
export const METHODOLOGIES_BY_DESIGN_METHOD: Readonly<Record<string, readonly string[]>> = {
  'Monadic Sequential': [...CLASSIC_METHODOLOGIES, 'Neuro Lab (EEG)'],
  'Balance Complete Block Design': [...CLASSIC_METHODOLOGIES, 'Online Implicit Test'],
  'Balanced Incomplete Block Design': CLASSIC_METHODOLOGIES,
};

/** The fields each rule reads: a rule runs when one of them changes. */
export const COHERENCE_RULE_FIELDS = {
  geography: ['region', 'country', 'lead_country'],
  methodology: ['methodology', 'design_method'],
} as const;

function expandRegions(regions: readonly string[]): Set<string> {
  return new Set(regions.flatMap((region) => (region === 'APAC' ? [...APAC_SUBREGIONS, 'APAC'] : [region])));
}

/**
 * Checks the rules whose fields are in `changed` against the study as it would be saved.
 * `countryRegion` maps a country to its region (field_options.parent_value).
 */
export function checkCoherence(
  study: CoherenceSubject,
  changed: ReadonlySet<string>,
  countryRegion: ReadonlyMap<string, string>,
): IncoherentFields {
  const found: IncoherentFields = {};
  const add = (fields: string[], message: string) => {
    for (const field of fields) (found[field] ??= []).push(message);
  };
  const touches = (fields: readonly string[]) => fields.some((field) => changed.has(field));

  if (touches(COHERENCE_RULE_FIELDS.geography)) {
    const regions = expandRegions(study.region);
    const regionList = study.region.length > 0 ? study.region.join(', ') : 'none';
    for (const country of study.country) {
      const region = countryRegion.get(country);
      if (region !== undefined && !regions.has(region))
        add(
          ['country', 'region'],
          `${country} is in ${region}, which is not one of the study's regions (${regionList}).`,
        );
    }
    const lead = study.lead_country;
    if (lead) {
      const region = countryRegion.get(lead);
      if (region !== undefined && !regions.has(region))
        add(
          ['lead_country'],
          `Lead country ${lead} is in ${region}, which is not one of the study's regions (${regionList}).`,
        );
      if (study.country.length > 0 && !study.country.includes(lead))
        add(['lead_country'], `Lead country ${lead} is not one of the study's countries.`);
    }
  }

  if (touches(COHERENCE_RULE_FIELDS.methodology) && study.methodology && study.design_method) {
    const allowed = METHODOLOGIES_BY_DESIGN_METHOD[study.design_method];
    const known = Object.values(METHODOLOGIES_BY_DESIGN_METHOD).some((list) =>
      list.includes(study.methodology as string),
    );
    if (allowed && known && !allowed.includes(study.methodology))
      add(
        ['methodology', 'design_method'],
        `${study.methodology} does not fit the design method ${study.design_method}; it allows ${allowed.join(', ')}.`,
      );
  }
  return found;
}

/** Fields named in a coherence answer, for the error message ('Bad fields: ...'). */
export function incoherentFieldNames(found: IncoherentFields): string[] {
  return Object.entries(found)
    .filter(([, messages]) => messages.length > 0)
    .map(([field]) => field);
}
