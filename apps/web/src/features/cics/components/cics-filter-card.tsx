import {
  Box,
  Input,
  MultiSelect,
  Paper,
  RangeSlider,
  Select,
  SimpleGrid,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  CICS_AGE,
  CICS_MESSAGES,
  TEXT_LIMITS,
  type CicsGeoType,
  type CicsOptionsResponse,
} from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { useState } from 'react';
import { applyApacRule } from '../../../lib/regions.ts';
import type { CicsScreenFilters } from '../utils/filters.ts';

const AGE_MARKS = [
  ...Array.from({ length: Math.floor(CICS_AGE.max / CICS_AGE.markStep) + 1 }, (_, index) => {
    const value = index * CICS_AGE.markStep;
    return { value, label: value % 25 === 0 ? String(value) : undefined };
  }),
  { value: CICS_AGE.max, label: String(CICS_AGE.max) },
];

/**
 * The CICS filter card, titled CICS Search with its subtitle: tabs Question (the text searched), Geography (type, then values; APAC ticks
 * its sub-regions) and Demographics (gender and the 0-99 age slider).
 */
export function CicsFilterCard({
  filters,
  onChange,
  options,
  onSubmit,
}: {
  filters: CicsScreenFilters;
  onChange: (filters: CicsScreenFilters) => void;
  options: CicsOptionsResponse | undefined;
  onSubmit: () => void;
}) {
  const [tab, setTab] = useState<string | null>('question');
  const geoTypes = options?.geo_types ?? [];
  const geoType = geoTypes.find((type) => type.value === filters.geo_type);
  const set = <Key extends keyof CicsScreenFilters>(key: Key, value: CicsScreenFilters[Key]) =>
    onChange({ ...filters, [key]: value });
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby="cics-filter-title"
    >
      <Title order={2} size="h3" id="cics-filter-title">
        {CICS_MESSAGES.title}
      </Title>
      <Text c="dimmed" size="sm" mt={4}>
        {CICS_MESSAGES.subtitle}
      </Text>
      <Tabs value={tab} onChange={setTab} mt="sm">
        <Tabs.List>
          <Tabs.Tab value="question">Question</Tabs.Tab>
          <Tabs.Tab value="geography">Geography</Tabs.Tab>
          <Tabs.Tab value="demographics">Demographics</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="question" pt="md">
          <TextInput
            label="Question text"
            description={`Words in "double quotes" are searched as one phrase; other words are searched separately. ${
              textLimit(filters.question, TEXT_LIMITS.cicsTerm).description ??
              `Up to ${TEXT_LIMITS.cicsTerm} characters.`
            }`}
            maxLength={TEXT_LIMITS.cicsTerm}
            placeholder='e.g. "smells clean" fresh'
            value={filters.question}
            onChange={(event) => set('question', event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                onSubmit();
              }
            }}
            maw={720}
          />
        </Tabs.Panel>
        <Tabs.Panel value="geography" pt="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={900}>
            <Select
              label="Geography type"
              placeholder="Choose a type"
              description={geoType?.description ?? 'Country or region of the respondents'}
              data={geoTypes.map((type) => ({ value: type.value, label: type.label }))}
              value={filters.geo_type}
              onChange={(value) =>
                onChange({ ...filters, geo_type: (value as CicsGeoType | null) ?? null, geo_value: [] })
              }
              clearable
              comboboxProps={{ withinPortal: true }}
            />
            <MultiSelect
              label="Geography"
              placeholder={
                filters.geo_value.length === 0 ? (geoType ? 'Any' : 'Choose a type first') : undefined
              }
              description={geoType ? `Values of ${geoType.label.toLowerCase()}` : 'Values of the chosen type'}
              data={(geoType?.options ?? []).map((option) => ({
                value: option.value,
                label: option.parent ? `${option.value} (${option.parent})` : option.value,
              }))}
              value={filters.geo_value}
              disabled={!geoType}
              onChange={(value) =>
                set(
                  'geo_value',
                  filters.geo_type === 'Country' ? value : applyApacRule(filters.geo_value, value),
                )
              }
              searchable
              clearable
              nothingFoundMessage="No options"
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="demographics" pt="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl" maw={900}>
            <MultiSelect
              label="Gender"
              placeholder={filters.gender.length === 0 ? 'Any' : undefined}
              data={options?.genders ?? []}
              value={filters.gender}
              onChange={(value) => set('gender', value)}
              clearable
              comboboxProps={{ withinPortal: true }}
            />
            <Input.Wrapper label="Age" id="cics-age" pb="lg">
              <Box px="xs" pt={4}>
                <RangeSlider
                  min={CICS_AGE.min}
                  max={CICS_AGE.max}
                  minRange={0}
                  step={1}
                  value={[filters.lower_age, filters.higher_age]}
                  thumbFromLabel="Lower age limit"
                  thumbToLabel="Higher age limit"
                  marks={AGE_MARKS}
                  onChange={([lower, higher]) =>
                    onChange({ ...filters, lower_age: lower, higher_age: higher })
                  }
                />
              </Box>
            </Input.Wrapper>
          </SimpleGrid>
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
