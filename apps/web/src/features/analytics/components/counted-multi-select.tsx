import { Group, MultiSelect, Text } from '@mantine/core';
import type { FieldDefinition } from '@accord/contracts';

export interface CountedOption {
  value: string;
  label?: string;
  count: number;
}

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

/** A multi-select filter whose options show how many studies carry each value. */
export function CountedMultiSelect({
  label,
  options,
  value,
  onChange,
  disabled,
}: {
  label: string;
  options: CountedOption[];
  value: string[];
  onChange: (value: string[]) => void;
  disabled?: boolean;
}) {
  const counts = new Map(options.map((option) => [option.value, option.count]));
  return (
    <MultiSelect
      label={label}
      placeholder={value.length === 0 ? 'Any' : undefined}
      data={options.map((option) => ({ value: option.value, label: option.label ?? option.value }))}
      value={value}
      onChange={onChange}
      disabled={disabled}
      searchable
      clearable
      nothingFoundMessage="No options"
      comboboxProps={{ withinPortal: true }}
      renderOption={({ option, checked }) => (
        <Group justify="space-between" wrap="nowrap" w="100%" gap="xs">
          <Text size="sm" fw={checked ? 600 : undefined}>
            {option.label}
          </Text>
          <Text size="xs" c="dimmed">
            ({counts.get(option.value) ?? 0})
          </Text>
        </Group>
      )}
    />
  );
}
