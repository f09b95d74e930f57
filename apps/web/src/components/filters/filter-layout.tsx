import {
  Box,
  Button,
  Collapse,
  Group,
  Input,
  Paper,
  RangeSlider,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';

/** The grid of filter fields: one column on a phone, two on a tablet, three on a wide screen. */
export function FilterGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
      {children}
    </SimpleGrid>
  );
}

/** A labelled segmented choice (a radio group to assistive technology). */
export function LabelledChoice({
  label,
  ariaLabel,
  value,
  data,
  onChange,
  disabled,
}: {
  label: string;
  /** A fuller name read aloud, where the visible label repeats (one per row of a list). */
  ariaLabel?: string;
  value: string;
  data: { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Input.Label id={id} component="div">
        {label}
      </Input.Label>
      <SegmentedControl
        {...(ariaLabel ? { 'aria-label': ariaLabel } : { 'aria-labelledby': id })}
        value={value}
        onChange={onChange}
        data={data}
        disabled={disabled}
        fullWidth
      />
    </Stack>
  );
}

/** A range slider over the library's years; the full range means no year filter (null ends). */
export function YearRangeField({
  id,
  years,
  start,
  end,
  onChange,
  maw,
}: {
  id: string;
  years: { min: number; max: number };
  start: number | null;
  end: number | null;
  onChange: (range: { startYear: number | null; endYear: number | null }) => void;
  maw?: number;
}) {
  return (
    <Input.Wrapper label="Year" id={id} pb="lg" maw={maw}>
      <Box px="xs" pt={4}>
        <RangeSlider
          min={years.min}
          max={years.max}
          minRange={0}
          step={1}
          value={[start ?? years.min, end ?? years.max]}
          thumbFromLabel="Start year"
          thumbToLabel="End year"
          marks={[
            { value: years.min, label: String(years.min) },
            { value: years.max, label: String(years.max) },
          ]}
          onChange={([from, to]) =>
            onChange({
              startYear: from <= years.min ? null : from,
              endYear: to >= years.max ? null : to,
            })
          }
        />
      </Box>
    </Input.Wrapper>
  );
}

/**
 * The collapsible 'Search criteria' card of a search screen: the title (with 'Updating options…'
 * while the counts reload), the Show/Hide filters button, what stays visible when collapsed, and the
 * filter tabs.
 */
export function FilterCardFrame({
  titleId,
  panelId,
  expanded,
  onToggle,
  loadingOptions,
  summary,
  children,
}: {
  titleId: string;
  panelId: string;
  expanded: boolean;
  onToggle: () => void;
  loadingOptions: boolean;
  /** Shown above the filters, also when they are collapsed (the chosen filters). */
  summary?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby={titleId}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="xs">
          <Title order={2} size="h4" id={titleId}>
            Search criteria
          </Title>
          {loadingOptions ? (
            <Text size="xs" c="dimmed" role="status">
              Updating options…
            </Text>
          ) : null}
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={panelId}
          rightSection={
            expanded ? (
              <IconChevronUp size={16} aria-hidden="true" />
            ) : (
              <IconChevronDown size={16} aria-hidden="true" />
            )
          }
        >
          {expanded ? 'Hide filters' : 'Show filters'}
        </Button>
      </Group>
      <Stack gap="sm" mt="sm">
        {summary}
        <Collapse expanded={expanded} id={panelId} keepMounted keepMountedMode="display-none">
          {children}
        </Collapse>
      </Stack>
    </Paper>
  );
}
