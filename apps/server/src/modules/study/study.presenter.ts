/**
 * Exactly what leaves the server about a study: the grouped details, tags, fragrance and concept
 * rows, the edit history, and the file list, tree and version history.
 */
import {
  STUDY_DETAIL_GROUPS,
  type PerfumeCharacteristic,
  type StudyConcept,
  type StudyDetailField,
  type StudyDetailsResponse,
  type StudyEditHistoryResponse,
  type StudyFileEntry,
  type StudyFileError,
  type StudyFileNode,
  type StudyTag,
  type TagValue,
  type VersionHistoryResponse,
} from '@accord/contracts';
import type { StudyFieldChange } from '../../lib/study-history.ts';
import type { FieldRow } from '../fields/fields.repository.ts';
import type { FileRecord, VersionRecord } from './study-files.repository.ts';
import type { ConceptRecord, FragranceRecord, StudyRecord } from './study.repository.ts';
import { STUDY_FIELDS, STUDY_FIELD_BY_NAME, type StudyFieldSpec } from './study-fields.ts';

const TAG_GROUPS = ['geography', 'categorization', 'methodology'] as const;

/** The definition's label and type when field_definitions describes the field, else the spec's. */
function describe(spec: StudyFieldSpec, definitions: FieldRow[]) {
  const def = definitions.find(
    (candidate) => candidate.fieldGroup === 'metadata' && candidate.field === spec.field,
  );
  const type =
    spec.kind === 'whole'
      ? 'int'
      : spec.kind === 'boolean'
        ? 'boolean'
        : (def?.type ?? (spec.kind === 'text' ? 'string' : 'categorical'));
  return { label: def?.label ?? spec.label, type, def };
}

export function studyValue(study: StudyRecord, spec: StudyFieldSpec): TagValue {
  const value = study[spec.column];
  if (value instanceof Date) return value.toISOString();
  return value as TagValue;
}

export function presentDetails(
  study: StudyRecord,
  definitions: FieldRow[],
  fragranceRows: FragranceRecord[],
  conceptRows: ConceptRecord[],
  hasQuestions: boolean,
): StudyDetailsResponse {
  const field = (name: string): StudyDetailField => {
    const spec = STUDY_FIELD_BY_NAME.get(name)!;
    const { label, type } = describe(spec, definitions);
    return { label, type, value: studyValue(study, spec) };
  };
  const group = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, field(name)]));
  const tags = Object.fromEntries(TAG_GROUPS.map((tagGroup) => [tagGroup, [] as StudyTag[]])) as Record<
    (typeof TAG_GROUPS)[number],
    StudyTag[]
  >;
  for (const spec of STUDY_FIELDS) {
    const { label, type, def } = describe(spec, definitions);
    const tagGroup = def?.tagGroup as (typeof TAG_GROUPS)[number] | null | undefined;
    if (!tagGroup || !tags[tagGroup]) continue;
    tags[tagGroup].push({
      field: spec.field,
      label,
      type,
      multivalue: spec.kind === 'choices',
      editable: spec.editable,
      value: studyValue(study, spec),
    });
  }
  return {
    id: study.id,
    c_mi_number: study.cMiNumber,
    project_name: study.projectName,
    client: study.client,
    verified: study.verified,
    updated_at: study.updatedAt.toISOString(),
    details: {
      study_info: group(STUDY_DETAIL_GROUPS.study_info),
      product_categorization: group(STUDY_DETAIL_GROUPS.product_categorization),
      geography: group(STUDY_DETAIL_GROUPS.geography),
      methodological_details_1: group(STUDY_DETAIL_GROUPS.methodological_details_1),
      methodological_details_2: group(STUDY_DETAIL_GROUPS.methodological_details_2),
      methodological_details_3: group(STUDY_DETAIL_GROUPS.methodological_details_3),
      methodological_details_4: group(STUDY_DETAIL_GROUPS.methodological_details_4),
      verified: group(STUDY_DETAIL_GROUPS.verified),
    },
    tags,
    perfume_characteristics: fragranceRows.map(presentFragrance),
    concepts: conceptRows.map(presentConcept),
    has_questions: hasQuestions,
  };
}

/** The 18 fragrance fields of the specification (document 2 section 3), as the API names them. */
export function presentFragranceFields(
  row: Pick<
    FragranceRecord,
    | 'name'
    | 'refNumber'
    | 'code'
    | 'fragranceCode'
    | 'methodology'
    | 'perfumerName'
    | 'region'
    | 'country'
    | 'family'
    | 'subfamily'
    | 'specifier'
    | 'level'
    | 'supplementalInfo'
    | 'dominantNote1'
    | 'dominantNote2'
    | 'dominantNote3'
    | 'dominantNote4'
    | 'dominantNote5'
  >,
) {
  return {
    name: row.name,
    ref_number: row.refNumber,
    code: row.code,
    fragrance_code: row.fragranceCode,
    methodology: row.methodology,
    perfumer_name: row.perfumerName,
    region: row.region,
    country: row.country,
    family: row.family,
    subfamily: row.subfamily,
    specifier: row.specifier,
    level: row.level,
    supplemental_info: row.supplementalInfo,
    dominant_note_1: row.dominantNote1,
    dominant_note_2: row.dominantNote2,
    dominant_note_3: row.dominantNote3,
    dominant_note_4: row.dominantNote4,
    dominant_note_5: row.dominantNote5,
  };
}

export function presentFragrance(row: FragranceRecord): PerfumeCharacteristic {
  return {
    id: row.id,
    ...presentFragranceFields(row),
    bench_create: row.creative ? 'creative' : 'benchmark',
  };
}

export function presentConcept(row: ConceptRecord): StudyConcept {
  return {
    id: row.id,
    name: row.name,
    concept_code: row.conceptCode,
    region: row.region,
    country: row.country,
    theme: row.theme,
    ingredient_1: row.ingredient1,
    ingredient_2: row.ingredient2,
  };
}

type HistoryRow = {
  id: number;
  userEmail: string;
  type: 'study' | 'fragrances' | 'concepts';
  changeDate: Date;
  changes: unknown;
};

/** The study-level changes one per line, and every save grouped; both as stored, newest first. */
export function presentHistory(rows: HistoryRow[]): StudyEditHistoryResponse {
  const changesOf = (row: HistoryRow) =>
    Array.isArray(row.changes) ? (row.changes as StudyFieldChange[]) : [];
  return {
    study: rows
      .filter((row) => row.type === 'study')
      .flatMap((row) =>
        changesOf(row).map((change) => ({
          id: row.id,
          user_email: { email: row.userEmail },
          change_date: row.changeDate.toISOString(),
          field: change.field,
          old_value: change.old_value ?? null,
          new_value: change.new_value ?? null,
        })),
      ),
    grouped: rows.map((row) => ({
      id: row.id,
      type: row.type,
      user_email: { email: row.userEmail },
      change_date: row.changeDate.toISOString(),
      changes: changesOf(row).map((change) => ({
        field: change.field,
        old_value: change.old_value ?? null,
        new_value: change.new_value ?? null,
      })),
    })),
  };
}

// ---------------------------------------------------------------- files

const CATEGORY_BY_TYPE: Record<FileRecord['fileType'], string> = {
  report: 'Reports',
  questionnaire: 'Questionnaires',
  protocol: 'Protocols',
  screener: 'Screeners',
  RDF: 'RDFs',
};

/** The errors[] stored with a file version. */
export const errorsOf = (value: unknown): StudyFileError[] =>
  Array.isArray(value) ? (value as StudyFileError[]) : [];

export function presentFileEntry(row: FileRecord): StudyFileEntry {
  return {
    id: row.id,
    name: row.name,
    extension: row.extension,
    type: row.fileType,
    category: CATEGORY_BY_TYPE[row.fileType],
    folder: row.folder,
  };
}

/** The study group as a tree: folders sorted by name, each with its files sorted by name. */
export function presentFileTree(groupName: string, rows: FileRecord[]): StudyFileNode {
  const folders = new Map<string, FileRecord[]>();
  for (const row of rows) folders.set(row.folder, [...(folders.get(row.folder) ?? []), row]);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  const children: StudyFileNode[] = [...folders.entries()]
    .map(([folder, files]) => {
      const fileNodes: StudyFileNode[] = [...files].sort(byName).map((file) => ({
        name: file.name,
        type: 'file' as const,
        children: [],
        errors: errorsOf(file.errors),
        file_type: file.fileType,
        id: file.id,
      }));
      return {
        name: folder,
        type: 'directory' as const,
        children: fileNodes,
        // A folder shows the problems of its files in its error details table.
        errors: fileNodes.flatMap((node) => node.errors),
        file_type: null,
        id: null,
      };
    })
    .sort(byName);
  return { name: groupName, type: 'directory', children, errors: [], file_type: null, id: null };
}

export function presentVersionHistory(file: FileRecord, versions: VersionRecord[]): VersionHistoryResponse {
  const current = versions.find((version) => version.id === file.currentVersionId);
  return {
    _source: {
      file_id: file.id,
      current_version_id: file.currentVersionId,
      current_file: current?.name ?? file.name,
      date: current ? current.createdAt.toISOString() : null,
      status: current?.status ?? null,
      errors: errorsOf(current?.errors),
      file_history: versions
        .filter((version) => version.id !== file.currentVersionId)
        .map((version) => ({
          id: version.id,
          name: version.name,
          date: version.createdAt.toISOString(),
          status: version.status,
          errors: errorsOf(version.errors),
        })),
    },
  };
}
