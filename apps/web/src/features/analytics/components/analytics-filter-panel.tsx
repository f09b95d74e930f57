import {
  ActionIcon,
  Box,
  Button,
  Checkbox,
  Group,
  Input,
  NumberInput,
  Paper,
  RangeSlider,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import {
  AGGREGATION_LABELS,
  ANALYTICS_AGE_RANGE,
  TEXT_LIMITS,
  type AnalyticsDropdownResponse,
  type AnalyticsOptionsResponse,
  type Aggregation,
  type FieldDefinition,
  type RdfType,
  yesNoAggregationLabel,
} from '@accord/contracts';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { regionsAfter, shownRegions } from '../../../components/wizards/narrowing-filters.tsx';
import {
  defaultFilters,
  emptyMetricEntry,
  type AnalyticsFilters,
  type MetricEntryState,
  type SearchKind,
  type ThresholdState,
  type YearRange,
} from '../utils/filters.ts';
import {
  FilterCardFrame,
  FilterGrid,
  LabelledChoice,
  YearRangeField,
} from '../../../components/filters/filter-layout.tsx';
import { textLimit } from '../../../components/text-limit.ts';
import { criteriaInWords } from '../utils/criteria-words.ts';
import { apacRegionOptions } from '../utils/regions.ts';
import { CountedMultiSelect, optionsOfField } from './counted-multi-select.tsx';

const PANEL_ID = 'analytics-filter-panel';

type MetricOption = AnalyticsDropdownResponse['data']['fields']['metrics'][number];

export interface FilterPanelProps {
  filters: AnalyticsFilters;
  onChange: (filters: AnalyticsFilters) => void;
  dropdown: AnalyticsDropdownResponse | undefined;
  options: AnalyticsOptionsResponse | undefined;
  years: YearRange | null;
}

const SEARCH_KINDS = [
  { value: 'fragrances', label: 'Fragrances' },
  { value: 'concepts', label: 'Concepts' },
];

const RDF_CHOICES = [
  { value: 'all', label: 'All' },
  { value: 'rdf', label: 'Traditional' },
  { value: 'eeg', label: 'EEG' },
  { value: 'irt', label: 'IRT' },
];

function findField(list: FieldDefinition[] | undefined, field: string) {
  return list?.find((definition) => definition.field === field);
}

/** Study filters of the analytics search (document 3 section 3.1, essentials). */
function EssentialsFields({ filters, onChange, dropdown, years }: FilterPanelProps) {
  const essentials = filters.essentials;
  const set = <Key extends keyof AnalyticsFilters['essentials']>(
    key: Key,
    value: AnalyticsFilters['essentials'][Key],
  ) => onChange({ ...filters, essentials: { ...essentials, [key]: value } });
  const metadata = dropdown?.data.fields.metadata;
  const multi = (key: 'client' | 'businessUnit' | 'category' | 'product', label: string, field: string) => (
    <CountedMultiSelect
      label={label}
      options={optionsOfField(findField(metadata, field), essentials[key])}
      value={essentials[key]}
      onChange={(value) => set(key, value)}
    />
  );
  return (
    <Stack gap="md">
      <FilterGrid>
        {multi('client', 'Client', 'client')}
        <CountedMultiSelect
          label="Region"
          options={apacRegionOptions(
            optionsOfField(findField(metadata, 'region'), essentials.region),
            essentials.region,
          )}
          value={shownRegions(essentials.region)}
          onChange={(shown) => set('region', regionsAfter(essentials.region, shown))}
        />
        {multi('businessUnit', 'Business Unit', 'product_area')}
        {multi('category', 'Category', 'category')}
        {multi('product', 'Product', 'product_type')}
      </FilterGrid>
      {years ? (
        <YearRangeField
          id="analytics-year"
          years={years}
          start={essentials.startYear}
          end={essentials.endYear}
          onChange={(range) => onChange({ ...filters, essentials: { ...essentials, ...range } })}
          maw={560}
        />
      ) : null}
    </Stack>
  );
}

function FragranceFields({ filters, onChange, dropdown }: FilterPanelProps) {
  const details = filters.fragranceDetails;
  return (
    <FilterGrid>
      <TextInput
        label="Fragrance Name"
        value={details.fragranceName}
        {...textLimit(details.fragranceName ?? '', TEXT_LIMITS.filterText)}
        onChange={(event) =>
          onChange({ ...filters, fragranceDetails: { ...details, fragranceName: event.currentTarget.value } })
        }
      />
      <CountedMultiSelect
        label="Family"
        options={optionsOfField(findField(dropdown?.data.fields.fragrance, 'family'), details.family)}
        value={details.family}
        onChange={(family) => onChange({ ...filters, fragranceDetails: { ...details, family } })}
      />
    </FilterGrid>
  );
}

/** Respondent filters: gender, ethnicity and the age range (18 to 64). */
function DemographicsFields({ filters, onChange, options }: FilterPanelProps) {
  const demographics = filters.demographics;
  const fields = options?.data.fields.demographics;
  const set = <Key extends keyof AnalyticsFilters['demographics']>(
    key: Key,
    value: AnalyticsFilters['demographics'][Key],
  ) => onChange({ ...filters, demographics: { ...demographics, [key]: value } });
  const age = ANALYTICS_AGE_RANGE;
  return (
    <Stack gap="md">
      <FilterGrid>
        <CountedMultiSelect
          label="Gender"
          options={optionsOfField(findField(fields, 'gender'), demographics.gender)}
          value={demographics.gender}
          onChange={(value) => set('gender', value)}
        />
        <CountedMultiSelect
          label="Ethnicity"
          options={optionsOfField(findField(fields, 'ethnicity'), demographics.ethnicity)}
          value={demographics.ethnicity}
          onChange={(value) => set('ethnicity', value)}
        />
      </FilterGrid>
      <Input.Wrapper label="Age" id="analytics-age" pb="lg" maw={560}>
        <Box px="xs" pt={4}>
          <RangeSlider
            min={age.min}
            max={age.max}
            minRange={0}
            value={[demographics.startAge ?? age.min, demographics.endAge ?? age.max]}
            thumbFromLabel="Youngest age"
            thumbToLabel="Oldest age"
            marks={[
              { value: age.min, label: String(age.min) },
              { value: age.max, label: String(age.max) },
            ]}
            onChange={([start, end]) =>
              onChange({
                ...filters,
                demographics: {
                  ...demographics,
                  startAge: start <= age.min ? null : start,
                  endAge: end >= age.max ? null : end,
                },
              })
            }
          />
        </Box>
      </Input.Wrapper>
    </Stack>
  );
}

const ORDER_CHOICES = [
  { value: 'best', label: 'Best' },
  { value: 'worst', label: 'Worst' },
];

const THRESHOLD_TYPES = [
  { value: 'fragrances', label: 'N products' },
  { value: 'percentage', label: 'N %' },
];

/**
 * The best/worst N or N % controls, the same for the global threshold and a metric's own one;
 * `owner` names the metric in the labels read aloud ('Amount for metric 2').
 */
function ThresholdFields({
  threshold,
  onChange,
  disabled,
  owner,
}: {
  threshold: ThresholdState;
  onChange: (change: Partial<ThresholdState>) => void;
  disabled?: boolean;
  owner?: string;
}) {
  const named = (label: string) => (owner ? `${label} for ${owner}` : label);
  return (
    <>
      <LabelledChoice
        label="Order"
        ariaLabel={named('Order')}
        value={threshold.desc ? 'best' : 'worst'}
        data={ORDER_CHOICES}
        onChange={(value) => onChange({ desc: value === 'best' })}
        disabled={disabled}
      />
      <NumberInput
        label="Amount"
        aria-label={named('Amount')}
        min={1}
        max={threshold.type === 'percentage' ? 100 : 100_000}
        value={threshold.amount}
        onChange={(value) => onChange({ amount: typeof value === 'number' && value > 0 ? value : 10 })}
        w={110}
        disabled={disabled}
      />
      <LabelledChoice
        label="Threshold type"
        ariaLabel={named('Threshold type')}
        value={threshold.type}
        data={THRESHOLD_TYPES}
        onChange={(value) => onChange({ type: value as ThresholdState['type'] })}
        disabled={disabled}
      />
    </>
  );
}

function MetricRow({
  entry,
  index,
  metrics,
  canRemove,
  onChange,
  onRemove,
}: {
  entry: MetricEntryState;
  index: number;
  metrics: MetricOption[];
  canRemove: boolean;
  onChange: (entry: MetricEntryState) => void;
  onRemove: () => void;
}) {
  const types = [...new Set(metrics.map((metric) => metric.type))];
  const offered = metrics.filter((metric) => !entry.metricType || metric.type === entry.metricType);
  const chosen = metrics.find((metric) => metric.field === entry.metric);
  const metricData = offered.map((metric) => ({ value: metric.field, label: metric.name }));
  if (entry.metric && !metricData.some((option) => option.value === entry.metric))
    metricData.push({ value: entry.metric, label: entry.metric });
  // A saved search may name an aggregation the picker no longer offers (a yes/no metric's top 2 box):
  // it stays shown as chosen.
  const offeredAggregations: readonly Aggregation[] = chosen?.aggregations ?? [];
  const aggregations: readonly Aggregation[] =
    entry.aggregation && !offeredAggregations.includes(entry.aggregation)
      ? [...offeredAggregations, entry.aggregation]
      : offeredAggregations;
  // A yes/no (CATA) metric's values are shares: "% selected", "% not selected" (METRICS.md 3).
  const aggregationLabel = (aggregation: Aggregation) =>
    (chosen?.kind === 'binary' ? yesNoAggregationLabel(aggregation) : null) ??
    `${AGGREGATION_LABELS[aggregation]} (${aggregation})`;
  const number = index + 1;
  return (
    <Paper withBorder radius="sm" p="sm" component="li" aria-label={`Metric row ${number}`}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Metric type"
          aria-label={`Metric type ${number}`}
          placeholder="Any"
          data={types}
          value={entry.metricType}
          onChange={(metricType) => onChange({ ...entry, metricType, metric: null, aggregation: null })}
          clearable
          w={{ base: '100%', xs: 160 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Metric"
          aria-label={`Metric ${number}`}
          placeholder="Choose a metric"
          data={metricData}
          value={entry.metric}
          onChange={(metric) => {
            const option = metrics.find((item) => item.field === metric);
            onChange({
              ...entry,
              metric,
              metricType: entry.metricType ?? option?.type ?? null,
              aggregation:
                option && entry.aggregation && option.aggregations.includes(entry.aggregation)
                  ? entry.aggregation
                  : null,
            });
          }}
          searchable
          w={{ base: '100%', xs: 240 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Aggregation"
          aria-label={`Aggregation ${number}`}
          placeholder="Choose"
          data={aggregations.map((aggregation) => ({
            value: aggregation,
            label: aggregationLabel(aggregation),
          }))}
          value={entry.aggregation}
          onChange={(aggregation) => onChange({ ...entry, aggregation: aggregation as Aggregation | null })}
          disabled={!entry.metric}
          w={{ base: '100%', xs: 190 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Checkbox
          label="use this metric"
          aria-label={`Use metric ${number} for significance`}
          checked={entry.confidence}
          onChange={(event) => onChange({ ...entry, confidence: event.currentTarget.checked })}
          mb={8}
        />
        <Switch
          label="Own threshold"
          aria-label={`Own threshold for metric ${number}`}
          checked={entry.threshold.applyThreshold}
          onChange={(event) =>
            onChange({
              ...entry,
              threshold: { ...entry.threshold, applyThreshold: event.currentTarget.checked },
            })
          }
          mb={8}
        />
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove metric ${number}`}
          onClick={onRemove}
          disabled={!canRemove}
          mb={4}
        >
          <IconTrash size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
      {entry.threshold.applyThreshold ? (
        <Group
          gap="md"
          align="flex-end"
          wrap="wrap"
          mt="sm"
          pt="sm"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <ThresholdFields
            threshold={entry.threshold}
            owner={`metric ${number}`}
            onChange={(change) => onChange({ ...entry, threshold: { ...entry.threshold, ...change } })}
          />
        </Group>
      ) : null}
    </Paper>
  );
}

/** The metrics list, the kind of studies and the best/worst threshold. */
function MetricsFields({ filters, onChange, dropdown, options }: FilterPanelProps) {
  const metrics = filters.metrics;
  const offered = dropdown?.data.fields.metrics ?? options?.data.fields.metrics ?? [];
  const setList = (metricsList: MetricEntryState[]) =>
    onChange({ ...filters, metrics: { ...metrics, metricsList } });
  const threshold = metrics.threshold;
  const setThreshold = (change: Partial<typeof threshold>) =>
    onChange({ ...filters, metrics: { ...metrics, threshold: { ...threshold, ...change } } });
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <LabelledChoice
          label="Search"
          value={filters.type}
          data={SEARCH_KINDS}
          onChange={(value) => {
            // Switching between fragrances and concepts resets the filters (document 2 section 4).
            const next = defaultFilters();
            onChange({ ...next, type: value as SearchKind });
          }}
        />
        <LabelledChoice
          label="Study type"
          value={metrics.rdfType}
          data={RDF_CHOICES}
          onChange={(value) => {
            const next = defaultFilters();
            onChange({
              ...next,
              type: filters.type,
              metrics: { ...next.metrics, rdfType: value as RdfType },
            });
          }}
        />
      </SimpleGrid>
      <Stack
        gap="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Metrics"
      >
        {metrics.metricsList.map((entry, index) => (
          <MetricRow
            key={entry.key}
            entry={entry}
            index={index}
            metrics={offered}
            canRemove={metrics.metricsList.length > 1 || Boolean(entry.metric)}
            onChange={(next) =>
              setList(metrics.metricsList.map((item) => (item.key === entry.key ? next : item)))
            }
            onRemove={() => {
              // Removing the only metric leaves an empty row (document 2 section 4).
              const rest = metrics.metricsList.filter((item) => item.key !== entry.key);
              setList(rest.length > 0 ? rest : [emptyMetricEntry()]);
            }}
          />
        ))}
      </Stack>
      <Group>
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => setList([...metrics.metricsList, emptyMetricEntry()])}
          disabled={metrics.metricsList.length >= 50}
        >
          Add metric
        </Button>
      </Group>
      <Paper withBorder radius="sm" p="sm">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Switch
            label="Apply threshold"
            description="To every metric without its own"
            checked={threshold.applyThreshold}
            onChange={(event) => setThreshold({ applyThreshold: event.currentTarget.checked })}
          />
          <ThresholdFields
            threshold={threshold}
            onChange={setThreshold}
            disabled={!threshold.applyThreshold}
          />
        </Group>
      </Paper>
    </Stack>
  );
}

/**
 * The collapsible filter card of the analytics screen: tabs Metrics, Essentials, Fragrance Details
 * and Demographics.
 */
export function AnalyticsFilterPanel({
  expanded,
  onToggle,
  loadingOptions,
  ...fields
}: FilterPanelProps & { expanded: boolean; onToggle: () => void; loadingOptions: boolean }) {
  const [tab, setTab] = useState<string | null>('metrics');
  const chosenMetrics = fields.filters.metrics.metricsList.filter(
    (entry) => entry.metric && entry.aggregation,
  );
  const metricNames = new Map(
    (fields.dropdown?.data.fields.metrics ?? []).map((metric) => [metric.field, metric.name]),
  );
  const criteria = criteriaInWords(
    fields.filters,
    fields.years,
    (metric) => metricNames.get(metric) ?? metric,
  );
  return (
    <FilterCardFrame
      titleId="analytics-filter-title"
      panelId={PANEL_ID}
      expanded={expanded}
      onToggle={onToggle}
      loadingOptions={loadingOptions}
      summary={
        !expanded && chosenMetrics.length > 0 ? (
          <Stack gap={0} data-testid="analytics-criteria-summary">
            <Text size="sm" c="dimmed">
              {criteria.metrics}
            </Text>
            <Text size="sm" c="dimmed">
              {criteria.filters}
            </Text>
          </Stack>
        ) : null
      }
    >
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="metrics">Metrics</Tabs.Tab>
          <Tabs.Tab value="essentials">Essentials</Tabs.Tab>
          <Tabs.Tab value="fragrance">Fragrance Details</Tabs.Tab>
          <Tabs.Tab value="demographics">Demographics</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="metrics" pt="md">
          <MetricsFields {...fields} />
        </Tabs.Panel>
        <Tabs.Panel value="essentials" pt="md">
          <EssentialsFields {...fields} />
        </Tabs.Panel>
        <Tabs.Panel value="fragrance" pt="md">
          <FragranceFields {...fields} />
        </Tabs.Panel>
        <Tabs.Panel value="demographics" pt="md">
          <DemographicsFields {...fields} />
        </Tabs.Panel>
      </Tabs>
    </FilterCardFrame>
  );
}
