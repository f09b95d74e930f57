import { TEXT_LIMITS, type PerfumeCharacteristic } from '@accord/contracts';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { FRAGRANCE_TABLE, type FragranceField } from '../utils/editable-rows.ts';
import { EMPTY_VALUE, formatValue } from '../utils/format-value.ts';
import { ScrollTable, type Column } from './scroll-table.tsx';
import { TableEditor, type EditableColumn } from './table-editor.tsx';

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

/** The read view's columns, ending with the link to the fragrance's profile page. */
function columns(studyId: number): Column<PerfumeCharacteristic>[] {
  return [
    ...COLUMNS,
    {
      key: 'profile',
      label: 'Profile',
      render: (row) => (
        <Anchor
          component={Link}
          to={paths.fragranceProfile.href(studyId, row.fragrance_code)}
          size="sm"
          aria-label={`Profile of ${row.name}`}
        >
          Profile
        </Anchor>
      ),
    },
  ];
}

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

/** Every one of the 18 fragrance fields as an input, in the order of the read view first. */
const EDIT_COLUMNS: EditableColumn<FragranceField>[] = [
  { field: 'name', label: 'Name', width: 200 },
  { field: 'fragrance_code', label: 'Fragrance Code', width: 130, maxLength: TEXT_LIMITS.productCode },
  { field: 'ref_number', label: 'Developer #', width: 130 },
  { field: 'code', label: '6 Digit Code (SAP)', width: 150 },
  { field: 'family', label: 'Family', width: 150 },
  { field: 'subfamily', label: 'Subfamily', width: 160, parent: 'family' },
  { field: 'perfumer_name', label: 'Perfumer', width: 170, parent: 'specifier' },
  { field: 'specifier', label: 'Specifier', width: 160 },
  { field: 'region', label: 'Region', width: 150 },
  { field: 'country', label: 'Country', width: 160, parent: 'region' },
  { field: 'methodology', label: 'Methodology', width: 170 },
  { field: 'level', label: 'Level', width: 90, unit: '%' },
  { field: 'dominant_note_1', label: 'Dominant Note 1', width: 140 },
  { field: 'dominant_note_2', label: 'Dominant Note 2', width: 140 },
  { field: 'dominant_note_3', label: 'Dominant Note 3', width: 140 },
  { field: 'dominant_note_4', label: 'Dominant Note 4', width: 140 },
  { field: 'dominant_note_5', label: 'Dominant Note 5', width: 140 },
  { field: 'supplemental_info', label: 'Supplemental Info', width: 220 },
];

/** The study's fragrance rows (document 2 section 3, Fragrance row), editable by admins. */
export function FragranceTable({
  studyId,
  rows,
  canEdit,
}: {
  studyId: number;
  rows: PerfumeCharacteristic[];
  canEdit: boolean;
}) {
  return (
    <TableEditor
      studyId={studyId}
      canEdit={canEdit}
      title="Fragrance Details"
      rowNoun="fragrances"
      kind={FRAGRANCE_TABLE}
      columns={EDIT_COLUMNS}
      rows={rows}
      optionsGroup="fragrance"
      minWidth={3000}
    >
      <ScrollTable
        label="Fragrance Details"
        columns={columns(studyId)}
        rows={rows}
        empty="This study has no fragrances."
        minWidth={1100}
      />
    </TableEditor>
  );
}
