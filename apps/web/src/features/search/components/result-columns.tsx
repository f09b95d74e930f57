import { Anchor, Stack } from '@mantine/core';
import {
  RESULT_SORT_KEYS,
  type ConceptRow,
  type FragranceRow,
  type SearchFileRow,
  type StudySummaryRow,
} from '@accord/contracts';
import { Link } from 'react-router';
import { FragranceCodeLink } from '../../../components/fragrance/fragrance-tests-link.tsx';
import { paths } from '../../../config/paths.ts';
import { formatCell } from '../utils/format-cell.ts';
import { MultiValueCell } from './multi-value-cell.tsx';
import type { ResultColumn } from './result-table.tsx';
import { StudyLinks } from './study-links.tsx';

type Identified = { c_mi_number: string };

/** The server sorts by these row fields (the same list for every table that shows them). */
const SORTABLE: ReadonlySet<string> = new Set(RESULT_SORT_KEYS);

function text<Row>(key: keyof Row & string, label: string, nowrap = false): ResultColumn<Row> {
  const minWidth = key === 'project_name' ? 260 : key === 'client' ? 160 : undefined;
  return { key, label, nowrap, minWidth, sortable: SORTABLE.has(key), render: (row) => formatCell(row[key]) };
}

function many<Row>(key: keyof Row & string, label: string): ResultColumn<Row> {
  return { key, label, render: (row) => <MultiValueCell value={row[key] as string[]} /> };
}

/** The same column with advice in a tooltip beside its heading. */
function withHelp<Row>(column: ResultColumn<Row>, help: string): ResultColumn<Row> {
  return { ...column, help };
}

const DESIGN_METHOD_HELP =
  'Balanced Incomplete Block Design, Balance Complete Block Design or Monadic Sequential: how the products were shown to respondents.';
const MARKET_HELP = 'Do not compare scores across different markets.';

/** CMI # with the row's links (details, files, statistics) right under it, where the eye starts. */
function cmiLink<Row extends Identified>(studyIdOf: (row: Row) => number): ResultColumn<Row> {
  return {
    key: 'c_mi_number',
    label: 'CMI #',
    nowrap: true,
    sortable: true,
    render: (row) => (
      <Stack gap={2}>
        <Anchor component={Link} to={paths.studyDetails.href(studyIdOf(row))} size="sm" fw={600}>
          {row.c_mi_number}
        </Anchor>
        <StudyLinks studyId={studyIdOf(row)} name={row.c_mi_number} />
      </Stack>
    ),
  };
}

export const SUMMARY_COLUMNS: ResultColumn<StudySummaryRow>[] = [
  cmiLink((row) => row.id),
  text('project_name', 'Project Name'),
  text('client', 'Client'),
  text('category', 'Category'),
  text('product_type', 'Product'),
  text('pace_number', 'CX/Pace #', true),
  text('methodology', 'Methodology'),
  withHelp(text('design_method', 'Design Method'), DESIGN_METHOD_HELP),
  withHelp(many('region', 'Region'), MARKET_HELP),
  withHelp(many('country', 'Country'), MARKET_HELP),
  text('lead_country', 'Lead Country'),
  many('business_unit', 'Business Unit'),
  many('research_type', 'Research Type'),
  many('cmi_tool_type', 'CMI Tool Type'),
  many('evaluation', 'Evaluation'),
];

export const FRAGRANCE_COLUMNS: ResultColumn<FragranceRow>[] = [
  cmiLink((row) => row.study_id),
  text('project_name', 'Project Name'),
  text('client', 'Client'),
  text('category', 'Category'),
  text('product_type', 'Product'),
  text('name', 'Fragrance Name'),
  text('ref_number', 'Developer #', true),
  { ...text('code', '6 Digit Code (SAP)', true), render: (row) => <FragranceCodeLink code={row.code} /> },
  text('fragrance_code', 'Fragrance Code', true),
  text('methodology', 'Methodology'),
  text('perfumer_name', 'Perfumer Name'),
  text('region', 'Region'),
  text('country', 'Country'),
  text('family', 'Family'),
  text('subfamily', 'Subfamily'),
  text('specifier', 'Specifier'),
  {
    key: 'level',
    label: 'Level (%)',
    nowrap: true,
    render: (row) => (row.level === null ? '-' : `${row.level}%`),
  },
  text('supplemental_info', 'Supplemental Info'),
  {
    key: 'dominant_notes',
    label: 'Dominant Notes',
    render: (row) => (
      <MultiValueCell
        value={[
          row.dominant_note_1,
          row.dominant_note_2,
          row.dominant_note_3,
          row.dominant_note_4,
          row.dominant_note_5,
        ]}
      />
    ),
  },
];

export const CONCEPT_COLUMNS: ResultColumn<ConceptRow>[] = [
  text('name', 'Concept Name'),
  text('concept_code', 'Concept Code', true),
  text('region', 'Region'),
  text('country', 'Country'),
  cmiLink((row) => row.study_id),
  text('project_name', 'Project Name'),
  text('client', 'Client'),
];

const FILE_TYPE_LABELS: Record<SearchFileRow['file_type'], string> = {
  RDF: 'Results',
  report: 'Report',
  questionnaire: 'Questionnaire',
  protocol: 'Protocol',
  screener: 'Screener',
};

export const FILE_COLUMNS: ResultColumn<SearchFileRow>[] = [
  {
    key: 'file_name',
    label: 'File Name',
    sortable: true,
    render: (row) => (
      <Anchor
        component={Link}
        to={paths.studyStructure.href(row.study_id)}
        size="sm"
        style={{ overflowWrap: 'anywhere' }}
      >
        {row.file_name}
      </Anchor>
    ),
  },
  { key: 'file_type', label: 'Type', nowrap: true, render: (row) => FILE_TYPE_LABELS[row.file_type] },
  cmiLink((row) => row.study_id),
  text('project_name', 'Project Name'),
  text('client', 'Client'),
  text('category', 'Category'),
  text('product_type', 'Product'),
];
