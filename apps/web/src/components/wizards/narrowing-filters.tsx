import { APAC_SUBREGIONS, type FieldDefinitionsResponse, type WizardNarrowing } from '@accord/contracts';
import { Box, Input, MultiSelect, RangeSlider, SimpleGrid, Stack } from '@mantine/core';
import { useId } from 'react';
import { metadataOptions, useFieldsQuery } from '../../lib/api/get-fields.ts';
import { applyApacRule } from '../../lib/regions.ts';

type ListKey = 'client' | 'region' | 'businessUnit' | 'category' | 'product';

const LISTS: { key: ListKey; field: string; label: string }[] = [
  { key: 'client', field: 'client', label: 'Client' },
  { key: 'region', field: 'region', label: 'Region' },
  { key: 'businessUnit', field: 'product_area', label: 'Business unit' },
  { key: 'category', field: 'category', label: 'Category' },
  { key: 'product', field: 'product_type', label: 'Product type' },
];

/**
 * The options of a study field with their study counts; the region list hides the three APAC
 * sub-regions behind one APAC entry counting their sum (document 3 section 4.1).
 */
export function fieldChoices(
  fields: FieldDefinitionsResponse | undefined,
  field: string,
): { value: string; label: string }[] {
  const options = metadataOptions(fields, field);
  if (field !== 'region')
    return options.map((option) => ({ value: option.value, label: `${option.value} (${option.count})` }));
  return regionChoices(options);
}

/** Counted region options with the APAC sub-regions behind one APAC entry counting their sum. */
export function regionChoices(
  options: readonly { value: string; count: number }[],
): { value: string; label: string }[] {
  const apac = options
    .filter((option) => APAC_SUBREGIONS.includes(option.value))
    .reduce((sum, option) => sum + option.count, 0);
  const listed = options
    .filter((option) => !APAC_SUBREGIONS.includes(option.value) && option.value !== 'APAC')
    .map((option) => ({ value: option.value, label: `${option.value} (${option.count})` }));
  return apac > 0 ? [{ value: 'APAC', label: `APAC (${apac})` }, ...listed] : listed;
}

/** Shown region values: the sub-regions stay behind APAC. */
export function shownRegions(regions: readonly string[]): string[] {
  return regions.includes('APAC')
    ? regions.filter((region) => !APAC_SUBREGIONS.includes(region))
    : [...regions];
}

/** The region values after a change of the shown list: APAC stands for its hidden sub-regions. */
export function regionsAfter(previous: string[], shown: string[]): string[] {
  const full = shown.includes('APAC')
    ? [...shown, ...APAC_SUBREGIONS.filter((region) => !shown.includes(region))]
    : shown;
  return applyApacRule(previous, full);
}

/**
 * The optional narrowing filters of the wizards: client, region (APAC rule), business unit,
 * category, product type and a year range slider over the library's years.
 */
export function NarrowingFilters({
  value,
  onChange,
  show = ['client', 'region', 'businessUnit', 'category', 'product'],
}: {
  value: WizardNarrowing;
  onChange: (value: WizardNarrowing) => void;
  show?: ListKey[];
}) {
  const fields = useFieldsQuery();
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {LISTS.filter((list) => show.includes(list.key)).map((list) => (
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
      </SimpleGrid>
      <YearRangeField value={value.year} onChange={(year) => onChange({ ...value, year })} />
    </Stack>
  );
}

/** The year range slider from the lowest to the highest study year; null: every year. */
export function YearRangeField({
  value,
  onChange,
}: {
  value: [number, number] | null;
  onChange: (value: [number, number] | null) => void;
}) {
  const fields = useFieldsQuery();
  const yearId = useId();
  const years = fields.data?.years;
  const yearValue: [number, number] | null = years ? (value ?? [years.min, years.max]) : null;
  if (!years || !yearValue) return null;
  return (
    <Input.Wrapper label="Year" id={yearId} pb="lg">
      <Box px="xs" pt={4}>
        <RangeSlider
          min={years.min}
          max={years.max}
          minRange={0}
          step={1}
          value={yearValue}
          thumbFromLabel="Start year"
          thumbToLabel="End year"
          marks={[
            { value: years.min, label: String(years.min) },
            { value: years.max, label: String(years.max) },
          ]}
          onChange={(next) => onChange(next[0] <= years.min && next[1] >= years.max ? null : next)}
        />
      </Box>
    </Input.Wrapper>
  );
}
