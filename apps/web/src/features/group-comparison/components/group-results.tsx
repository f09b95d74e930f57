import { ANALYTICS_AGE_RANGE, WIZARD_MESSAGES, type MetricSearchResult } from '@accord/contracts';
import {
  Accordion,
  Anchor,
  Badge,
  Box,
  Checkbox,
  Group,
  Input,
  MultiSelect,
  RangeSlider,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Suspense, useId } from 'react';
import { Link } from 'react-router';
import { EChart } from '../../../components/charts/chart.tsx';
import { paths } from '../../../config/paths.ts';
import { useFieldsQuery } from '../../../lib/api/get-fields.ts';
import { studiesOf, type GroupDemographics } from '../utils/groups.ts';

const CHARTED = [
  { metric: 'liking', label: 'Overall Liking' },
  { metric: 'purchase_intention', label: 'Purchase Intention' },
  { metric: 'strength', label: 'Strength' },
] as const;

function demographicOptions(fields: ReturnType<typeof useFieldsQuery>['data'], field: string) {
  return (fields?.demographics.find((definition) => definition.field === field)?.options ?? []).map(
    (option) => option.value,
  );
}

/** The pooled boxes of the group per metric: top 2 box, neutral (just right for strength), bottom 2 box. */
function GroupChart({ group, result }: { group: number; result: MetricSearchResult }) {
  const answered = CHARTED.filter((entry) => (result.summary[entry.metric]?.['answers.count'] ?? 0) > 0);
  if (answered.length === 0) return <Text c="dimmed">{WIZARD_MESSAGES.noResults}</Text>;
  const percent = (metric: string, key: string) => {
    const value = result.summary[metric]?.[key];
    return value == null ? null : Math.round(value * 100);
  };
  return (
    <Suspense fallback={<Text size="sm">Loading the chart…</Text>}>
      <EChart
        style={{ height: 300, width: '100%' }}
        opts={{ renderer: 'svg' }}
        option={{
          aria: {
            enabled: true,
            label: { description: `Liking, purchase intention and strength of group ${group}` },
          },
          tooltip: {
            trigger: 'axis',
            valueFormatter: (value: number | null) => (value == null ? '-' : `${value} %`),
          },
          legend: { bottom: 0 },
          grid: { left: 40, right: 8, top: 16, bottom: 80 },
          xAxis: {
            type: 'category',
            data: answered.map((entry) => entry.label),
            axisLabel: { interval: 0, width: 90, overflow: 'break' },
          },
          yAxis: { type: 'value', max: 100, name: '%' },
          series: [
            { name: 'Top 2 box', key: 'top_2_box', color: '#862e9c' },
            { name: 'Neutral / Just right', key: 'just_right', color: '#adb5bd' },
            { name: 'Bottom 2 box', key: 'bottom_2_box', color: '#e8590c' },
          ].map((series) => ({
            name: series.name,
            type: 'bar',
            itemStyle: { color: series.color },
            label: { show: true, position: 'top', formatter: '{c}' },
            data: answered.map((entry) => percent(entry.metric, series.key)),
          })),
        }}
      />
    </Suspense>
  );
}

/** One group on the results page: respondent filters, filter tags, the lists with checkboxes and the chart. */
export function GroupResults({
  group,
  result,
  tags,
  demographics,
  onDemographics,
  selected,
  onSelected,
}: {
  group: number;
  result: MetricSearchResult;
  tags: string[];
  demographics: GroupDemographics;
  onDemographics: (value: GroupDemographics) => void;
  selected: Set<number>;
  onSelected: (value: Set<number>) => void;
}) {
  const fields = useFieldsQuery();
  const ageId = useId();
  const studies = studiesOf(result.results);
  const toggle = (ids: number[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onSelected(next);
  };
  const allIds = result.results.map((row) => row.id);
  const allChosen = allIds.length > 0 && allIds.every((id) => selected.has(id));
  return (
    <Stack gap="md" style={{ minWidth: 0 }}>
      <Title order={2} size="h3">
        Group {group}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <MultiSelect
          label="Ethnicity"
          placeholder={demographics.ethnicity.length === 0 ? 'Any' : undefined}
          data={demographicOptions(fields.data, 'ethnicity')}
          value={demographics.ethnicity}
          onChange={(ethnicity) => onDemographics({ ...demographics, ethnicity })}
          clearable
          searchable
        />
        <MultiSelect
          label="Gender"
          placeholder={demographics.gender.length === 0 ? 'Any' : undefined}
          data={demographicOptions(fields.data, 'gender')}
          value={demographics.gender}
          onChange={(gender) => onDemographics({ ...demographics, gender })}
          clearable
        />
      </SimpleGrid>
      <Input.Wrapper label="Age" id={ageId} pb="lg">
        <Box px="xs" pt={4}>
          <RangeSlider
            min={ANALYTICS_AGE_RANGE.min}
            max={ANALYTICS_AGE_RANGE.max}
            minRange={0}
            value={demographics.age}
            onChange={(age) => onDemographics({ ...demographics, age })}
            thumbFromLabel={`Youngest age of group ${group}`}
            thumbToLabel={`Oldest age of group ${group}`}
            marks={[
              { value: ANALYTICS_AGE_RANGE.min, label: String(ANALYTICS_AGE_RANGE.min) },
              { value: ANALYTICS_AGE_RANGE.max, label: String(ANALYTICS_AGE_RANGE.max) },
            ]}
          />
        </Box>
      </Input.Wrapper>
      <Group gap={6} aria-label={`Filters of group ${group}`}>
        {tags.length === 0 ? (
          <Badge variant="light" color="gray">
            No filters: every fragrance
          </Badge>
        ) : (
          tags.map((tag) => (
            <Badge key={tag} variant="light" style={{ textTransform: 'none', maxWidth: '100%' }}>
              {tag}
            </Badge>
          ))
        )}
      </Group>
      <Accordion variant="contained" multiple>
        <Accordion.Item value="fragrances">
          <Accordion.Control>
            List of Fragrances ({selected.size} of {allIds.length} selected)
          </Accordion.Control>
          <Accordion.Panel>
            {result.results.length === 0 ? (
              <Text c="dimmed">{WIZARD_MESSAGES.noFragrances}</Text>
            ) : (
              <Stack gap={6} mah={360} style={{ overflowY: 'auto' }}>
                <Checkbox
                  label={allChosen ? 'Deselect all' : 'Select all'}
                  checked={allChosen}
                  indeterminate={!allChosen && selected.size > 0}
                  onChange={(event) => toggle(allIds, event.currentTarget.checked)}
                />
                {result.results.map((row) => (
                  <Group key={row.id} gap="xs" wrap="nowrap" align="flex-start">
                    <Checkbox
                      aria-label={`Select ${row.name ?? row.prod} (${row.c_mi_number})`}
                      checked={selected.has(row.id)}
                      onChange={(event) => toggle([row.id], event.currentTarget.checked)}
                    />
                    <Anchor
                      component={Link}
                      to={paths.fragranceProfile.href(row.study_id, row.prod)}
                      target="_blank"
                      size="sm"
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {row.name ?? row.prod}
                    </Anchor>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {row.c_mi_number}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="studies">
          <Accordion.Control>List of studies ({studies.length})</Accordion.Control>
          <Accordion.Panel>
            {studies.length === 0 ? (
              <Text c="dimmed">{WIZARD_MESSAGES.noStudies}</Text>
            ) : (
              <Stack gap={6} mah={360} style={{ overflowY: 'auto' }}>
                {studies.map((study) => {
                  const chosen = study.productIds.filter((id) => selected.has(id)).length;
                  return (
                    <Group key={study.studyId} gap="xs" wrap="nowrap">
                      <Checkbox
                        aria-label={`Select the fragrances of study ${study.cmi}`}
                        checked={chosen === study.productIds.length}
                        indeterminate={chosen > 0 && chosen < study.productIds.length}
                        onChange={(event) => toggle(study.productIds, event.currentTarget.checked)}
                      />
                      <Anchor
                        component={Link}
                        to={paths.studyDetails.href(study.studyId)}
                        target="_blank"
                        size="sm"
                      >
                        {study.cmi}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {study.productIds.length} fragrance{study.productIds.length === 1 ? '' : 's'}
                      </Text>
                    </Group>
                  );
                })}
              </Stack>
            )}
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <GroupChart group={group} result={result} />
    </Stack>
  );
}
