import type { StudyConcept } from '@accord/contracts';
import { formatValue } from '../utils/format-value.ts';
import { ScrollTable, type Column } from './scroll-table.tsx';

const COLUMNS: Column<StudyConcept>[] = [
  { key: 'name', label: 'Name', render: (row) => formatValue(row.name) },
  { key: 'concept_code', label: 'Concept Code', render: (row) => formatValue(row.concept_code) },
  { key: 'region', label: 'Region', render: (row) => formatValue(row.region) },
  { key: 'country', label: 'Country', render: (row) => formatValue(row.country) },
];

/** The study's concept rows (document 2 section 3, Concept row). */
export function ConceptsTable({ rows }: { rows: StudyConcept[] }) {
  return (
    <ScrollTable
      label="Concepts"
      columns={COLUMNS}
      rows={rows}
      empty="This study has no concepts."
      minWidth={560}
    />
  );
}
