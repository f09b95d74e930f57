import { DropdownOptionsResponse, type FieldOption, type StudySearchQuery } from '@accord/contracts';
import {
  Button,
  Card,
  Group,
  Loader,
  MultiSelect,
  RangeSlider,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { apiJson } from '../../../lib/api-client.ts';
import { metadataOptions, useFieldsQuery } from '../../../lib/api/get-fields.ts';
import { regionChoices, regionsAfter, shownRegions } from '../../../components/wizards/narrowing-filters.tsx';

const FILTERS = [
  { key: 'client', field: 'client', label: 'Client' },
  { key: 'region', field: 'region', label: 'Region' },
  { key: 'businessUnit', field: 'product_area', label: 'Business Unit' },
  { key: 'category', field: 'category', label: 'Category' },
  { key: 'product', field: 'product_type', label: 'Product' },
] as const;
type FilterKey = (typeof FILTERS)[number]['key'];

export const CONFIRM_HEADER = 'Confirm your selections:';

/** Option lists with counts under the chosen region and years (the other lists follow them). */
function useOptions(region: string[], years: [number, number] | null) {
  const query: StudySearchQuery = {
    essentials: {
      ...(region.length > 0 ? { region } : {}),
      ...(years ? { startYear: years[0], endYear: years[1] } : {}),
    },
  };
  return useQuery({
    queryKey: ['rdf-search-options', query],
    queryFn: ({ signal }) =>
      apiJson('/smartsearch/dropdown_options', DropdownOptionsResponse, {
        method: 'POST',
        body: { query, full_query: { file_type: '', search_phrase: '' } },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/**
 * Find Study (document 3 section 2.9): five multi-selects, a year range, Search to the study search,
 * which runs at once.
 */
export function Component() {
  const navigate = useNavigate();
  const fields = useFieldsQuery();
  const bounds = fields.data?.years ?? null;
  const [values, setValues] = useState<Record<FilterKey, string[]>>({
    client: [],
    region: [],
    businessUnit: [],
    category: [],
    product: [],
  });
  const [years, setYears] = useState<[number, number] | null>(null);
  const range = years ?? (bounds ? ([bounds.min, bounds.max] as [number, number]) : null);
  const options = useOptions(values.region, years);

  const optionsOf = useMemo(
    () =>
      (field: string): { value: string; label: string }[] => {
        const counted: FieldOption[] =
          options.data?.data.fields.metadata.find((definition) => definition.field === field)?.options ??
          metadataOptions(fields.data, field);
        // Document 3 section 4.1: the APAC sub-regions stay behind one APAC entry with their sum.
        if (field === 'region') return regionChoices(counted);
        return counted.map((option) => ({ value: option.value, label: `${option.label} (${option.count})` }));
      },
    [options.data, fields.data],
  );

  const search = () => {
    const essentials: Record<string, unknown> = {};
    for (const filter of FILTERS)
      if (values[filter.key].length > 0) essentials[filter.key] = values[filter.key];
    if (years) {
      essentials.startYear = years[0];
      essentials.endYear = years[1];
    }
    // The search runs on arrival (startSearch), so the studies and their Statistics links show at once.
    const params = new URLSearchParams({
      q: JSON.stringify({ essentials }),
      header: CONFIRM_HEADER,
      startSearch: 'true',
    });
    void navigate(`${paths.search.href()}?${params.toString()}`);
  };

  return (
    <>
      <PageHeader
        title={paths.rdfSearch.title}
        breadcrumbs={[
          { label: 'Home', href: paths.home.href() },
          { label: paths.statisticsGenerator.title, href: paths.statisticsGenerator.href() },
          { label: paths.rdfSearch.title },
        ]}
        description="Find the study whose results you want statistics for, then open its Statistics link."
      />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {FILTERS.map((filter) => (
              <MultiSelect
                key={filter.key}
                label={filter.label}
                placeholder={values[filter.key].length === 0 ? 'Any' : undefined}
                data={optionsOf(filter.field)}
                value={filter.key === 'region' ? shownRegions(values.region) : values[filter.key]}
                onChange={(next) =>
                  setValues((current) => ({
                    ...current,
                    [filter.key]: filter.key === 'region' ? regionsAfter(current.region, next) : next,
                  }))
                }
                searchable
                clearable
                clearButtonProps={{ 'aria-label': `Clear ${filter.label}` }}
                hidePickedOptions
              />
            ))}
          </SimpleGrid>
          {bounds && range ? (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="rdf-year-label">
                Year: {range[0]} - {range[1]}
              </Text>
              <RangeSlider
                min={bounds.min}
                max={bounds.max}
                minRange={0}
                value={range}
                onChange={(value) => setYears(value)}
                label={null}
                thumbFromLabel="First year"
                thumbToLabel="Last year"
                marks={[
                  { value: bounds.min, label: String(bounds.min) },
                  { value: bounds.max, label: String(bounds.max) },
                ]}
                mb="lg"
              />
            </Stack>
          ) : (
            <Loader size="sm" role="status" aria-label="Loading years" />
          )}
          <Group justify="flex-end">
            <Button leftSection={<IconSearch size={16} aria-hidden="true" />} onClick={search}>
              Search
            </Button>
          </Group>
        </Stack>
      </Card>
    </>
  );
}
