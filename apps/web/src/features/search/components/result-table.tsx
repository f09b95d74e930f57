import {
  ActionIcon,
  Checkbox,
  Group,
  Loader,
  Pagination,
  ScrollArea,
  Select,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowsSort, IconChevronDown, IconChevronUp, IconInfoCircle } from '@tabler/icons-react';
import type { PageInfo, ResultSortKey } from '@accord/contracts';
import type { ReactNode } from 'react';
import type { ResultSort } from '../api/keys.ts';

export const RESULT_PAGE_SIZES = ['10', '25', '50', '100'];

export interface ResultColumn<Row> {
  key: string;
  label: string;
  render: (row: Row) => ReactNode;
  /** Keeps short identifiers on one line. */
  nowrap?: boolean;
  /** Wider columns for long text such as project names. */
  minWidth?: number;
  /** Advice shown in a tooltip beside the heading. */
  help?: string;
  /** The server sorts the rows by this column (its key is the row field). */
  sortable?: boolean;
}

export interface RowSelection {
  /** Selected study ids. */
  selected: ReadonlySet<number>;
  toggle: (studyId: number) => void;
  setMany: (studyIds: number[], checked: boolean) => void;
}

/** A sortable heading: a click sorts by the column ascending, a second click descending. */
function SortButton<Row>({
  column,
  sort,
  onSort,
}: {
  column: ResultColumn<Row>;
  sort: ResultSort | undefined;
  onSort: (sort: ResultSort) => void;
}) {
  const active = sort?.key === column.key;
  const Icon = !active ? IconArrowsSort : sort.order === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Group gap={4} wrap="nowrap">
      <UnstyledButton
        onClick={() =>
          onSort({ key: column.key as ResultSortKey, order: active && sort.order === 'asc' ? 'desc' : 'asc' })
        }
        fw={700}
        fz="sm"
      >
        <Group gap={4} wrap="nowrap">
          {column.label}
          <Icon size={14} aria-hidden="true" stroke={active ? 2.2 : 1.5} />
        </Group>
      </UnstyledButton>
      {column.help ? <HelpIcon label={column.label} help={column.help} /> : null}
    </Group>
  );
}

function HelpIcon({ label, help }: { label: string; help: string }) {
  return (
    <Tooltip label={help} multiline w={280} withArrow events={{ hover: true, focus: true, touch: true }}>
      <ActionIcon variant="subtle" color="gray" size="xs" aria-label={`About ${label}: ${help}`}>
        <IconInfoCircle size={14} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * A server-paginated result table: only one page of rows is ever in the page, so a search that finds
 * thousands of studies stays smooth. Shows 'No data' until rows are ready.
 */
export function ResultTable<Row>({
  label,
  columns,
  rows,
  loading,
  pageInfo,
  perPage,
  onPage,
  onPerPage,
  rowKey,
  rowLabel,
  studyIdOf,
  selection,
  sort,
  onSort,
}: {
  label: string;
  columns: ResultColumn<Row>[];
  rows: Row[] | undefined;
  loading: boolean;
  pageInfo: PageInfo | undefined;
  perPage: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
  rowKey: (row: Row) => string | number;
  /** How a row is named to assistive technology (its checkbox). */
  rowLabel: (row: Row) => string;
  studyIdOf: (row: Row) => number;
  selection: RowSelection | null;
  sort?: ResultSort;
  onSort?: (sort: ResultSort) => void;
}) {
  const list = rows ?? [];
  const pageStudyIds = list.map(studyIdOf);
  const allChecked = pageStudyIds.length > 0 && pageStudyIds.every((id) => selection?.selected.has(id));
  const someChecked = pageStudyIds.some((id) => selection?.selected.has(id));
  const colSpan = columns.length + (selection ? 1 : 0);
  const from = pageInfo && pageInfo.total > 0 ? (pageInfo.page - 1) * pageInfo.per_page + 1 : 0;
  const to = pageInfo ? Math.min(pageInfo.total, from + list.length - 1) : 0;

  return (
    <>
      <ScrollArea type="auto" offsetScrollbars="x">
        <Table striped highlightOnHover verticalSpacing="xs" fz="sm" aria-label={label} miw={640}>
          <Table.Thead>
            <Table.Tr>
              {selection ? (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all studies on this page"
                    checked={allChecked}
                    indeterminate={!allChecked && someChecked}
                    onChange={(event) => selection.setMany(pageStudyIds, event.currentTarget.checked)}
                  />
                </Table.Th>
              ) : null}
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
                  style={{ whiteSpace: 'nowrap' }}
                  aria-sort={
                    sort?.key === column.key ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined
                  }
                >
                  {column.sortable && onSort ? (
                    <SortButton column={column} sort={sort} onSort={onSort} />
                  ) : column.help ? (
                    <Group gap={4} wrap="nowrap">
                      {column.label}
                      <HelpIcon label={column.label} help={column.help} />
                    </Group>
                  ) : (
                    column.label
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={colSpan}>
                  <Group gap="xs" py="sm" justify="center">
                    {loading ? <Loader size="xs" aria-hidden="true" /> : null}
                    <Text size="sm" c="dimmed">
                      No data
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ) : (
              list.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {selection ? (
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${rowLabel(row)}`}
                        checked={selection.selected.has(studyIdOf(row))}
                        onChange={() => selection.toggle(studyIdOf(row))}
                      />
                    </Table.Td>
                  ) : null}
                  {columns.map((column) => (
                    <Table.Td
                      key={column.key}
                      style={
                        column.nowrap
                          ? { whiteSpace: 'nowrap' }
                          : { minWidth: column.minWidth ?? 120, maxWidth: 340 }
                      }
                    >
                      {column.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pageInfo && pageInfo.total > 0 ? (
        <Group justify="space-between" mt="sm" gap="sm" wrap="wrap">
          <Text size="sm" c="dimmed" aria-live="polite">
            Showing {from}–{to} of {pageInfo.total}
          </Text>
          <Group gap="sm" wrap="wrap">
            <Select
              aria-label="Rows per page"
              data={RESULT_PAGE_SIZES}
              value={String(perPage)}
              onChange={(value) => value && onPerPage(Number(value))}
              w={90}
              size="xs"
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            <nav aria-label={`${label} pages`}>
              <Pagination
                total={pageInfo.pages}
                value={Math.min(pageInfo.page, pageInfo.pages)}
                onChange={onPage}
                size="sm"
                siblings={1}
                boundaries={1}
                getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
                getControlProps={(control) => ({
                  'aria-label': {
                    first: 'First page',
                    previous: 'Previous page',
                    next: 'Next page',
                    last: 'Last page',
                  }[control],
                })}
              />
            </nav>
          </Group>
        </Group>
      ) : null}
    </>
  );
}
