import { Group, MultiSelect, Text } from '@mantine/core';
import type { CountedOption } from '../hooks/use-filter-options.ts';

/** A multi-select filter whose options show how many studies (or rows) carry each value. */
export function CountedMultiSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: CountedOption[];
  value: string[];
  onChange: (value: string[]) => void;
}) {
  const counts = new Map(options.map((option) => [option.value, option.count]));
  return (
    <MultiSelect
      label={label}
      placeholder={value.length === 0 ? 'Any' : undefined}
      data={options.map((option) => option.value)}
      value={value}
      onChange={onChange}
      searchable
      clearable
      nothingFoundMessage="No options"
      comboboxProps={{ withinPortal: true }}
      renderOption={({ option, checked }) => (
        <Group justify="space-between" wrap="nowrap" w="100%" gap="xs">
          <Text size="sm" fw={checked ? 600 : undefined}>
            {option.label}
          </Text>
          <Text size="xs" c="dimmed" aria-label={`${counts.get(option.value) ?? 0} results`}>
            ({counts.get(option.value) ?? 0})
          </Text>
        </Group>
      )}
    />
  );
}
