import {
  AGGREGATION_NAMES,
  LOW_BASE,
  type Aggregation,
  type DemographicCondition,
  type ProfileRow,
  YES_NO_SHARE_LABEL,
} from '@accord/contracts';
import { Badge, Box, Group, Table, Text, Tooltip } from '@mantine/core';
import { TraceButton } from '../../../components/trace/trace-drawer.tsx';
import {
  baseText,
  formatProfileValue,
  isHighlighted,
  metricLabel,
  profileColumns,
  type ProfileTableKind,
} from '../utils/profile-format.ts';
import { NormButton } from '../../../components/norms/norm-button.tsx';
import type { NormProduct } from '../../../components/norms/norms-api.ts';

/** The scores of a profile row a norm is offered for, the usual one first. */
const NORM_AGGREGATIONS: readonly Aggregation[] = [
  'top_2_box',
  'mean',
  'top_box',
  'bottom_2_box',
  'bottom_box',
];

/**
 * The numbers a profile row shows, as trace aggregations: EEG rows a mean; implicit rows their yes/no
 * shares (the boxes of their answers); yes/no rows their share selected alone.
 */
function rowAggregations(row: ProfileRow): Aggregation[] {
  if (row.metric_type === 'EEG') return ['mean'];
  if (row.metric_type === 'Implicit') return ['hi_yes', 'irt_yes', 'irt_no', 'hi_no'];
  // A yes/no row is its share selected: the share of its "yes" answers (the top box of 1 or 5).
  if (row.is_binary_scale) return ['top_box'];
  return ['mean', 'top_box', 'top_2_box', 'just_right', 'bottom_2_box', 'bottom_box'];
}

/**
 * One profile table (document 2 section 9): mean with 2 decimals, boxes as rounded percentages, '-'
 * when missing, N/A on placeholder rows; each number shows its base n on hover, and
 * the last column lists it for keyboard and screen-reader users.
 */
export function ProfileTable({
  label,
  kind,
  rows,
  empty,
  highlighted,
  norm,
  trace,
}: {
  /** The product and respondent conditions of the profile, for "How was this computed?" of a row. */
  trace?: { productId: number; demographics: DemographicCondition[] };
  label: string;
  kind: ProfileTableKind;
  rows: ProfileRow[];
  empty: string;
  /** Metrics chosen in the link that opened the page (query attributes). */
  highlighted: Set<string>;
  /** The product of the page: each row's norm one click away (a column before the base n). */
  norm?: { product: NormProduct; productLabel: string };
}) {
  if (rows.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    );
  }
  const columns = profileColumns(kind);
  return (
    <Box
      role="region"
      aria-label={`${label}, scrollable`}
      tabIndex={0}
      style={{ overflowX: 'auto', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Table
        striped
        withTableBorder
        verticalSpacing="xs"
        fz="sm"
        aria-label={label}
        miw={kind === 'genisys' ? 360 : 760}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th
                key={column.key}
                style={{ whiteSpace: 'nowrap' }}
                ta={column.key === 'metric_type' || column.key === 'metric_name' ? 'left' : 'right'}
              >
                {column.label}
              </Table.Th>
            ))}
            {norm ? <Table.Th w={56}>Norm</Table.Th> : null}
            <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
              Base n
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr
              key={row.metric}
              bg={isHighlighted(row, highlighted) ? 'var(--mantine-primary-color-light)' : undefined}
            >
              {columns.map((column, index) => {
                // A yes/no row shows its share selected once, across the value columns.
                if (row.is_binary_scale && column.key !== 'metric_type' && column.key !== 'metric_name') {
                  if (columns[index - 1]?.key !== 'metric_name') return null;
                  const span = columns.length - index;
                  return (
                    <Table.Td key={column.key} colSpan={span} style={{ whiteSpace: 'nowrap' }}>
                      <Tooltip label={baseText(row)} withArrow openDelay={150}>
                        <Text span size="sm" style={{ cursor: 'help' }}>
                          {formatProfileValue(row.selected, 'top_box')} selected
                        </Text>
                      </Tooltip>
                    </Table.Td>
                  );
                }
                if (column.key === 'metric_type')
                  return <Table.Td key={column.key}>{row.metric_type}</Table.Td>;
                if (column.key === 'metric_name')
                  return (
                    <Table.Th key={column.key} scope="row" fw={500}>
                      <Group gap={4} wrap="nowrap">
                        {metricLabel(row)}
                        {isHighlighted(row, highlighted) ? (
                          <Badge ml="xs" size="xs" variant="filled">
                            Chosen
                          </Badge>
                        ) : null}
                        {trace && row.n > 0 ? (
                          <TraceButton
                            request={{
                              products: [trace.productId],
                              metric: row.metric,
                              aggregation: rowAggregations(row)[0]!,
                              demographics_fragrances: trace.demographics,
                            }}
                            aggregations={rowAggregations(row)}
                            label={metricLabel(row)}
                            testId={`trace-row-${row.metric}`}
                          />
                        ) : null}
                      </Group>
                    </Table.Th>
                  );
                const text = formatProfileValue(row[column.key], column.key);
                return (
                  <Table.Td key={column.key} ta="right" style={{ whiteSpace: 'nowrap' }}>
                    <Tooltip label={baseText(row)} withArrow openDelay={150}>
                      <Text
                        span
                        size="sm"
                        c={text === 'N/A' ? 'dimmed' : undefined}
                        style={{ cursor: 'help' }}
                      >
                        {text}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                );
              })}
              {norm ? (
                <Table.Td>
                  {row.n > 0 ? (
                    <NormButton
                      product={norm.product}
                      productLabel={`${norm.productLabel}, ${metricLabel(row)}`}
                      measures={
                        row.is_binary_scale
                          ? [
                              {
                                metric: row.metric,
                                aggregation: 'top_box' as const,
                                label: `${metricLabel(row)}, ${YES_NO_SHARE_LABEL}`,
                              },
                            ]
                          : NORM_AGGREGATIONS.map((aggregation) => ({
                              metric: row.metric,
                              aggregation,
                              label: `${metricLabel(row)}, ${AGGREGATION_NAMES[aggregation]}`,
                            }))
                      }
                    />
                  ) : null}
                </Table.Td>
              ) : null}
              <Table.Td ta="right" c={row.n > 0 && row.n < LOW_BASE ? 'orange.9' : 'dimmed'}>
                {row.n > 0 && row.n < LOW_BASE ? `${row.n} (low base)` : row.n}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
