/**
 * A table heading that sorts its table (on the server or here): a button with the sort's arrow,
 * aria-sort saying the direction to screen readers.
 */
import { Table, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';

/** A table's sort: the column key and its direction. */
export interface TableSort {
  key: string;
  /** Largest (or last in the alphabet) first. */
  desc: boolean;
}

/**
 * A heading sorting by `sortKey`: a click on the sorted column turns its direction, a click on
 * another sorts by it, largest first unless `firstDesc` is false (names read A to Z first).
 */
export function SortableTh({
  label,
  sortKey,
  sort,
  onSort,
  align,
  firstDesc = true,
}: {
  label: string;
  sortKey: string;
  sort: TableSort | null;
  onSort: (sort: TableSort) => void;
  align?: 'right';
  firstDesc?: boolean;
}) {
  const active = sort?.key === sortKey;
  const Icon = !active ? IconSelector : sort.desc ? IconChevronDown : IconChevronUp;
  return (
    <Table.Th
      ta={align}
      aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
      style={{ whiteSpace: 'nowrap' }}
    >
      <UnstyledButton
        onClick={() => onSort({ key: sortKey, desc: active ? !sort.desc : firstDesc })}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 600, fontSize: 14 }}
      >
        {label}
        <Icon size={14} aria-hidden="true" />
      </UnstyledButton>
    </Table.Th>
  );
}
