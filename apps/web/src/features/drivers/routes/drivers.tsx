import { NORM_RULE, type DriversResponse } from '@accord/contracts';
import { Alert, Button, Grid, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMemo } from 'react';
import { BaseFields, useAddressChoices } from '../../../components/norms/base-fields.tsx';
import { BaseAnswerPanel, BaseChoicesPanel } from '../../../components/norms/base-layout.tsx';
import { useNormOptions } from '../../../components/norms/norms-api.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useDownloadDrivers, useDrivers, type DriversChoice } from '../api/drivers-api.ts';
import { DriversChart } from '../components/drivers-chart.tsx';
import { DriverTrace } from '../components/driver-trace.tsx';

const HOME = { label: 'Home', href: paths.home.href() };
const interval = (low: number | null, high: number | null) =>
  low === null || high === null ? '-' : `${low.toFixed(2)} to ${high.toFixed(2)}`;
const percent = (share: number) => `${Math.round(share * 100)} %`;
const drop = (value: number | null) => (value === null ? '-' : value.toFixed(2));

/** The colour of an agreement in words, from its start. */
function agreementColour(words: string): string {
  if (words.startsWith('The tests agree')) return 'teal.9';
  if (words.includes('somewhat')) return 'yellow.9';
  if (words.startsWith('The tests differ')) return 'orange.9';
  return 'dimmed';
}

function AttributesTable({ drivers, query }: { drivers: DriversResponse; query: DriversChoice }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table withTableBorder striped fz="sm" aria-label="Attributes ranked by pooled correlation">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Attribute</Table.Th>
            <Table.Th ta="right">Pooled r</Table.Th>
            <Table.Th ta="right">95 % interval</Table.Th>
            <Table.Th ta="right">Prediction interval</Table.Th>
            <Table.Th>Agreement</Table.Th>
            <Table.Th ta="right">Studies</Table.Th>
            <Table.Th ta="right">Respondents</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {drivers.attributes.map((attribute) => (
            <Table.Tr key={attribute.metric.name}>
              <Table.Th scope="row" fw={500}>
                {attribute.metric.label}
              </Table.Th>
              <Table.Td ta="right">
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  {attribute.r.toFixed(2)}
                  <DriverTrace drivers={drivers} query={query} attribute={attribute} />
                </Group>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {interval(attribute.ci_low, attribute.ci_high)}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {interval(attribute.pi_low, attribute.pi_high)}
              </Table.Td>
              <Table.Td>
                <Text
                  size="xs"
                  c={agreementColour(attribute.agreement)}
                  fw={500}
                  maw={240}
                  style={{ whiteSpace: attribute.agreement.length > 30 ? 'normal' : 'nowrap' }}
                >
                  {attribute.agreement}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{attribute.studies}</Table.Td>
              <Table.Td ta="right">{attribute.respondents.toLocaleString('en-GB')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function StrengthTable({ drivers, query }: { drivers: DriversResponse; query: DriversChoice }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table withTableBorder striped fz="sm" aria-label="Strength penalties">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Strength question</Table.Th>
            <Table.Th>Group</Table.Th>
            <Table.Th ta="right">Share</Table.Th>
            <Table.Th ta="right">Mean drop in liking</Table.Th>
            <Table.Th ta="right">Penalty</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {drivers.strength.flatMap((entry) =>
            (['too_weak', 'too_strong'] as const).map((side) => (
              <Table.Tr key={`${entry.metric.name}-${side}`}>
                {side === 'too_weak' ? (
                  <Table.Th scope="row" rowSpan={2} fw={500}>
                    <Group gap={4} wrap="nowrap">
                      {entry.metric.label}
                      <DriverTrace drivers={drivers} query={query} strength={entry} />
                    </Group>
                    <Text size="xs" c="dimmed">
                      {percent(entry.just_right)} just right, {entry.studies} studies
                    </Text>
                  </Table.Th>
                ) : null}
                <Table.Td>{side === 'too_weak' ? 'Weak or too weak' : 'Strong or too strong'}</Table.Td>
                <Table.Td ta="right">{percent(entry[side].share)}</Table.Td>
                <Table.Td ta="right">{drop(entry[side].drop)}</Table.Td>
                <Table.Td ta="right">{drop(entry[side].penalty)}</Table.Td>
              </Table.Tr>
            )),
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Drivers of liking in a category: what goes with liking across the library's studies. */
export function Component() {
  const options = useNormOptions();
  const choices = useAddressChoices();
  const { base, text, set } = choices;
  const liking = text('liking') ?? 'liking';
  const query: DriversChoice | null = base ? { ...base, liking } : null;
  const drivers = useDrivers(query);
  const download = useDownloadDrivers();
  const likingChoices = useMemo(
    () =>
      (options.data?.metrics ?? [])
        .filter((entry) => entry.type === 'Performance' && entry.kind === 'hedonic')
        .map((entry) => ({ value: entry.name, label: entry.label })),
    [options.data],
  );

  return (
    <>
      <PageHeader
        title="Drivers of Liking"
        breadcrumbs={[HOME, { label: 'Drivers of Liking' }]}
        description={`What goes with liking in a category: each attribute's correlation with liking in every study of a base, pooled across the studies. Shown to every user when the base holds at least ${NORM_RULE.studies} studies of ${NORM_RULE.clients} clients.`}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
          <BaseChoicesPanel title="Base" optionsError={options.error}>
            <Select
              label="Liking question"
              data={likingChoices}
              value={liking}
              allowDeselect={false}
              onChange={(value) => set({ liking: value === 'liking' ? null : value })}
            />
            <BaseFields options={options.data} choices={choices} />
          </BaseChoicesPanel>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <BaseAnswerPanel
            chosen={base !== null}
            result={drivers}
            prompt="Choose a category to see what drives liking in it."
            reading="Reading the studies of the base…"
            readingLabel="Reading the drivers"
            failure="The drivers could not be read"
          >
            {(found) => (
              <Stack gap="md" aria-busy={drivers.isFetching}>
                <Group justify="space-between" align="flex-start">
                  <Stack gap={2}>
                    <Title order={2} fz="lg">
                      Drivers of {found.liking.label}
                    </Title>
                    <Text size="sm" data-testid="drivers-base-description">
                      {found.base.description}
                    </Text>
                  </Stack>
                  {found.status === 'available' ? (
                    <Group gap="xs">
                      <Button
                        variant="default"
                        size="xs"
                        leftSection={<IconDownload size={14} aria-hidden="true" />}
                        loading={download.isPending && download.variables?.format === 'xlsx'}
                        onClick={() => query && download.mutate({ query, format: 'xlsx' })}
                      >
                        Workbook (xlsx)
                      </Button>
                      <Button
                        variant="default"
                        size="xs"
                        leftSection={<IconDownload size={14} aria-hidden="true" />}
                        loading={download.isPending && download.variables?.format === 'pptx'}
                        onClick={() => query && download.mutate({ query, format: 'pptx' })}
                      >
                        Slides (pptx)
                      </Button>
                    </Group>
                  ) : null}
                </Group>
                {found.status === 'withheld' ? (
                  <Alert color="orange" variant="light" title="Drivers withheld" role="status">
                    {found.reason} Widen the base: leave out the region, product type, methodology or years.
                  </Alert>
                ) : found.status === 'empty' ? (
                  <Alert color="gray" variant="light" title="No drivers" role="status">
                    {found.reason}
                  </Alert>
                ) : (
                  <>
                    {found.reason ? (
                      <Alert color="yellow" variant="light" role="status">
                        {found.reason}
                      </Alert>
                    ) : null}
                    <div>
                      <Title order={3} fz="md" mb={4}>
                        Attributes ranked by pooled correlation
                      </Title>
                      <Text size="sm" c="dimmed" mb="xs">
                        Bars: the correlation with {found.liking.label} pooled across studies; whiskers: its
                        95 % interval.
                      </Text>
                      <DriversChart drivers={found} />
                    </div>
                    <AttributesTable drivers={found} query={query!} />
                    {found.strength.length > 0 ? (
                      <div>
                        <Title order={3} fz="md" mb={4}>
                          Strength: what too weak or too strong costs
                        </Title>
                        <StrengthTable drivers={found} query={query!} />
                      </div>
                    ) : null}
                    <Stack gap={2}>
                      {found.method.map((line) => (
                        <Text key={line} size="xs" c="dimmed">
                          {line}
                        </Text>
                      ))}
                      <Text size="xs" c="dimmed">
                        All scores have been harmonized to a common 5 point scale.
                      </Text>
                    </Stack>
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
