import {
  AGGREGATIONS,
  NORM_RULE,
  PLAN_PRODUCTS,
  type Aggregation,
  type PlanDesign,
  type PlanResponse,
} from '@accord/contracts';
import {
  Alert,
  Checkbox,
  Grid,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMemo } from 'react';
import { DownloadButton } from '../../../components/download-button.tsx';
import { BaseFields, useAddressChoices } from '../../../components/norms/base-fields.tsx';
import { BaseAnswerPanel, BaseChoicesPanel } from '../../../components/norms/base-layout.tsx';
import { useNormOptions } from '../../../components/norms/norms-api.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useDownloadPlan, usePlan, type PlanChoice } from '../api/planner-api.ts';
import { PowerCurve } from '../components/power-curve.tsx';

const HOME = { label: 'Home', href: paths.home.href() };
const SHARE_DEFAULT = 10;
const MEAN_DEFAULT = 0.3;
const count = (n: number) => n.toLocaleString('en-GB');

function PlanFigures({ plan }: { plan: PlanResponse }) {
  const answer = plan.plan!;
  const standard = plan.action_standard;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Paper withBorder p="md" radius="md" bg="var(--mantine-color-blue-light)">
        <Text size="sm" fw={600}>
          Consumers needed
        </Text>
        <Text fz={36} fw={700} lh={1.2} data-testid="plan-total">
          {count(answer.total)}
        </Text>
        <Text size="sm">
          {answer.per_product !== null
            ? `${count(answer.per_product)} per product × ${plan.products} products`
            : `in all, each rating all ${plan.products} products`}
        </Text>
        <Text size="sm" mt="xs" data-testid="plan-words">
          {answer.words}
        </Text>
        <Text size="xs" c="dimmed" mt={4}>
          {answer.test}; effect size {answer.effect_size.toFixed(3)}.
        </Text>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Text size="sm" fw={600}>
          Against the action standard
        </Text>
        {standard ? (
          <>
            <Text fz={36} fw={700} lh={1.2} data-testid="plan-standard-total">
              {count(standard.plan.total)}
            </Text>
            <Text size="sm">{standard.label}</Text>
            <Text size="sm" mt="xs">
              {standard.plan.words}
            </Text>
            <Text size="xs" c="dimmed" mt={4}>
              {standard.plan.test}.
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            This base has no P75 to plan against.
          </Text>
        )}
      </Paper>
    </SimpleGrid>
  );
}

function EstimatesTable({ plan }: { plan: PlanResponse }) {
  const estimates = plan.estimates!;
  const rows: [string, string][] = [
    ['Studies / clients in the base', `${plan.base_studies ?? '-'} / ${plan.base_clients ?? '-'}`],
    ['Answers of the base', count(estimates.answers)],
    ...(plan.aggregation.share
      ? ([[`Share (${plan.aggregation.label})`, `${((estimates.share ?? 0) * 100).toFixed(1)} %`]] as [
          string,
          string,
        ][])
      : ([
          ['Mean', estimates.mean === null ? '-' : estimates.mean.toFixed(2)],
          ['Standard deviation of one answer', estimates.sd === null ? '-' : estimates.sd.toFixed(3)],
        ] as [string, string][])),
    [
      "Correlation of a consumer's answers to two products",
      estimates.correlation === null
        ? 'no complete-block study'
        : `${estimates.correlation.toFixed(3)} (${estimates.correlation_studies} studies)`,
    ],
  ];
  return (
    <Table withTableBorder striped aria-label="Estimates from the base" fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>From the base</Table.Th>
          <Table.Th ta="right">Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" fw={500}>
              {label}
            </Table.Th>
            <Table.Td ta="right">{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The study planner: consumers needed for the next test, from the library's own answers. */
export function Component() {
  const options = useNormOptions();
  const choices = useAddressChoices();
  const { base, text, set } = choices;
  const download = useDownloadPlan();

  const metricName = text('metric') ?? 'liking';
  const metric = options.data?.metrics.find((entry) => entry.name === metricName);
  const aggregationChoices = (metric?.aggregations ?? []).filter((entry) => entry.value !== 'variance');
  const aggregationText = text('aggregation');
  // The address's aggregation when the metric offers it, else its mean, else its first box.
  const offered = aggregationChoices.map((entry) => entry.value);
  const aggregation: Aggregation =
    AGGREGATIONS.includes(aggregationText as Aggregation) &&
    (offered.length === 0 || offered.includes(aggregationText as Aggregation))
      ? (aggregationText as Aggregation)
      : offered.length === 0 || offered.includes('mean')
        ? 'mean'
        : offered[0]!;
  const share = !['mean', 'eeg_mean'].includes(aggregation);
  const design: PlanDesign = text('design') === 'sequential_monadic' ? 'sequential_monadic' : 'monadic';
  const number = (key: string, fallback: number) => {
    const value = Number(text(key));
    return text(key) !== null && Number.isFinite(value) ? value : fallback;
  };
  const difference = number('difference', share ? SHARE_DEFAULT : MEAN_DEFAULT);
  const products = number('products', 2);
  const alpha = number('alpha', 0.05);
  const power = number('power', 0.8);
  const correction = text('correction') === 'bonferroni' ? 'bonferroni' : 'none';

  const query: PlanChoice | null = base
    ? {
        ...base,
        metric: metricName,
        aggregation,
        design,
        difference,
        products,
        alpha,
        power,
        correction,
      }
    : null;
  const plan = usePlan(query);
  const metricChoices = useMemo(
    () =>
      (options.data?.metrics ?? [])
        .filter((entry) => entry.kind !== 'implicit')
        .map((entry) => ({ value: entry.name, label: `${entry.label} (${entry.type})` })),
    [options.data],
  );

  return (
    <>
      <PageHeader
        title="Study Planner"
        breadcrumbs={[HOME, { label: 'Study Planner' }]}
        description={`How many consumers the next test needs, from the variance of the library's own answers on a base of studies (at least ${NORM_RULE.studies} studies of ${NORM_RULE.clients} clients).`}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <BaseChoicesPanel title="Base and metric" optionsError={options.error}>
              <BaseFields options={options.data} choices={choices} />
              <Select
                label="Metric"
                data={metricChoices}
                value={metricName}
                searchable
                allowDeselect={false}
                onChange={(value) => set({ metric: value, aggregation: null, difference: null })}
              />
              <Select
                label="Compare"
                data={aggregationChoices.map((entry) => ({
                  value: entry.value,
                  label: entry.value === 'mean' ? 'Mean (5-point scale)' : `${entry.label} share`,
                }))}
                value={aggregation}
                allowDeselect={false}
                onChange={(value) => set({ aggregation: value, difference: null })}
              />
            </BaseChoicesPanel>
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <Title order={2} fz="lg">
                  The test
                </Title>
                <SegmentedControl
                  aria-label="Design"
                  value={design}
                  onChange={(value) => set({ design: value === 'sequential_monadic' ? value : null })}
                  data={[
                    { value: 'monadic', label: 'Monadic' },
                    { value: 'sequential_monadic', label: 'Sequential monadic' },
                  ]}
                />
                <Text size="xs" c="dimmed">
                  {design === 'monadic'
                    ? 'Each consumer rates one product.'
                    : 'Each consumer rates every product, one after the other.'}
                </Text>
                <NumberInput
                  label="Products"
                  min={PLAN_PRODUCTS.min}
                  max={PLAN_PRODUCTS.max}
                  value={products}
                  onChange={(value) => set({ products: typeof value === 'number' ? value : null })}
                  clampBehavior="strict"
                  allowDecimal={false}
                />
                <NumberInput
                  label={
                    share
                      ? 'Difference worth detecting (points of the share)'
                      : 'Difference worth detecting (5-point mean)'
                  }
                  min={share ? 1 : 0.05}
                  max={share ? 50 : 2}
                  step={share ? 1 : 0.05}
                  decimalScale={share ? 1 : 2}
                  value={difference}
                  onChange={(value) =>
                    set({ difference: typeof value === 'number' && value > 0 ? value : null })
                  }
                />
                <SimpleGrid cols={2} spacing="sm">
                  <Select
                    label="Alpha"
                    data={['0.01', '0.05', '0.1']}
                    value={String(alpha)}
                    allowDeselect={false}
                    onChange={(value) => set({ alpha: value === '0.05' ? null : value })}
                  />
                  <Select
                    label="Power"
                    data={[
                      { value: '0.8', label: '80 %' },
                      { value: '0.9', label: '90 %' },
                      { value: '0.95', label: '95 %' },
                    ]}
                    value={String(power)}
                    allowDeselect={false}
                    onChange={(value) => set({ power: value === '0.8' ? null : value })}
                  />
                </SimpleGrid>
                <Checkbox
                  label="Bonferroni correction across the products' pairs"
                  description="Alpha is divided by the number of pairs of products."
                  checked={correction === 'bonferroni'}
                  onChange={(event) => set({ correction: event.currentTarget.checked ? 'bonferroni' : null })}
                />
              </Stack>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <BaseAnswerPanel
            chosen={base !== null}
            result={plan}
            prompt="Choose a category to plan a test on its base."
            reading="Computing the plan…"
            readingLabel="Computing the plan"
            failure="The plan could not be computed"
          >
            {(found) => (
              <Stack gap="md" aria-busy={plan.isFetching}>
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Stack gap={2}>
                    <Title order={2} fz="lg">
                      {found.metric.label}, {found.aggregation.label}
                    </Title>
                    <Text size="sm" data-testid="plan-base-description">
                      Base: {found.base.description}
                    </Text>
                  </Stack>
                  {found.plan ? (
                    <DownloadButton
                      label="Download the plan (xlsx)"
                      tooltip="Download the plan as a spreadsheet"
                      loading={download.isPending}
                      onClick={() => query && download.mutate(query)}
                    />
                  ) : null}
                </Group>
                {found.status !== 'available' ? (
                  <Alert color="orange" variant="light" title="No plan from this base" role="status">
                    {found.reason}
                    {found.base_studies !== null && found.status === 'withheld'
                      ? ` It holds ${found.base_studies} ${found.base_studies === 1 ? 'study' : 'studies'} of ${found.base_clients} ${found.base_clients === 1 ? 'client' : 'clients'}.`
                      : ''}{' '}
                    Widen the base: leave out the region, product type, methodology or years.
                  </Alert>
                ) : found.plan === null ? (
                  <Alert color="orange" variant="light" title="No plan" role="status">
                    {found.plan_reason}
                  </Alert>
                ) : (
                  <>
                    <PlanFigures plan={found} />
                    <div>
                      <Title order={3} fz="md" mb={4}>
                        Power curve
                      </Title>
                      <Text size="sm" c="dimmed">
                        The smallest difference detectable with {Math.round(found.power * 100)} % power
                        against the number of consumers.
                      </Text>
                      <PowerCurve plan={found} />
                    </div>
                    <Grid gap="md">
                      <Grid.Col span={{ base: 12, lg: 7 }}>
                        <EstimatesTable plan={found} />
                      </Grid.Col>
                      <Grid.Col span={{ base: 12, lg: 5 }}>
                        <Stack gap={4}>
                          {found.notes.map((note) => (
                            <Text key={note} size="xs" c="dimmed">
                              {note}
                            </Text>
                          ))}
                        </Stack>
                      </Grid.Col>
                    </Grid>
                  </>
                )}
              </Stack>
            )}
          </BaseAnswerPanel>
        </Grid.Col>
      </Grid>
    </>
  );
}
