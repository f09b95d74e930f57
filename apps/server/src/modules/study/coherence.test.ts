import { describe, expect, it } from 'vitest';
import {
  checkCoherence,
  incoherentFieldNames,
  METHODOLOGIES_BY_DESIGN_METHOD,
  type CoherenceSubject,
} from './coherence.ts';

const countryRegion = new Map([
  ['India', 'South Asia'],
  ['China', 'North Asia'],
  ['France', 'Europe'],
  ['Germany', 'Europe'],
  ['Brazil', 'Latin America'],
]);

const study = (overrides: Partial<CoherenceSubject> = {}): CoherenceSubject => ({
  region: ['Europe'],
  country: ['France', 'Germany'],
  lead_country: 'France',
  methodology: 'Home Use Test',
  design_method: 'Monadic Sequential',
  ...overrides,
});
const all = new Set(['region', 'country', 'lead_country', 'methodology', 'design_method']);

describe('checkCoherence', () => {
  it('accepts a coherent study', () => {
    expect(checkCoherence(study(), all, countryRegion)).toEqual({});
  });

  it('refuses a country outside the chosen regions, on country and region', () => {
    const found = checkCoherence(
      study({ country: ['France', 'Brazil'] }),
      new Set(['country']),
      countryRegion,
    );
    expect(found).toEqual({
      country: ["Brazil is in Latin America, which is not one of the study's regions (Europe)."],
      region: ["Brazil is in Latin America, which is not one of the study's regions (Europe)."],
    });
    expect(incoherentFieldNames(found).sort()).toEqual(['country', 'region']);
  });

  it('reads APAC as its three sub-regions', () => {
    const subject = study({ region: ['APAC'], country: ['India', 'China'], lead_country: 'India' });
    expect(checkCoherence(subject, all, countryRegion)).toEqual({});
  });

  it('does not judge countries the reference data does not place', () => {
    expect(checkCoherence(study({ country: ['France', 'Atlantis'] }), all, countryRegion)).toEqual({});
  });

  it('refuses a lead country outside the regions or the country list', () => {
    expect(
      checkCoherence(study({ lead_country: 'India' }), new Set(['lead_country']), countryRegion),
    ).toEqual({
      lead_country: [
        "Lead country India is in South Asia, which is not one of the study's regions (Europe).",
        "Lead country India is not one of the study's countries.",
      ],
    });
    expect(checkCoherence(study({ country: [], lead_country: 'Germany' }), all, countryRegion)).toEqual({});
  });

  it('refuses a methodology that does not fit the design method', () => {
    const found = checkCoherence(
      study({ methodology: 'Neuro Lab (EEG)', design_method: 'Balanced Incomplete Block Design' }),
      new Set(['methodology']),
      countryRegion,
    );
    expect(Object.keys(found).sort()).toEqual(['design_method', 'methodology']);
    expect(found.methodology![0]).toMatch(
      /Neuro Lab \(EEG\) does not fit the design method Balanced Incomplete/,
    );
    expect(
      checkCoherence(
        study({ methodology: 'Online Implicit Test', design_method: 'Monadic Sequential' }),
        all,
        countryRegion,
      ),
    ).toHaveProperty('methodology');
  });

  it('lets every classic methodology fit every design method, and ignores unknown values', () => {
    for (const design of Object.keys(METHODOLOGIES_BY_DESIGN_METHOD))
      for (const methodology of ['Home Use Test', 'Central Location Test', 'Sniff Test', 'Online Survey'])
        expect(checkCoherence(study({ methodology, design_method: design }), all, countryRegion)).toEqual({});
    expect(checkCoherence(study({ methodology: 'Focus Group' }), all, countryRegion)).toEqual({});
    expect(
      checkCoherence(study({ design_method: null, methodology: 'Neuro Lab (EEG)' }), all, countryRegion),
    ).toEqual({});
  });

  it('checks a rule only when the edit touches one of its fields', () => {
    const legacy = study({
      country: ['Brazil'],
      methodology: 'Neuro Lab (EEG)',
      design_method: 'Balanced Incomplete Block Design',
    });
    expect(checkCoherence(legacy, new Set(['project_name']), countryRegion)).toEqual({});
    expect(Object.keys(checkCoherence(legacy, new Set(['design_method']), countryRegion))).toEqual([
      'methodology',
      'design_method',
    ]);
  });
});
