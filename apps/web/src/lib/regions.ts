import { APAC_SUBREGIONS } from '@accord/contracts';

/**
 * The APAC rule (document 2 section 4): ticking APAC ticks its three sub-regions, unticking it
 * removes them, and when fewer than three of them remain APAC itself is dropped.
 */
export function applyApacRule(previous: string[], next: string[]): string[] {
  const had = previous.includes('APAC');
  const has = next.includes('APAC');
  if (!had && has) {
    return [...next, ...APAC_SUBREGIONS.filter((region) => !next.includes(region))];
  }
  if (had && !has) return next.filter((region) => !APAC_SUBREGIONS.includes(region));
  if (has && APAC_SUBREGIONS.some((region) => !next.includes(region))) {
    return next.filter((region) => region !== 'APAC');
  }
  return next;
}
