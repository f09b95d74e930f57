import {
  AGGREGATIONS,
  NORM_DECK_FILE_NAME,
  NORM_RULE,
  type Aggregation,
  type NormResponse,
} from '@accord/contracts';
import {
  Alert,
  Grid,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { DownloadButton } from '../../../components/download-button.tsx';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { chooseNormBase } from '../../../components/norms/chosen-base.ts';
import { NormChart } from '../../../components/norms/norm-chart.tsx';
import { formatNormScore, normSentence } from '../../../components/norms/norm-format.ts';
import {
  useDownloadNorm,
  useDownloadNormDeck,
  useNorm,
  useNormOptions,
  type NormBaseChoice,
  type NormMeasure,
} from '../../../components/norms/norms-api.ts';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };
const DEFAULT_MEASURE: NormMeasure = { metric: 'liking', aggregation: 'top_2_box' };

/** The screen's choices as they stand in the address (shareable, restored on reload). */
function useChoices() {
  const [params, setParams] = useSearchParams();
  const text = (key: string) => params.get(key) || null;
  const year = (key: string) => {
    const value = Number(params.get(key));
    return params.get(key) && Number.isInteger(value) ? value : null;
  };
  const aggregation = text('aggregation');
  const measure: NormMeasure = {
    metric: text('metric') ?? DEFAULT_MEASURE.metric,
    aggregation: AGGREGATIONS.includes(aggregation as Aggregation)
      ? (aggregation as Aggregation)
      : DEFAULT_MEASURE.aggregation,
  };
  const category = text('category');
  const base: NormBaseChoice | null = category
    ? {
        category,
        region: text('region'),
        product_type: text('product_type'),
        methodology: text('methodology'),
        year_from: year('year_from'),
        year_to: year('year_to'),
        kind: text('kind') === 'concept' ? 'concept' : 'fragrance',
      }
    : null;
  const set = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next, { replace: true });
  };
  return { measure, base, kind: text('kind') === 'concept' ? 'concept' : 'fragrance', text, set };
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
  const { measure, base, kind, text, set } = useChoices();
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
  const years = options.data?.years
    ? Array.from({ length: options.data.years.max - options.data.years.min + 1 }, (_, index) =>
        String(options.data!.years!.min + index),
      )
    : [];
  const productTypes = (options.data?.product_types ?? [])
    .filter((entry) => !base || entry.category === base.category)
    .map((entry) => entry.value);

  return (
    <>
      <PageHeader
        title="Norms"
        breadcrumbs={[HOME, { label: 'Norms' }]}
        description={`How a score compares with the library: the distribution of product scores over a base of studies. A norm is an anonymous aggregate, shown when its base holds at least ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients.`}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="md" radius="md">
            <Stack gap="sm">
              <Title order={2} fz="lg">
                Metric and base
              </Title>
              {options.isError ? (
                <Alert color="red" variant="light">
                  {options.error.message}
                </Alert>
              ) : null}
              <SegmentedControl
                aria-label="Products"
                value={kind}
                onChange={(value) => set({ kind: value === 'concept' ? 'concept' : null })}
                data={[
                  { value: 'fragrance', label: 'Fragrances' },
                  { value: 'concept', label: 'Concepts' },
                ]}
              />
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
              <Select
                label="Category"
                required
                placeholder="Choose a category"
                data={options.data?.categories ?? []}
                value={base?.category ?? null}
                searchable
                onChange={(value) => set({ category: value, product_type: null })}
              />
              <Select
                label="Region"
                placeholder="Any"
                clearable
                data={options.data?.regions ?? []}
                value={text('region')}
                onChange={(value) => set({ region: value })}
              />
              <Select
                label="Product type"
                placeholder="Any"
                clearable
                searchable
                data={[...new Set(productTypes)]}
                value={text('product_type')}
                onChange={(value) => set({ product_type: value })}
              />
              <Select
                label="Methodology"
                placeholder="Any"
                clearable
                data={options.data?.methodologies ?? []}
                value={text('methodology')}
                onChange={(value) => set({ methodology: value })}
              />
              <SimpleGrid cols={2} spacing="sm">
                <Select
                  label="From year"
                  placeholder="Any"
                  clearable
                  data={years}
                  value={text('year_from')}
                  onChange={(value) => set({ year_from: value })}
                />
                <Select
                  label="To year"
                  placeholder="Any"
                  clearable
                  data={years.filter((year) => !text('year_from') || year >= text('year_from')!)}
                  value={text('year_to')}
                  onChange={(value) => set({ year_to: value })}
                />
              </SimpleGrid>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder p="md" radius="md" mih={300}>
            {!base ? (
              <Text c="dimmed" ta="center" py="xl" role="status">
                Choose a category to see its norm.
              </Text>
            ) : norm.isPending ? (
              <Group gap="sm" py="lg" justify="center">
                <Loader size="sm" aria-label="Reading the norm" />
                <Text c="dimmed">Reading the norm…</Text>
              </Group>
            ) : norm.isError ? (
              <Alert color="red" variant="light" title="The norm could not be read">
                {norm.error.message}
              </Alert>
            ) : (
              <Stack gap="md">
                {normSentence(norm.data) ? (
                  <Text size="lg" fw={500} data-testid="norm-sentence">
                    {normSentence(norm.data)}
                  </Text>
                ) : null}
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Title order={2} fz="lg">
                      {norm.data.metric.label}, {norm.data.aggregation.label}
                    </Title>
                    <Text size="sm" data-testid="norm-base-description">
                      {norm.data.base.description}
                    </Text>
                  </Stack>
                  {norm.data.status === 'available' ? (
                    <Group gap="xs" wrap="nowrap">
                      <DownloadButton
                        label="Download the norm (xlsx)"
                        tooltip="Download the norm as a spreadsheet"
                        loading={download.isPending}
                        onClick={() => download.mutate({ base, measure })}
                      />
                      <SlidesButton
                        fileName={NORM_DECK_FILE_NAME}
                        label="Download slides of the norm"
                        loading={slides.isPending}
                        onClick={() => slides.mutate({ base, measure })}
                      />
                    </Group>
                  ) : null}
                </Group>
                {norm.data.status === 'withheld' ? (
                  <Alert color="orange" variant="light" title="Norm withheld" role="status">
                    {norm.data.reason}
                    {norm.data.studies !== null
                      ? ` This base holds ${norm.data.studies} ${norm.data.studies === 1 ? 'study' : 'studies'} of ${norm.data.clients} ${norm.data.clients === 1 ? 'client' : 'clients'}.`
                      : ''}{' '}
                    Widen the base: leave out the region, product type, methodology or years.
                  </Alert>
                ) : norm.data.status === 'empty' ? (
                  <Alert color="gray" variant="light" title="No scores" role="status">
                    {norm.data.reason}
                  </Alert>
                ) : (
                  <Grid gap="md">
                    <Grid.Col span={12}>
                      <NormChart norm={norm.data} />
                    </Grid.Col>
                    <Grid.Col span={{ base: 12, sm: 8, lg: 6 }}>
                      <NormTable norm={norm.data} />
                    </Grid.Col>
                  </Grid>
                )}
                <Text size="xs" c="dimmed">
                  One score per {norm.data.base.kind}, as the metric search computes it; percentiles by linear
                  interpolation. Dashed lines: percentiles; solid: action standards. All scores have been
                  harmonized to a common 5 point scale.
                </Text>
              </Stack>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
    </>
  );
}
