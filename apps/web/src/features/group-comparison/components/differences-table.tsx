import {
  markIsGood,
  type Aggregation,
  type AnalyticsDemographicsFilter,
  type GroupComparisonResult,
  type GroupDifference,
} from '@accord/contracts';
import { Badge, Group, Table, Text, Title, Stack } from '@mantine/core';
import { TraceButton } from '../../../components/trace/trace-drawer.tsx';
import { differenceText, formatValue } from '../utils/groups.ts';

const AGGREGATION_TEXT: Record<string, string> = {
  mean: 'Mean',
  top_2_box: 'Top 2 box',
  just_right: 'Neutral',
  bottom_2_box: 'Bottom 2 box',
};

/** A compared group as the trace needs it. */
export interface GroupSource {
  products: number[];
  demographics: AnalyticsDemographicsFilter;
}

const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, one: string, many: string) => `${count(value)} ${value === 1 ? one : many}`;

/** Both bases of a group's score: the fragrances (the test's n) and the respondents behind them. */
function BasesText({ products, respondents }: { products: number; respondents: number }) {
  return (
    <Text size="xs" c="dimmed">
      ({plural(products, 'fragrance', 'fragrances')}, {plural(respondents, 'respondent', 'respondents')})
    </Text>
  );
}

/**
 * Per metric aggregation: both groups' values (the mean of their fragrances' scores), their two bases,
 * and whether group 1 differs significantly from group 2.
 */
export function DifferencesTable({
  differences,
  bases,
  groups,
}: {
  differences: GroupDifference[];
  bases: GroupComparisonResult['bases'];
  /** Each group's products and respondent filters, for "How was this computed?" of its values. */
  groups?: [GroupSource, GroupSource];
}) {
  const trace = (row: GroupDifference, side: 0 | 1) => {
    if (!groups) return null;
    const [own, other] = side === 0 ? groups : [groups[1], groups[0]];
    return (
      <TraceButton
        request={{
          products: own.products,
          metric: row.metric,
          aggregation: row.aggregation as Aggregation,
          unit: 'products',
          demographics: own.demographics,
          versus: { products: other.products, demographics: other.demographics },
        }}
        label={`Group ${side + 1}, ${row.label} ${AGGREGATION_TEXT[row.aggregation] ?? row.aggregation}`}
        testId={`trace-group${side + 1}-${row.key}`}
      />
    );
  };
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Significant differences between the groups
      </Title>
      <Text size="sm" c="dimmed">
        The fragrance is the unit: each fragrance scores its mean or box share over its respondents, and group
        1&apos;s scores are compared with group 2&apos;s by a Welch t-test (n = fragrances), two-sided, at 99,
        95 and 90 %. A group&apos;s value is the mean of its fragrances&apos; scores.
      </Text>
      <Text size="sm" data-testid="group-bases">
        Bases: group 1 {plural(bases.group1.products, 'fragrance', 'fragrances')} and{' '}
        {plural(bases.group1.respondents, 'respondent', 'respondents')}; group 2{' '}
        {plural(bases.group2.products, 'fragrance', 'fragrances')} and{' '}
        {plural(bases.group2.respondents, 'respondent', 'respondents')}.
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table striped withTableBorder fz="sm" aria-label="Differences between the groups">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Metric</Table.Th>
              <Table.Th>Aggregation</Table.Th>
              <Table.Th ta="right">Group 1</Table.Th>
              <Table.Th ta="right">Group 2</Table.Th>
              <Table.Th>Difference</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {differences.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>{row.label}</Table.Td>
                <Table.Td>
                  {row.aggregation === 'just_right' && row.metric === 'strength'
                    ? 'Just right'
                    : (AGGREGATION_TEXT[row.aggregation] ?? row.aggregation)}
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    {formatValue(row.aggregation, row.group1)}
                    {row.group1 !== null && row.n1 > 0 ? trace(row, 0) : null}
                  </Group>
                  <BasesText products={row.n1} respondents={row.respondents1} />
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    {formatValue(row.aggregation, row.group2)}
                    {row.group2 !== null && row.n2 > 0 ? trace(row, 1) : null}
                  </Group>
                  <BasesText products={row.n2} respondents={row.respondents2} />
                </Table.Td>
                <Table.Td>
                  {row.level !== null && row.table !== null ? (
                    // Good news green, bad news red: a higher bottom 2 box is bad news (METRICS.md 2).
                    <Badge
                      color={markIsGood(row.metric, row.aggregation, row.table) ? 'green' : 'red'}
                      variant="light"
                      style={{ textTransform: 'none' }}
                    >
                      {differenceText(row)}
                    </Badge>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {differenceText(row)}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
