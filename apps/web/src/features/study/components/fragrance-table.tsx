import type { PerfumeCharacteristic } from '@accord/contracts';
import { EMPTY_VALUE, formatValue } from '../utils/format-value.ts';
import { ScrollTable, type Column } from './scroll-table.tsx';

const text =
  (key: keyof PerfumeCharacteristic) =>
  (row: PerfumeCharacteristic): string =>
    formatValue(row[key]);

const DOMINANT_NOTES = [
  'dominant_note_1',
  'dominant_note_2',
  'dominant_note_3',
  'dominant_note_4',
  'dominant_note_5',
] as const;

const COLUMNS: Column<PerfumeCharacteristic>[] = [
  { key: 'name', label: 'Name', render: text('name') },
  { key: 'ref_number', label: 'Developer #', render: text('ref_number') },
  { key: 'code', label: '6 Digit Code (SAP)', render: text('code') },
  { key: 'family', label: 'Family', render: text('family') },
  { key: 'subfamily', label: 'Subfamily', render: text('subfamily') },
  { key: 'perfumer_name', label: 'Perfumer', render: text('perfumer_name') },
  { key: 'region', label: 'Region', render: text('region') },
  { key: 'country', label: 'Country', render: text('country') },
  {
    key: 'level',
    label: 'Level',
    render: (row) => (row.level === null ? EMPTY_VALUE : `${row.level}%`),
  },
  {
    key: 'dominant_notes',
    label: 'Dominant Notes',
    render: (row) => formatValue(DOMINANT_NOTES.map((note) => row[note])),
  },
];

/** The study's fragrance rows (document 2 section 3, Fragrance row). */
export function FragranceTable({ rows }: { rows: PerfumeCharacteristic[] }) {
  return (
    <ScrollTable
      label="Fragrance Details"
      columns={COLUMNS}
      rows={rows}
      empty="This study has no fragrances."
      minWidth={1100}
    />
  );
}
