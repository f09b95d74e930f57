import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { Box, Input, MultiSelect, RangeSlider, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useId } from 'react';
import { fieldChoices, regionsAfter, shownRegions } from '../../../components/wizards/narrowing-filters.tsx';
import { useFieldsQuery } from '../../../lib/api/get-fields.ts';
import type { GroupFilters } from '../utils/groups.ts';

type ListKey = 'businessUnit' | 'category' | 'product' | 'client' | 'region';

const LISTS: { key: ListKey; field: string; label: string }[] = [
  { key: 'businessUnit', field: 'product_area', label: 'Business unit' },
  { key: 'category', field: 'category', label: 'Category' },
  { key: 'product', field: 'product_type', label: 'Product' },
  { key: 'client', field: 'client', label: 'Client' },
  { key: 'region', field: 'region', label: 'Region' },
];

/** Step 1 filters of one group: business unit, category, product, client, region, fragrance name, years. */
export function GroupFiltersForm({
  group,
  value,
  onChange,
}: {
  group: number;
  value: GroupFilters;
  onChange: (value: GroupFilters) => void;
}) {
  const fields = useFieldsQuery();
  const yearId = useId();
  const years = fields.data?.years;
  const yearValue: [number, number] | null = years ? (value.year ?? [years.min, years.max]) : null;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {LISTS.map((list) => (
          <MultiSelect
            key={list.key}
            label={list.label}
            placeholder={value[list.key].length === 0 ? 'Any' : undefined}
            data={fieldChoices(fields.data, list.field)}
            value={list.key === 'region' ? shownRegions(value.region) : value[list.key]}
            onChange={(next) =>
              onChange({
                ...value,
                [list.key]: list.key === 'region' ? regionsAfter(value.region, next) : next,
              })
            }
            searchable
            clearable
            nothingFoundMessage="No options"
            comboboxProps={{ withinPortal: true }}
          />
        ))}
        <TextInput
          label="Fragrance name"
          placeholder="Any"
          value={value.fragranceName}
          {...textLimit(value.fragranceName, TEXT_LIMITS.filterText)}
          onChange={(event) => onChange({ ...value, fragranceName: event.currentTarget.value })}
        />
      </SimpleGrid>
      {years && yearValue ? (
        <Input.Wrapper label={`Year (group ${group})`} id={yearId} pb="lg">
          <Box px="xs" pt={4}>
            <RangeSlider
              min={years.min}
              max={years.max}
              minRange={0}
              step={1}
              value={yearValue}
              thumbFromLabel={`Start year of group ${group}`}
              thumbToLabel={`End year of group ${group}`}
              marks={[
                { value: years.min, label: String(years.min) },
                { value: years.max, label: String(years.max) },
              ]}
              onChange={(next) =>
                onChange({ ...value, year: next[0] <= years.min && next[1] >= years.max ? null : next })
              }
            />
          </Box>
        </Input.Wrapper>
      ) : null}
    </Stack>
  );
}
