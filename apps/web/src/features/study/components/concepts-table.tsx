import { TEXT_LIMITS, type StudyConcept } from '@accord/contracts';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { CONCEPT_TABLE, type ConceptField } from '../utils/editable-rows.ts';
import { formatValue } from '../utils/format-value.ts';
import { ScrollTable, type Column } from './scroll-table.tsx';
import { TableEditor, type EditableColumn } from './table-editor.tsx';

/** The read view's columns, ending with the link to the concept's profile page. */
function columns(studyId: number): Column<StudyConcept>[] {
  return [
    ...COLUMNS,
    {
      key: 'profile',
      label: 'Profile',
      render: (row) => (
        <Anchor
          component={Link}
          to={paths.conceptProfile.href(studyId, row.concept_code)}
          size="sm"
          aria-label={`Profile of ${row.name}`}
        >
          Profile
        </Anchor>
      ),
    },
  ];
}

const COLUMNS: Column<StudyConcept>[] = [
  { key: 'name', label: 'Name', render: (row) => formatValue(row.name) },
  { key: 'concept_code', label: 'Concept Code', render: (row) => formatValue(row.concept_code) },
  { key: 'region', label: 'Region', render: (row) => formatValue(row.region) },
  { key: 'country', label: 'Country', render: (row) => formatValue(row.country) },
];

const EDIT_COLUMNS: EditableColumn<ConceptField>[] = [
  { field: 'name', label: 'Name', width: 220 },
  { field: 'concept_code', label: 'Concept Code', width: 140, maxLength: TEXT_LIMITS.productCode },
  { field: 'region', label: 'Region', width: 170 },
  { field: 'country', label: 'Country', width: 170, parent: 'region' },
];

/** The study's concept rows (document 2 section 3, Concept row), editable by admins. */
export function ConceptsTable({
  studyId,
  rows,
  canEdit,
}: {
  studyId: number;
  rows: StudyConcept[];
  canEdit: boolean;
}) {
  return (
    <TableEditor
      studyId={studyId}
      canEdit={canEdit}
      title="Concepts"
      rowNoun="concepts"
      kind={CONCEPT_TABLE}
      columns={EDIT_COLUMNS}
      rows={rows}
      optionsGroup="concept"
      minWidth={800}
    >
      <ScrollTable
        label="Concepts"
        columns={columns(studyId)}
        rows={rows}
        empty="This study has no concepts."
        minWidth={560}
      />
    </TableEditor>
  );
}
