import { Group, MultiSelect, Text } from '@mantine/core';

/** An option of a filter with how many studies (or rows) carry it; the label defaults to the value. */
export interface CountedOption {
  value: string;
  label?: string;
  count: number;
}

/** A multi-select filter whose options show how many studies (or rows) carry each value. */
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
          <Text size="xs" c="dimmed" aria-label={`${counts.get(option.value) ?? 0} results`}>
            ({counts.get(option.value) ?? 0})
          </Text>
        </Group>
      )}
    />
  );
}
