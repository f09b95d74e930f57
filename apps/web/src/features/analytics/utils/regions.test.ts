import { describe, expect, it } from 'vitest';
import { regionsAfter, shownRegions } from '../../../components/wizards/narrowing-filters.tsx';
import { applyApacRule } from '../../../lib/regions.ts';
import { apacRegionOptions } from './regions.ts';

const LIST = [
  { value: 'Europe', count: 5 },
  { value: 'North Asia', count: 2 },
  { value: 'South Asia', count: 3 },
  { value: 'South East Asia', count: 1 },
  { value: 'North America', count: 4 },
];

describe('apacRegionOptions', () => {
  it('hides the three sub-regions behind one APAC entry counting their sum', () => {
    expect(apacRegionOptions(LIST, [])).toEqual([
      { value: 'APAC', count: 6 },
      { value: 'Europe', count: 5 },
      { value: 'North America', count: 4 },
    ]);
  });

  it('sums the sub-regions even when the list carries its own APAC entry', () => {
    const withApac = [{ value: 'APAC', label: 'APAC', count: 0 }, ...LIST];
    expect(apacRegionOptions(withApac, ['APAC', 'North Asia', 'South Asia', 'South East Asia'])[0]).toEqual({
      value: 'APAC',
      label: 'APAC',
      count: 6,
    });
  });

  it('keeps a sub-region chosen on its own listed, so it can be removed', () => {
    expect(apacRegionOptions(LIST, ['South Asia']).map((option) => option.value)).toEqual([
      'APAC',
      'Europe',
      'South Asia',
      'North America',
    ]);
  });

  it('has no APAC entry when no sub-region is known', () => {
    expect(apacRegionOptions([{ value: 'Europe', count: 1 }], [])).toEqual([{ value: 'Europe', count: 1 }]);
  });
});

describe('the APAC choice of the region list', () => {
  it('choosing APAC selects the three sub-regions; deselecting it clears them', () => {
    const chosen = regionsAfter(['Europe'], ['Europe', 'APAC']);
    expect([...chosen].sort()).toEqual(['APAC', 'Europe', 'North Asia', 'South Asia', 'South East Asia']);
    expect(shownRegions(chosen)).toEqual(['Europe', 'APAC']);
    expect(regionsAfter(chosen, ['Europe'])).toEqual(['Europe']);
  });

  it('fewer than three sub-regions left drops APAC', () => {
    const all = ['APAC', 'North Asia', 'South Asia', 'South East Asia'];
    expect(applyApacRule(all, ['APAC', 'North Asia', 'South Asia'])).toEqual(['North Asia', 'South Asia']);
    expect(shownRegions(['North Asia', 'South Asia'])).toEqual(['North Asia', 'South Asia']);
  });
});
