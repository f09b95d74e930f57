import type { FieldDefinition } from '@accord/contracts';
import type { CountedOption } from '../../../components/filters/counted-multi-select.tsx';

export { CountedMultiSelect, type CountedOption } from '../../../components/filters/counted-multi-select.tsx';

/** The options of a field definition, with the chosen values kept listed even at count 0. */
export function optionsOfField(
  definition: FieldDefinition | undefined,
  chosen: readonly string[],
): CountedOption[] {
  const list: CountedOption[] = (definition?.options ?? []).map((option) => ({
    value: option.value,
    label: option.label,
    count: option.count,
  }));
  const known = new Set(list.map((option) => option.value));
  for (const value of chosen) if (!known.has(value)) list.push({ value, count: 0 });
  return list;
}
