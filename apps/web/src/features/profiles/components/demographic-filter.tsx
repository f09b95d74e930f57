import type { DemographicCondition, FieldDefinition } from '@accord/contracts';
import { Box, Button, Group, RangeSlider, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';

/** The filter form: a category, then a value (an age range for age). */
export interface FilterForm {
  category: string | null;
  value: string | null;
  age: [number, number];
}

/** The profile filters never offer the brands used most often (document 2 section 5). */
const HIDDEN_CATEGORIES = new Set(['bumo']);

export function emptyFilterForm(age: { min: number; max: number }): FilterForm {
  return { category: null, value: null, age: [age.min, age.max] };
}

/** The condition a complete form asks for; the value sent is the option's value, not its label. */
export function conditionOf(form: FilterForm): DemographicCondition | null {
  if (!form.category) return null;
  if (form.category === 'age') {
    return { field: 'age', filter: { type: 'range', from: form.age[0], to: form.age[1] } };
  }
  if (!form.value) return null;
  return {
    field: form.category as Exclude<DemographicCondition['field'], 'age'>,
    filter: { type: 'equal', value: form.value },
  };
}

/**
 * Demographic filter of a profile (document 2 sections 2 and 5): category, then value, both required,
 * with Clear and Filter. Social class lists its labels and sends the mapped value.
 */
export function DemographicFilter({
  allowed,
  definitions,
  age,
  form,
  onChange,
  onFilter,
  onClear,
  busy,
  unavailable,
}: {
  allowed: readonly string[];
  definitions: FieldDefinition[];
  age: { min: number; max: number };
  form: FilterForm;
  onChange: (form: FilterForm) => void;
  onFilter: (condition: DemographicCondition) => void;
  onClear: () => void;
  busy: boolean;
  unavailable: boolean;
}) {
  const [errors, setErrors] = useState<{ category?: string; value?: string }>({});
  const categories = allowed
    .filter((field) => !HIDDEN_CATEGORIES.has(field))
    .map((field) => ({
      value: field,
      label: definitions.find((definition) => definition.field === field)?.label ?? field,
    }));
  const definition = definitions.find((entry) => entry.field === form.category);
  const values = (definition?.options ?? []).map((option) => ({ value: option.value, label: option.label }));

  function submit() {
    const next = {
      category: form.category ? undefined : 'Choose a category',
      value: form.category && form.category !== 'age' && !form.value ? 'Choose a value' : undefined,
    };
    setErrors(next);
    const condition = conditionOf(form);
    if (condition) onFilter(condition);
  }

  return (
    <Stack gap="sm" component="form" onSubmit={(event) => (event.preventDefault(), submit())}>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <Select
          label="Demographic category"
          placeholder="Choose a category"
          data={categories}
          value={form.category}
          onChange={(category) => {
            setErrors({});
            onChange({ ...form, category, value: null });
          }}
          error={errors.category}
          disabled={unavailable}
          w={{ base: '100%', xs: 220 }}
          allowDeselect={false}
        />
        {form.category === 'age' ? (
          <Box w={{ base: '100%', xs: 260 }}>
            <Text size="sm" fw={500} id="profile-age-label">
              Age: {form.age[0]} to {form.age[1]}
            </Text>
            <RangeSlider
              mt="md"
              min={age.min}
              max={age.max}
              minRange={0}
              value={form.age}
              onChange={(range) => onChange({ ...form, age: range })}
              thumbFromLabel="Youngest age"
              thumbToLabel="Oldest age"
              aria-labelledby="profile-age-label"
            />
          </Box>
        ) : (
          <Select
            label="Value"
            placeholder={form.category ? 'Choose a value' : 'Choose a category first'}
            data={values}
            value={form.value}
            onChange={(value) => {
              setErrors({});
              onChange({ ...form, value });
            }}
            error={errors.value}
            disabled={unavailable || !form.category}
            searchable
            w={{ base: '100%', xs: 220 }}
          />
        )}
      </Group>
      <Group gap="sm">
        <Button type="submit" loading={busy} disabled={unavailable}>
          Filter
        </Button>
        <Button
          variant="default"
          onClick={() => {
            setErrors({});
            onClear();
          }}
          disabled={busy}
        >
          Clear
        </Button>
      </Group>
    </Stack>
  );
}
