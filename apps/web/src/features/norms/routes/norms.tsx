import {
  AGGREGATIONS,
  NORM_DECK_FILE_NAME,
  NORM_RULE,
  type Aggregation,
  type NormResponse,
} from '@accord/contracts';
import { Alert, Grid, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { DownloadButton } from '../../../components/download-button.tsx';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { BaseFields, useAddressChoices } from '../../../components/norms/base-fields.tsx';
import { BaseAnswerPanel, BaseChoicesPanel } from '../../../components/norms/base-layout.tsx';
import { chooseNormBase } from '../../../components/norms/chosen-base.ts';
import { NormChart } from '../../../components/norms/norm-chart.tsx';
import { formatNormScore, normSentence } from '../../../components/norms/norm-format.ts';
import {
  useDownloadNorm,
  useDownloadNormDeck,
  useNorm,
  useNormOptions,
  type NormMeasure,
} from '../../../components/norms/norms-api.ts';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };
const DEFAULT_MEASURE: NormMeasure = { metric: 'liking', aggregation: 'top_2_box' };

/** The screen's choices as they stand in the address (shareable, restored on reload). */
function useChoices() {
  const choices = useAddressChoices();
  const aggregation = choices.text('aggregation');
  const measure: NormMeasure = {
    metric: choices.text('metric') ?? DEFAULT_MEASURE.metric,
    aggregation: AGGREGATIONS.includes(aggregation as Aggregation)
      ? (aggregation as Aggregation)
      : DEFAULT_MEASURE.aggregation,
  };
  return { ...choices, measure };
}

function NormTable({ norm }: { norm: NormResponse }) {
  const rows: [string, string][] = [
    [norm.base.kind === 'concept' ? 'Concepts' : 'Fragrances', String(norm.products ?? '-')],
    ['Studies', String(norm.studies ?? '-')],
    ['Clients', String(norm.clients ?? '-')],
    ['Mean', formatNormScore(norm, norm.mean)],
    ...norm.lines.map((line): [string, string] => [line.label, formatNormScore(norm, line.value)]),
  ];
  return (
    <Table withTableBorder striped aria-label="Norm" fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Statistic</Table.Th>
          <Table.Th ta="right">{norm.aggregation.label}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" fw={label.startsWith('Action standard') ? 700 : 500}>
              {label}
            </Table.Th>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Norms: the distribution of product scores over a base of library products (METRICS.md section 5). */
export function Component() {
  const options = useNormOptions();
  const choices = useChoices();
  const { measure, base, set } = choices;
  const norm = useNorm(base, measure);
  const download = useDownloadNorm();
  const slides = useDownloadNormDeck();
  // The base the norm buttons elsewhere offer beside a product's own category.
  useEffect(() => {
    if (base) chooseNormBase(base);
  }, [JSON.stringify(base)]); // eslint-disable-line react-hooks/exhaustive-deps -- the base's content, not its identity

  const metric = options.data?.metrics.find((entry) => entry.name === measure.metric);
  const metricChoices = useMemo(
    () =>
      (options.data?.metrics ?? []).map((entry) => ({
        value: entry.name,
        label: `${entry.label} (${entry.type})`,
      })),
    [options.data],
  );

  return (
    <>
      <PageHeader
        title="Norms"
        breadcrumbs={[HOME, { label: 'Norms' }]}
        description={`How a score compares with the library: the distribution of product scores over a base of studies. A norm is an anonymous aggregate, shown when its base holds at least ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients.`}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <BaseChoicesPanel title="Metric and base" optionsError={options.error}>
            <BaseFields
              options={options.data}
              choices={choices}
              afterKind={
                <>
                  <Select
                    label="Metric"
                    data={metricChoices}
                    value={measure.metric}
                    searchable
                    allowDeselect={false}
                    onChange={(value) => {
                      const next = options.data?.metrics.find((entry) => entry.name === value);
                      const keep = next?.aggregations.some((entry) => entry.value === measure.aggregation);
                      set({
                        metric: value,
                        aggregation: keep ? measure.aggregation : (next?.aggregations[0]?.value ?? null),
                      });
                    }}
                  />
                  <Select
                    label="Aggregation"
                    data={(metric?.aggregations ?? []).map((entry) => ({
                      value: entry.value,
                      label: entry.label,
                    }))}
                    value={measure.aggregation}
                    allowDeselect={false}
                    onChange={(value) => set({ aggregation: value })}
                  />
                </>
              }
            />
          </BaseChoicesPanel>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <BaseAnswerPanel
            chosen={base !== null}
            result={norm}
            prompt="Choose a category to see its norm."
            reading="Reading the norm…"
            readingLabel="Reading the norm"
            failure="The norm could not be read"
          >
            {(found) => (
              <Stack gap="md">
                {normSentence(found) ? (
                  <Text size="lg" fw={500} data-testid="norm-sentence">
                    {normSentence(found)}
                  </Text>
                ) : null}
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Title order={2} fz="lg">
                      {found.metric.label}, {found.aggregation.label}
                    </Title>
                    <Text size="sm" data-testid="norm-base-description">
                      {found.base.description}
                    </Text>
                  </Stack>
                  {found.status === 'available' ? (
                    <Group gap="xs" wrap="nowrap">
                      <DownloadButton
                        label="Download the norm (xlsx)"
                        tooltip="Download the norm as a spreadsheet"
                        loading={download.isPending}
                        onClick={() => download.mutate({ base: base!, measure })}
                      />
                      <SlidesButton
                        fileName={NORM_DECK_FILE_NAME}
                        label="Download slides of the norm"
                        loading={slides.isPending}
                        onClick={() => slides.mutate({ base: base!, measure })}
                      />
                    </Group>
                  ) : null}
                </Group>
                {found.status === 'withheld' ? (
                  <Alert color="orange" variant="light" title="Norm withheld" role="status">
                    {found.reason}
                    {found.studies !== null
                      ? ` This base holds ${found.studies} ${found.studies === 1 ? 'study' : 'studies'} of ${found.clients} ${found.clients === 1 ? 'client' : 'clients'}.`
                      : ''}{' '}
                    Widen the base: leave out the region, product type, methodology or years.
                  </Alert>
                ) : found.status === 'empty' ? (
                  <Alert color="gray" variant="light" title="No scores" role="status">
                    {found.reason}
                  </Alert>
                ) : (
                  <Grid gap="md">
                    <Grid.Col span={12}>
                      <NormChart norm={found} />
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, sm: 8, lg: 6 }}>
                      <NormTable norm={found} />
                    </Grid.Col>
                  </Grid>
                )}
                <Text size="xs" c="dimmed">
                  One score per {found.base.kind}, as the metric search computes it; percentiles by linear
                  interpolation. Dashed lines: percentiles; solid: action standards. All scores have been
                  harmonized to a common 5 point scale.
                </Text>
              </Stack>
            )}
          </BaseAnswerPanel>
        </Grid.Col>
      </Grid>
    </>
  );
}
