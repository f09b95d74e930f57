/**
 * The norm base the user last chose on the norms screen, kept in this browser: the norm buttons
 * beside product scores offer it beside the product's own category norm.
 */
import { createStore, useStore } from '../../lib/create-store.ts';
import type { NormBaseChoice } from './norms-api.ts';

const KEY = 'accord.norms.base';

function read(): NormBaseChoice | null {
  try {
    const text = window.localStorage.getItem(KEY);
    const value = text ? (JSON.parse(text) as NormBaseChoice) : null;
    return value && typeof value.category === 'string' ? value : null;
  } catch {
    return null;
  }
}

const store = createStore<NormBaseChoice | null>(typeof window === 'undefined' ? null : read());

/** Records the base chosen on the norms screen. */
export function chooseNormBase(base: NormBaseChoice): void {
  store.set(base);
  try {
    window.localStorage.setItem(KEY, JSON.stringify(base));
  } catch {
    // Storage may be full or switched off: the choice then lasts until the page is left.
  }
}

/** The base last chosen on the norms screen, or null. */
export function useChosenNormBase(): NormBaseChoice | null {
  return useStore(store);
}

/** The base in words without counts: "Fabric Care, Europe, 2022-2026". */
export function baseName(base: NormBaseChoice): string {
  const parts = [base.category, base.region, base.product_type, base.methodology].filter(Boolean);
  if (base.year_from !== null && base.year_to !== null)
    parts.push(
      base.year_from === base.year_to ? String(base.year_from) : `${base.year_from}-${base.year_to}`,
    );
  else if (base.year_from !== null) parts.push(`from ${base.year_from}`);
  else if (base.year_to !== null) parts.push(`until ${base.year_to}`);
  return parts.join(', ');
}
