import { APAC_SUBREGIONS, type FieldDefinition } from '@accord/contracts';
import type { FieldRow } from './fields.repository.ts';

/**
 * Merges the defined options with the values found in the data: every defined option is listed (count
 * 0 when unused), then values the data holds that no definition names. APAC counts its sub-regions.
 */
export function mergeOptions(
  def: FieldRow,
  counts: Map<string, number> | undefined,
): FieldDefinition['options'] {
  const found = counts ?? new Map<string, number>();
  const options = def.options.map((option) => ({
    value: option.value,
    label: option.label,
    count: found.get(option.value) ?? 0,
    parent: option.parent,
  }));
  const defined = new Set(def.options.map((option) => option.value));
  const extra = [...found.entries()]
    .filter(([value]) => !defined.has(value))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([value, count]) => ({ value, label: value, count, parent: null }));
  const merged = [...options, ...extra];
  if (def.field === 'region') {
    const apac = merged.find((option) => option.value === 'APAC');
    if (apac)
      apac.count = merged
        .filter((option) => APAC_SUBREGIONS.includes(option.value))
        .reduce((sum, option) => sum + option.count, 0);
  }
  return merged;
}
