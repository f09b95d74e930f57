import { WIZARD_MESSAGES, type TopFamilyFragrance } from '@accord/contracts';
import { Alert, Anchor, Loader, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Suspense } from 'react';
import { Link } from 'react-router';
import { EChart } from '../../../components/charts/chart.tsx';
import { NormButton } from '../../../components/norms/norm-button.tsx';
import { paths } from '../../../config/paths.ts';
import { sideChartLabel } from '../utils/labels.ts';

const display = (row: TopFamilyFragrance) => row.name ?? row.prod;

/** The side chart: the family's top fragrances by top 2 box liking, best first, with profile links. */
export function TopFragrances({
  family,
  loading,
  error,
  fragrances,
}: {
  family: string;
  loading: boolean;
  error: string | null;
  fragrances: TopFamilyFragrance[] | null;
}) {
  return (
    <Stack gap="sm" aria-live="polite">
      <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
        {WIZARD_MESSAGES.topFamily(family)}
      </Title>
      {loading ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">Searching the top fragrances…</Text>
        </Group>
      ) : error ? (
        <Alert color="red" title="The search failed">
          {error}
        </Alert>
      ) : !fragrances || fragrances.length === 0 ? (
        <Text c="dimmed">{WIZARD_MESSAGES.noFamilyData}</Text>
      ) : (
        <>
          <Suspense fallback={<Text size="sm">Loading the chart…</Text>}>
            <EChart
              style={{ height: 60 + fragrances.length * 40, width: '100%' }}
              opts={{ renderer: 'svg' }}
              option={{
                aria: { enabled: true },
                tooltip: { trigger: 'axis', valueFormatter: (value: number) => `${value} %` },
                grid: { left: 8, right: 40, top: 8, bottom: 24, containLabel: true },
                xAxis: { type: 'value', max: 100, name: 'T2B %' },
                yAxis: {
                  type: 'category',
                  inverse: true,
                  data: fragrances.map((row) => sideChartLabel(display(row))),
                },
                series: [
                  {
                    type: 'bar',
                    itemStyle: { color: '#862e9c' },
                    label: { show: true, position: 'right', formatter: '{c} %' },
                    data: fragrances.map((row) => Math.round((row.top_2_box ?? 0) * 100)),
                  },
                ],
              }}
            />
          </Suspense>
          <Table.ScrollContainer minWidth={320}>
            <Table striped fz="sm" aria-label={WIZARD_MESSAGES.topFamily(family)}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>#</Table.Th>
                  <Table.Th>Fragrance</Table.Th>
                  <Table.Th style={{ whiteSpace: 'nowrap' }}>CMI #</Table.Th>
                  <Table.Th ta="right">T2B liking</Table.Th>
                  <Table.Th w={56}>Norm</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {fragrances.map((row, index) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{index + 1}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Anchor
                        component={Link}
                        to={paths.fragranceProfile.href(row.study_id, row.prod)}
                        target="_blank"
                      >
                        {display(row)}
                      </Anchor>
                    </Table.Td>
                    {/* A CMI number is one token: it never breaks over lines. */}
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.c_mi_number}</Table.Td>
                    <Table.Td ta="right">
                      {row.top_2_box === null ? '-' : `${Math.round(row.top_2_box * 100)} %`} (n={row.n})
                    </Table.Td>
                    <Table.Td>
                      <NormButton
                        product={{ id: row.id, kind: 'fragrance' }}
                        measures={[{ metric: 'liking', aggregation: 'top_2_box', label: 'T2B liking' }]}
                        productLabel={display(row)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}
