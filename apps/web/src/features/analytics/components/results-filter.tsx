import { Box, Button, Group, Paper, RangeSlider, Select, Switch, Text, Title, Tooltip } from '@mantine/core';
import { ANALYTICS_AGE_RANGE, type DemographicCondition, type FieldDefinition } from '@accord/contracts';
import { IconFilter } from '@tabler/icons-react';

export const SELECT_TO_FILTER_MESSAGE = 'Please select at least one fragrance to perform filtering.';

/** Demographic categories of the results filter; brands used most often is shown but disabled. */
const CATEGORIES = ['gender', 'ethnicity', 'social_class', 'bumo'] as const;
const DISABLED_CATEGORIES = new Set(['bumo']);

export interface ResultsFilterForm {
  values: Record<string, string | null>;
  ageOn: boolean;
  age: [number, number];
}

/** 'fragrances' -> 'fragrance', 'concepts' -> 'concept': one selected row is named in the singular. */
function singular(kindLabel: string): string {
  return kindLabel.endsWith('s') ? kindLabel.slice(0, -1) : kindLabel;
}

export function emptyResultsFilter(): ResultsFilterForm {
  return { values: {}, ageOn: false, age: [ANALYTICS_AGE_RANGE.min, ANALYTICS_AGE_RANGE.max] };
}

/** The conditions of the form: only non-empty values, and the age range when the switch is on. */
export function conditionsOf(form: ResultsFilterForm): DemographicCondition[] {
  const conditions: DemographicCondition[] = [];
  for (const field of CATEGORIES) {
    const value = form.values[field];
    if (!value || DISABLED_CATEGORIES.has(field) || field === 'bumo') continue;
    conditions.push({ field, filter: { type: 'equal', value } });
  }
  if (form.ageOn)
    conditions.push({ field: 'age', filter: { type: 'range', from: form.age[0], to: form.age[1] } });
  return conditions;
}

/**
 * The results box filter (document 3 section 2.1): demographic selects (age is the switch and
 * slider), and the filter button that re-runs the search on the selected fragrances.
 */
export function ResultsFilter({
  definitions,
  form,
  onChange,
  selectedCount,
  onFilter,
  onReset,
  filtered,
  busy,
  kindLabel,
  searchRespondents,
  applied,
}: {
  definitions: FieldDefinition[];
  form: ResultsFilterForm;
  onChange: (form: ResultsFilterForm) => void;
  selectedCount: number;
  onFilter: () => void;
  onReset: () => void;
  filtered: boolean;
  busy: boolean;
  kindLabel: string;
  /** The search's own respondent filters in words ("Gender: Female; Age: 25 to 44"), or none. */
  searchRespondents: readonly string[];
  /** The conditions of the filter in force on the results, in words, or none. */
  applied: readonly string[];
}) {
  const nothingSelected = selectedCount === 0;
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="results-filter-title">
      <Title order={3} size="h6" id="results-filter-title">
        Filter the selected {kindLabel} by respondents
      </Title>
      <Text size="sm" c="dimmed" data-testid="results-filter-search-respondents">
        {searchRespondents.length > 0
          ? `Respondents of the search: ${searchRespondents.join('; ')}. A filter here narrows them further.`
          : 'Respondents of the search: all.'}
      </Text>
      {filtered ? (
        <Text size="sm" fw={500} data-testid="results-filter-applied">
          {applied.length > 0 ? `Filtered by ${applied.join('; ')}` : 'Filtered to the selection'}
        </Text>
      ) : null}
      <Group align="flex-end" gap="sm" wrap="wrap" mt={4}>
        {CATEGORIES.map((field) => {
          const definition = definitions.find((entry) => entry.field === field);
          return (
            <Select
              key={field}
              label={definition?.label ?? field}
              placeholder="Any"
              data={(definition?.options ?? []).map((option) => ({
                value: option.value,
                label: option.label,
              }))}
              value={form.values[field] ?? null}
              onChange={(value) => onChange({ ...form, values: { ...form.values, [field]: value } })}
              disabled={DISABLED_CATEGORIES.has(field)}
              clearable
              w={{ base: '100%', xs: 200 }}
              comboboxProps={{ withinPortal: true }}
            />
          );
        })}
        <Switch
          label="Age"
          checked={form.ageOn}
          onChange={(event) => onChange({ ...form, ageOn: event.currentTarget.checked })}
          mb={8}
        />
        <Box w={{ base: '100%', xs: 220 }} pb={22} px="xs">
          <Text size="sm" fw={500} mb={4} id="results-age-label">
            Age range {form.age[0]}–{form.age[1]}
          </Text>
          <RangeSlider
            min={ANALYTICS_AGE_RANGE.min}
            max={ANALYTICS_AGE_RANGE.max}
            minRange={0}
            value={form.age}
            onChange={(age) => onChange({ ...form, age })}
            disabled={!form.ageOn}
            thumbFromLabel="Youngest respondent age"
            thumbToLabel="Oldest respondent age"
            marks={[
              { value: ANALYTICS_AGE_RANGE.min, label: String(ANALYTICS_AGE_RANGE.min) },
              { value: ANALYTICS_AGE_RANGE.max, label: String(ANALYTICS_AGE_RANGE.max) },
            ]}
          />
        </Box>
        <Tooltip label={SELECT_TO_FILTER_MESSAGE} disabled={!nothingSelected} withArrow>
          <Button
            leftSection={<IconFilter size={16} aria-hidden="true" />}
            // Kept focusable while disabled so its tooltip can say why (Mantine's disabled-button pattern).
            onClick={() => {
              if (!nothingSelected) onFilter();
            }}
            data-disabled={nothingSelected || undefined}
            aria-disabled={nothingSelected}
            loading={busy}
            mb={2}
          >
            Filter{' '}
            {selectedCount > 0
              ? `${selectedCount} ${selectedCount === 1 ? singular(kindLabel) : kindLabel}`
              : ''}
          </Button>
        </Tooltip>
        {filtered ? (
          <Button variant="default" onClick={onReset} mb={2}>
            Show all results
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}
