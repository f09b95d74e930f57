import { Box, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  label: string;
  render: (row: Row) => ReactNode;
}

/**
 * A horizontally scrollable, keyboard-focusable region around a wide table (wide tables must be
 * scrollable without a mouse).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      role="region"
      aria-label={`${label}, scrollable`}
      tabIndex={0}
      style={{ overflowX: 'auto', borderRadius: 'var(--mantine-radius-md)' }}
    >
      {children}
    </Box>
  );
}

/** A read-only table in a scroll region. */
export function ScrollTable<Row extends { id: number }>({
  label,
  columns,
  rows,
  empty,
  minWidth,
}: {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  empty: string;
  minWidth: number;
}) {
  if (rows.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    );
  }
  return (
    <ScrollRegion label={label}>
      <Table striped withTableBorder verticalSpacing="xs" fz="sm" aria-label={label} miw={minWidth}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} style={{ whiteSpace: 'nowrap' }}>
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              {columns.map((column) => (
                <Table.Td key={column.key}>{column.render(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
