import type { GroupDifference } from '@accord/contracts';
import { Badge, Table, Text, Title, Stack } from '@mantine/core';
import { differenceText, formatValue } from '../utils/groups.ts';

const AGGREGATION_TEXT: Record<string, string> = {
  mean: 'Mean',
  top_2_box: 'Top 2 box',
  just_right: 'Neutral',
  bottom_2_box: 'Bottom 2 box',
};

/** Per metric aggregation: both groups' values and whether group 1 differs significantly from group 2. */
export function DifferencesTable({ differences }: { differences: GroupDifference[] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Significant differences between the groups
      </Title>
      <Text size="sm" c="dimmed">
        Group 1 against group 2: Welch t-test for means, two-proportion z-test for boxes, two-sided, at 99, 95
        and 90 %.
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
                  {formatValue(row.aggregation, row.group1)}{' '}
                  <Text span size="xs" c="dimmed">
                    (n={row.n1})
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  {formatValue(row.aggregation, row.group2)}{' '}
                  <Text span size="xs" c="dimmed">
                    (n={row.n2})
                  </Text>
                </Table.Td>
                <Table.Td>
                  {row.level !== null ? (
                    <Badge
                      color={row.table === 'mt' ? 'green' : 'red'}
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
