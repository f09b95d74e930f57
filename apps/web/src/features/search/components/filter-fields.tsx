import { TEXT_LIMITS } from '@accord/contracts';
import { Autocomplete, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useRef } from 'react';
import type { CountedOption, OptionGroup } from '../hooks/use-filter-options.ts';
import { applyApacRule, FILTER_LABELS, type SearchFilters, type YearRange } from '../utils/filters.ts';
import { CountedMultiSelect } from './counted-multi-select.tsx';
import { FilterGrid, LabelledChoice, YearRangeField } from '../../../components/filters/filter-layout.tsx';
import { textLimit } from '../../../components/text-limit.ts';

export type OptionsOf = (group: OptionGroup, field: string, chosen?: readonly string[]) => CountedOption[];

export interface FilterFieldsProps {
  filters: SearchFilters;
  onChange: (filters: SearchFilters) => void;
  optionsOf: OptionsOf;
  years: YearRange | null;
  isAdmin: boolean;
  /** The perfumer name put aside when Creative was chosen, restored on Benchmark. */
  perfumerMemory?: { current: string };
}

/** Essentials tab: who, what, where and when. */
export function EssentialsFields({ filters, onChange, optionsOf, years, isAdmin }: FilterFieldsProps) {
  const essentials = filters.essentials;
  const labels = FILTER_LABELS.essentials;
  const set = <Key extends keyof SearchFilters['essentials']>(
    key: Key,
    value: SearchFilters['essentials'][Key],
  ) => onChange({ ...filters, essentials: { ...essentials, [key]: value } });
  const multi = (key: 'client' | 'businessUnit' | 'category' | 'product' | 'country', field: string) => (
    <CountedMultiSelect
      label={labels[key]}
      options={optionsOf('metadata', field, essentials[key])}
      value={essentials[key]}
      onChange={(value) => set(key, value)}
    />
  );
  return (
    <Stack gap="md">
      <FilterGrid>
        <TextInput
          label={labels.projectName}
          value={essentials.projectName}
          {...textLimit(essentials.projectName ?? '', TEXT_LIMITS.filterText)}
          onChange={(event) => set('projectName', event.currentTarget.value)}
        />
        <TextInput
          label={labels.cmiNumber}
          value={essentials.cmiNumber}
          {...textLimit(essentials.cmiNumber ?? '', TEXT_LIMITS.filterText)}
          onChange={(event) => set('cmiNumber', event.currentTarget.value)}
        />
        <TextInput
          label={labels.paceNumber}
          value={essentials.paceNumber}
          {...textLimit(essentials.paceNumber ?? '', TEXT_LIMITS.filterText)}
          onChange={(event) => set('paceNumber', event.currentTarget.value)}
        />
        {multi('client', 'client')}
        {multi('businessUnit', 'product_area')}
        {multi('category', 'category')}
        {multi('product', 'product_type')}
        <CountedMultiSelect
          label={labels.region}
          options={optionsOf('metadata', 'region', essentials.region)}
          value={essentials.region}
          onChange={(value) => set('region', applyApacRule(essentials.region, value))}
        />
        {multi('country', 'country')}
      </FilterGrid>
      <SimpleGrid cols={{ base: 1, md: isAdmin ? 2 : 1 }} spacing="xl">
        {years ? (
          <YearRangeField
            id="search-year"
            years={years}
            start={essentials.startYear}
            end={essentials.endYear}
            onChange={(range) => onChange({ ...filters, essentials: { ...essentials, ...range } })}
          />
        ) : null}
        {isAdmin ? (
          <LabelledChoice
            label="Search not verified studies only"
            value={essentials.verified ? 'no' : 'yes'}
            data={[
              { value: 'no', label: 'No' },
              { value: 'yes', label: 'Yes' },
            ]}
            onChange={(value) => set('verified', value !== 'yes')}
          />
        ) : null}
      </SimpleGrid>
    </Stack>
  );
}

const CREATIVE_CHOICES = [
  { value: 'all', label: 'All' },
  { value: 'benchmark', label: 'Benchmark' },
  { value: 'creative', label: 'Creative' },
];

/** Fragrance Details tab: conditions that must hold on one fragrance of the study. */
export function FragranceFields({ filters, onChange, optionsOf, perfumerMemory }: FilterFieldsProps) {
  const details = filters.fragranceDetails;
  const labels = FILTER_LABELS.fragranceDetails;
  // Choosing Creative clears the perfumer name; switching back to Benchmark restores it.
  const ownMemory = useRef('');
  const rememberedPerfumer = perfumerMemory ?? ownMemory;
  const set = <Key extends keyof SearchFilters['fragranceDetails']>(
    key: Key,
    value: SearchFilters['fragranceDetails'][Key],
  ) => onChange({ ...filters, fragranceDetails: { ...details, [key]: value } });
  const multi = (
    key: 'region' | 'family' | 'subfamily' | 'specifier' | 'country' | 'methodology',
    field: string,
  ) => (
    <CountedMultiSelect
      label={labels[key]}
      options={optionsOf('fragrance', field, details[key])}
      value={details[key]}
      onChange={(value) => set(key, key === 'region' ? applyApacRule(details.region, value) : value)}
    />
  );
  const chooseCreative = (choice: string) => {
    const creative = choice === 'creative' ? true : choice === 'benchmark' ? false : null;
    let perfumerName = details.perfumerName;
    if (creative === true) {
      if (details.perfumerName) rememberedPerfumer.current = details.perfumerName;
      perfumerName = '';
    } else if (creative === false) {
      perfumerName = details.perfumerName || rememberedPerfumer.current;
    } else {
      if (details.perfumerName) rememberedPerfumer.current = details.perfumerName;
      perfumerName = '';
    }
    onChange({ ...filters, fragranceDetails: { ...details, creative, perfumerName } });
  };
  return (
    <FilterGrid>
      <TextInput
        label={labels.fragranceName}
        value={details.fragranceName}
        {...textLimit(details.fragranceName ?? '', TEXT_LIMITS.filterText)}
        onChange={(event) => set('fragranceName', event.currentTarget.value)}
      />
      <TextInput
        label={labels.sapNumber}
        value={details.sapNumber}
        {...textLimit(details.sapNumber ?? '', TEXT_LIMITS.filterText)}
        onChange={(event) => set('sapNumber', event.currentTarget.value)}
      />
      <LabelledChoice
        label={labels.creative}
        value={details.creative === null ? 'all' : details.creative ? 'creative' : 'benchmark'}
        data={CREATIVE_CHOICES}
        onChange={chooseCreative}
      />
      {details.creative !== null ? (
        <Autocomplete
          label={labels.perfumerName}
          value={details.perfumerName}
          {...textLimit(details.perfumerName ?? '', TEXT_LIMITS.filterText)}
          onChange={(value) => set('perfumerName', value)}
          data={optionsOf('fragrance', 'perfumer_name').map((option) => option.value)}
          comboboxProps={{ withinPortal: true }}
        />
      ) : null}
      {multi('region', 'region')}
      {multi('country', 'country')}
      {multi('family', 'family')}
      {multi('subfamily', 'subfamily')}
      {multi('specifier', 'specifier')}
      {multi('methodology', 'methodology')}
    </FilterGrid>
  );
}

/** Concept Details tab (admins only): conditions on one concept of the study. */
export function ConceptFields({ filters, onChange, optionsOf }: FilterFieldsProps) {
  const details = filters.conceptDetails;
  const labels = FILTER_LABELS.conceptDetails;
  const set = <Key extends keyof SearchFilters['conceptDetails']>(
    key: Key,
    value: SearchFilters['conceptDetails'][Key],
  ) => onChange({ ...filters, conceptDetails: { ...details, [key]: value } });
  const single = (key: 'ingredient1' | 'ingredient2', field: string) => (
    <Select
      label={labels[key]}
      placeholder="Any"
      data={optionsOf('concept', field, details[key] ? [details[key]] : []).map((option) => option.value)}
      value={details[key] || null}
      onChange={(value) => set(key, value ?? '')}
      searchable
      clearable
      comboboxProps={{ withinPortal: true }}
    />
  );
  return (
    <FilterGrid>
      <TextInput
        label={labels.name}
        value={details.name}
        {...textLimit(details.name ?? '', TEXT_LIMITS.filterText)}
        onChange={(event) => set('name', event.currentTarget.value)}
      />
      <CountedMultiSelect
        label={labels.theme}
        options={optionsOf('concept', 'theme', details.theme)}
        value={details.theme}
        onChange={(value) => set('theme', value)}
      />
      <CountedMultiSelect
        label={labels.region}
        options={optionsOf('concept', 'region', details.region)}
        value={details.region}
        onChange={(value) => set('region', applyApacRule(details.region, value))}
      />
      <CountedMultiSelect
        label={labels.country}
        options={optionsOf('concept', 'country', details.country)}
        value={details.country}
        onChange={(value) => set('country', value)}
      />
      {single('ingredient1', 'ingredient_1')}
      {single('ingredient2', 'ingredient_2')}
    </FilterGrid>
  );
}

/** Methodology tab. */
export function MethodologyFields({ filters, onChange, optionsOf }: FilterFieldsProps) {
  const methodology = filters.methodology;
  const labels = FILTER_LABELS.methodology;
  const set = <Key extends keyof SearchFilters['methodology']>(
    key: Key,
    value: SearchFilters['methodology'][Key],
  ) => onChange({ ...filters, methodology: { ...methodology, [key]: value } });
  const multi = (
    key: 'panelProfile' | 'researchType' | 'cmiTool' | 'designMethod' | 'methodology',
    field: string,
  ) => (
    <CountedMultiSelect
      label={labels[key]}
      options={optionsOf('metadata', field, methodology[key])}
      value={methodology[key]}
      onChange={(value) => set(key, value)}
    />
  );
  return (
    <FilterGrid>
      {multi('panelProfile', 'panel_profile')}
      {multi('researchType', 'research_type')}
      {multi('cmiTool', 'cmi_tool_type')}
      {multi('designMethod', 'design_method')}
      {multi('methodology', 'methodology')}
      <TextInput
        label={labels.objectiveAndStandards}
        value={methodology.objectiveAndStandards}
        {...textLimit(methodology.objectiveAndStandards ?? '', TEXT_LIMITS.filterText)}
        onChange={(event) => set('objectiveAndStandards', event.currentTarget.value)}
      />
    </FilterGrid>
  );
}
