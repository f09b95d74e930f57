import {
  APAC_SUBREGIONS,
  type DropdownOptionsResponse,
  type FieldDefinition,
  type FieldDefinitionsResponse,
} from '@accord/contracts';
import { useCallback } from 'react';

export type OptionGroup = 'metadata' | 'fragrance' | 'concept';

export interface CountedOption {
  value: string;
  count: number;
}

/**
 * Options of a field with their counts under the current filters (dropdown_options), falling back
 * to the field definitions until the first answer arrives. A dependent list keeps only the values
 * that fit the chosen parents (product types of the chosen categories); APAC counts the sum of its
 * sub-regions. Values already chosen always stay listed, so a chosen value never disappears.
 */
export function useFilterOptions(
  options: DropdownOptionsResponse | undefined,
  fields: FieldDefinitionsResponse | undefined,
) {
  return useCallback(
    (group: OptionGroup, field: string, chosen: readonly string[] = []): CountedOption[] => {
      const fromOptions = options?.data.fields[group].find((definition) => definition.field === field);
      const fromFields: FieldDefinition | undefined = fields?.[group].find(
        (definition) => definition.field === field,
      );
      const definition = fromOptions ?? fromFields;
      let list: CountedOption[] = (definition?.options ?? []).map((option) => ({
        value: option.value,
        count: option.count,
      }));
      const dependency = options?.data.dependencies.find(
        (entry) => entry.group === group && entry.field === field,
      );
      if (dependency && dependency.selected.length > 0) {
        const allowed = new Set(dependency.values);
        list = list.filter((option) => allowed.has(option.value));
      }
      if (field === 'region') {
        const subCount = list
          .filter((option) => APAC_SUBREGIONS.includes(option.value))
          .reduce((sum, option) => sum + option.count, 0);
        list = list.map((option) => (option.value === 'APAC' ? { ...option, count: subCount } : option));
      }
      const known = new Set(list.map((option) => option.value));
      for (const value of chosen) if (!known.has(value)) list.push({ value, count: 0 });
      return list;
    },
    [options, fields],
  );
}
