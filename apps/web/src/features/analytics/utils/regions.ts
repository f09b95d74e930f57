import { APAC_SUBREGIONS } from '@accord/contracts';
import type { CountedOption } from '../components/counted-multi-select.tsx';

/**
 * The region list of the analytics filters (document 3 section 4.1): the three APAC sub-regions stay
 * behind one APAC entry counting their sum. A sub-region chosen on its own (an older saved search)
 * stays listed so that it can be seen and removed.
 */
export function apacRegionOptions(
  list: readonly CountedOption[],
  chosen: readonly string[],
): CountedOption[] {
  const subregions = list.filter((option) => APAC_SUBREGIONS.includes(option.value));
  const apac = subregions.reduce((sum, option) => sum + option.count, 0);
  const ownApac = list.find((option) => option.value === 'APAC');
  const keepSubregion = (value: string) => chosen.includes(value) && !chosen.includes('APAC');
  const listed = list.filter(
    (option) =>
      option.value !== 'APAC' && (!APAC_SUBREGIONS.includes(option.value) || keepSubregion(option.value)),
  );
  if (subregions.length === 0 && !ownApac) return listed;
  return [{ ...ownApac, value: 'APAC', count: subregions.length > 0 ? apac : ownApac!.count }, ...listed];
}
