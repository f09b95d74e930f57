/**
 * The study page: details, the details edit, the fragrance and concept table edits, single tags, the
 * tag definitions and the edit history. Reads are limited to the caller's studies (a study outside a
 * client user's scope is answered 404, as if it did not exist); every edit is for admins (checked by
 * the routes), validated here, and saved in one transaction with its history row.
 */
import {
  CONCEPT_TRACKED_FIELDS,
  FRAGRANCE_TABLE_FIELDS,
  STUDY_MESSAGES,
  type StudyDetailsResponse,
  type StudyEditHistoryResponse,
  type StudyEditResponse,
  type StudyOptionsResponse,
  type StudyTagEditRequest,
  type StudyUpdateRequest,
  type TagValue,
} from '@accord/contracts';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { canSeeClient, studyByIdScope } from '../../lib/client-scope.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { StudyEditAudit, StudyFieldChange } from '../../lib/study-history.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FieldRow, FieldsRepository } from '../fields/fields.repository.ts';
import { checkCoherence, incoherentFieldNames, type CoherenceSubject } from './coherence.ts';
import {
  STUDY_FIELDS,
  STUDY_FIELD_BY_NAME,
  normaliseTagValue,
  sameAsShown,
  sameStoredValue,
  type StoredValue,
  type StudyFieldSpec,
} from './study-fields.ts';
import { presentDetails, presentHistory, studyValue } from './study.presenter.ts';
import type {
  ConceptRecord,
  FragranceRecord,
  NewConcept,
  NewFragrance,
  StudyRecord,
  StudyRepository,
  TablePlan,
} from './study.repository.ts';

type UpdateInput = z.output<typeof StudyUpdateRequest>;
type TagEditInput = z.output<typeof StudyTagEditRequest>;
type FragranceInput = Extract<TagEditInput, { type: 'fragrances' }>['perfume_characteristics'];
type ConceptInput = Extract<TagEditInput, { type: 'concepts' }>['concepts'];

export const STUDY_SERVICE_MESSAGES = {
  unknownField: (field: string) => `Unknown field "${field}".`,
  notEditable: (label: string) => `"${label}" cannot be edited.`,
  oldDataMissing: (field: string) => `oldData must hold the value "${field}" had when editing began.`,
  clearRequired: (flag: string) => `To remove every row, send ${flag}: true.`,
  clearWithRows: (flag: string) => `${flag} cannot be sent together with rows.`,
  unknownRow: (id: number) => `Row ${id} is not a row of this study.`,
  fragranceRow: (row: { name: string; fragranceCode: string }) => `${row.name} (${row.fragranceCode})`,
  conceptRow: (row: { name: string; conceptCode: string }) => `${row.name} (${row.conceptCode})`,
} as const;

/** Which fragrance field a column holds, for the history. */
const FRAGRANCE_COLUMNS: Record<
  (typeof FRAGRANCE_TABLE_FIELDS)[number] | 'bench_create',
  keyof NewFragrance
> = {
  name: 'name',
  ref_number: 'refNumber',
  code: 'code',
  fragrance_code: 'fragranceCode',
  methodology: 'methodology',
  perfumer_name: 'perfumerName',
  region: 'region',
  country: 'country',
  family: 'family',
  subfamily: 'subfamily',
  specifier: 'specifier',
  level: 'level',
  supplemental_info: 'supplementalInfo',
  dominant_note_1: 'dominantNote1',
  dominant_note_2: 'dominantNote2',
  dominant_note_3: 'dominantNote3',
  dominant_note_4: 'dominantNote4',
  dominant_note_5: 'dominantNote5',
  bench_create: 'creative',
};

const CONCEPT_COLUMNS: Record<string, keyof NewConcept> = {
  name: 'name',
  concept_code: 'conceptCode',
  region: 'region',
  country: 'country',
  theme: 'theme',
  ingredient_1: 'ingredient1',
  ingredient_2: 'ingredient2',
};

const nullIfEmpty = (value: string | null | undefined) => (value ? value : null);

/**
 * Plans a table replacement: a row with an id of the study updates that row; a row without one
 * updates the row of the same code, or is added; rows not sent are removed. The history lists added
 * and removed rows and, per kept row, the tracked fields that changed.
 */
function planTable<Current extends { id: number }, New>(options: {
  current: Current[];
  next: { id?: number; values: New; code: string }[];
  codeOf: (row: Current) => string;
  toNew: (row: Current) => New;
  label: (row: New) => string;
  tracked: Record<string, keyof New>;
  fieldLabel: string;
}): TablePlan<New> {
  const { current, next } = options;
  const byId = new Map(current.map((row) => [row.id, row]));
  const byCode = new Map(current.map((row) => [options.codeOf(row).toLowerCase(), row]));
  const kept = new Set<number>();
  const plan: TablePlan<New> = { remove: [], update: [], insert: [], changes: [] };
  next.forEach((row, index) => {
    let match: Current | undefined;
    if (row.id !== undefined) {
      match = byId.get(row.id);
      if (!match)
        throw errors.badRequest(STUDY_SERVICE_MESSAGES.unknownRow(row.id), [
          { path: `${index}.id`, message: STUDY_SERVICE_MESSAGES.unknownRow(row.id) },
        ]);
    } else {
      const sameCode = byCode.get(row.code.toLowerCase());
      if (sameCode && !kept.has(sameCode.id) && !next.some((other) => other.id === sameCode.id))
        match = sameCode;
    }
    if (!match) {
      plan.insert.push(row.values);
      plan.changes.push({ field: options.fieldLabel, old_value: null, new_value: options.label(row.values) });
      return;
    }
    kept.add(match.id);
    const before = options.toNew(match);
    const fieldChanges = Object.entries(options.tracked)
      .filter(
        ([, column]) => !sameStoredValue(before[column] as StoredValue, row.values[column] as StoredValue),
      )
      .map(([field, column]) => ({
        field: `${options.label(row.values)}: ${field}`,
        old_value: before[column] ?? null,
        new_value: row.values[column] ?? null,
      }));
    const anyChange = Object.keys(row.values as object).some(
      (column) =>
        !sameStoredValue(
          before[column as keyof New] as StoredValue,
          row.values[column as keyof New] as StoredValue,
        ),
    );
    if (anyChange) plan.update.push({ id: match.id, values: row.values });
    plan.changes.push(...fieldChanges);
  });
  for (const row of current) {
    if (kept.has(row.id)) continue;
    plan.remove.push(row.id);
    plan.changes.push({
      field: options.fieldLabel,
      old_value: options.label(options.toNew(row)),
      new_value: null,
    });
  }
  // An untracked change (e.g. a theme) is still saved; it is recorded under its row.
  if (plan.changes.length === 0 && plan.update.length > 0)
    plan.changes.push(
      ...plan.update.map((row) => ({
        field: options.fieldLabel,
        old_value: null,
        new_value: options.label(row.values),
      })),
    );
  return plan;
}

function fragranceToNew(row: FragranceRecord): NewFragrance {
  return {
    name: row.name,
    refNumber: row.refNumber,
    code: row.code,
    fragranceCode: row.fragranceCode,
    methodology: row.methodology,
    perfumerName: row.perfumerName,
    region: row.region,
    country: row.country,
    family: row.family,
    subfamily: row.subfamily,
    specifier: row.specifier,
    level: row.level,
    supplementalInfo: row.supplementalInfo,
    dominantNote1: row.dominantNote1,
    dominantNote2: row.dominantNote2,
    dominantNote3: row.dominantNote3,
    dominantNote4: row.dominantNote4,
    dominantNote5: row.dominantNote5,
    creative: row.creative,
  };
}

function fragranceFromInput(
  row: NonNullable<FragranceInput>[number],
  existing: FragranceRecord | undefined,
): NewFragrance {
  const creative =
    row.bench_create === undefined
      ? (existing?.creative ?? true)
      : row.bench_create === true || row.bench_create === 'creative';
  return {
    name: row.name,
    refNumber: nullIfEmpty(row.ref_number),
    code: nullIfEmpty(row.code),
    fragranceCode: row.fragrance_code,
    methodology: nullIfEmpty(row.methodology),
    perfumerName: nullIfEmpty(row.perfumer_name),
    region: nullIfEmpty(row.region),
    country: nullIfEmpty(row.country),
    family: nullIfEmpty(row.family),
    subfamily: nullIfEmpty(row.subfamily),
    specifier: nullIfEmpty(row.specifier),
    level: row.level,
    supplementalInfo: nullIfEmpty(row.supplemental_info),
    dominantNote1: nullIfEmpty(row.dominant_note_1),
    dominantNote2: nullIfEmpty(row.dominant_note_2),
    dominantNote3: nullIfEmpty(row.dominant_note_3),
    dominantNote4: nullIfEmpty(row.dominant_note_4),
    dominantNote5: nullIfEmpty(row.dominant_note_5),
    creative,
  };
}

function conceptToNew(row: ConceptRecord): NewConcept {
  return {
    name: row.name,
    conceptCode: row.conceptCode,
    region: row.region,
    country: row.country,
    theme: row.theme,
    ingredient1: row.ingredient1,
    ingredient2: row.ingredient2,
  };
}

function conceptFromInput(
  row: NonNullable<ConceptInput>[number],
  existing: ConceptRecord | undefined,
): NewConcept {
  // Fields the page may not send (theme, ingredients) keep their stored values.
  const keep = <K extends 'theme' | 'ingredient_1' | 'ingredient_2'>(
    field: K,
    stored: string | null | undefined,
  ) => (row[field] === undefined ? (stored ?? null) : nullIfEmpty(row[field]));
  return {
    name: row.name,
    conceptCode: row.concept_code,
    region: nullIfEmpty(row.region),
    country: nullIfEmpty(row.country),
    theme: keep('theme', existing?.theme),
    ingredient1: keep('ingredient_1', existing?.ingredient1),
    ingredient2: keep('ingredient_2', existing?.ingredient2),
  };
}

export function createStudyService(deps: {
  studies: StudyRepository;
  fields: FieldsRepository;
  clock: Clock;
}) {
  const { studies: repo, fields } = deps;
  const audit = (user: AuthUser): StudyEditAudit => ({
    userId: user.id,
    userEmail: user.email,
    now: deps.clock.now(),
  });

  async function visibleStudy(user: AuthUser, id: number): Promise<StudyRecord> {
    const study = await repo.findStudy(id, studyByIdScope(user));
    if (!study) throw errors.notFound(`Study ${id} does not exist.`);
    return study;
  }

  const metadataDefinition = (definitions: FieldRow[], field: string) =>
    definitions.find((def) => def.fieldGroup === 'metadata' && def.field === field);

  /** Validates and normalises the sent fields; every problem is reported at once. */
  function readFields(
    sent: Record<string, TagValue>,
    definitions: FieldRow[],
    path: string,
  ): Map<StudyFieldSpec, StoredValue> {
    const read = new Map<StudyFieldSpec, StoredValue>();
    const problems: { path: string; message: string }[] = [];
    for (const [field, value] of Object.entries(sent)) {
      const spec = STUDY_FIELD_BY_NAME.get(field);
      if (!spec) {
        problems.push({ path: `${path}.${field}`, message: STUDY_SERVICE_MESSAGES.unknownField(field) });
        continue;
      }
      const def = metadataDefinition(definitions, field);
      const label = def?.label ?? spec.label;
      if (!spec.editable) {
        problems.push({ path: `${path}.${field}`, message: STUDY_SERVICE_MESSAGES.notEditable(label) });
        continue;
      }
      // Only categorical fields are held to their option lists; text tags are free text.
      const options =
        spec.kind === 'choice' || spec.kind === 'choices' ? (def?.options ?? []).map((o) => o.value) : [];
      // 'APAC' is an option of region but is stored as its sub-regions.
      const normalised = normaliseTagValue({ ...spec, label }, value, options);
      if (normalised.ok) read.set(spec, normalised.value);
      else problems.push({ path: `${path}.${field}`, message: normalised.message });
    }
    if (problems.length > 0) throw errors.badRequest(problems[0]!.message, problems);
    return read;
  }

  /**
   * Writes the fields into the study after the stale check and the coherence rules. `shown` holds
   * the values the page showed, per field (undefined: not checked).
   */
  async function saveFields(
    user: AuthUser,
    id: number,
    values: Map<StudyFieldSpec, StoredValue>,
    shown: (spec: StudyFieldSpec) => { value: unknown } | undefined,
  ): Promise<StudyFieldChange[]> {
    const countryRegion = await repo.countryRegions();
    const changes = await repo.editStudy(
      id,
      studyByIdScope(user),
      (current) => {
        const stale = [...values.keys()].filter((spec) => {
          const old = shown(spec);
          return old !== undefined && !sameAsShown(spec, current[spec.column] as StoredValue, old.value);
        });
        if (stale.length > 0) throw errors.conflict(STUDY_MESSAGES.stale(stale.map((spec) => spec.field)));

        const changed = [...values.entries()].filter(
          ([spec, value]) => !sameStoredValue(current[spec.column] as StoredValue, value),
        );
        const next = { ...current };
        for (const [spec, value] of changed) (next as Record<string, unknown>)[spec.column] = value;
        const subject: CoherenceSubject = {
          region: next.region,
          country: next.country,
          lead_country: next.leadCountry,
          methodology: next.methodology,
          design_method: next.designMethod,
        };
        const incoherent = checkCoherence(
          subject,
          new Set(changed.map(([spec]) => spec.field)),
          countryRegion,
        );
        const bad = incoherentFieldNames(incoherent);
        if (bad.length > 0) {
          const message = `${STUDY_MESSAGES.incoherent} ${Object.values(incoherent).flat()[0] ?? ''}`.trim();
          throw new AppError(400, 'incoherent_fields', message, undefined, { incoherent_fields: incoherent });
        }
        return {
          set: Object.fromEntries(changed.map(([spec, value]) => [spec.column, value])),
          changes: changed.map(([spec, value]) => ({
            field: spec.field,
            old_value: studyValue(current, spec) ?? null,
            new_value: value,
          })),
        };
      },
      audit(user),
    );
    if (!changes) throw errors.notFound(`Study ${id} does not exist.`);
    return changes;
  }

  const answer = (changes: StudyFieldChange[]): StudyEditResponse => ({
    message: changes.length > 0 ? STUDY_MESSAGES.saved : STUDY_MESSAGES.nothingChanged,
    changes,
  });

  return {
    async details(user: AuthUser, id: number): Promise<StudyDetailsResponse> {
      const study = await visibleStudy(user, id);
      const [definitions, fragranceRows, conceptRows, hasQuestions] = await Promise.all([
        fields.definitions(),
        repo.fragrancesOf(id),
        repo.conceptsOf(id),
        repo.hasQuestions(id),
      ]);
      return presentDetails(study, definitions, fragranceRows, conceptRows, hasQuestions);
    },

    /**
     * Details edit: the sent fields are validated, compared with the stored values the page showed
     * (a difference answers 409, nothing saved), checked for coherence (400 with incoherent_fields)
     * and saved with one history row listing the fields that really changed.
     */
    async update(user: AuthUser, id: number, body: UpdateInput): Promise<StudyEditResponse> {
      await visibleStudy(user, id);
      const definitions = await fields.definitions();
      const values = readFields(body.study, definitions, 'study');
      const missing = [...values.keys()].filter((spec) => !(spec.field in body.oldData));
      if (missing.length > 0) {
        const problems = missing.map((spec) => ({
          path: `oldData.${spec.field}`,
          message: STUDY_SERVICE_MESSAGES.oldDataMissing(spec.field),
        }));
        throw errors.badRequest(problems[0]!.message, problems);
      }
      return answer(await saveFields(user, id, values, (spec) => ({ value: body.oldData[spec.field] })));
    },

    /** Table edits and single tags (see StudyTagEditRequest). */
    async editTags(user: AuthUser, id: number, body: TagEditInput): Promise<StudyEditResponse> {
      await visibleStudy(user, id);
      if (body.type === 'tag') {
        const definitions = await fields.definitions();
        const values = readFields({ [body.field]: body.value }, definitions, 'value');
        return answer(
          await saveFields(user, id, values, () =>
            body.old_value === undefined ? undefined : { value: body.old_value },
          ),
        );
      }
      if (body.type === 'fragrances') {
        const rows = body.perfume_characteristics ?? [];
        checkClear(rows.length, body.clear_perfume_characteristics, 'clear_perfume_characteristics');
        const changes = await repo.editFragrances(
          id,
          studyByIdScope(user),
          (current) => {
            const byId = new Map(current.map((row) => [row.id, row]));
            const byCode = new Map(current.map((row) => [row.fragranceCode.toLowerCase(), row]));
            return planTable({
              current,
              next: rows.map((row) => ({
                id: row.id,
                code: row.fragrance_code,
                values: fragranceFromInput(
                  row,
                  row.id !== undefined ? byId.get(row.id) : byCode.get(row.fragrance_code.toLowerCase()),
                ),
              })),
              codeOf: (row) => row.fragranceCode,
              toNew: fragranceToNew,
              label: (row) => STUDY_SERVICE_MESSAGES.fragranceRow(row),
              tracked: FRAGRANCE_COLUMNS,
              fieldLabel: 'fragrance',
            });
          },
          audit(user),
        );
        if (!changes) throw errors.notFound(`Study ${id} does not exist.`);
        return answer(changes);
      }
      const rows = body.concepts ?? [];
      checkClear(rows.length, body.clear_concepts, 'clear_concepts');
      const tracked = Object.fromEntries(
        CONCEPT_TRACKED_FIELDS.map((field) => [field, CONCEPT_COLUMNS[field]!]),
      );
      const changes = await repo.editConcepts(
        id,
        studyByIdScope(user),
        (current) => {
          const byId = new Map(current.map((row) => [row.id, row]));
          const byCode = new Map(current.map((row) => [row.conceptCode.toLowerCase(), row]));
          return planTable({
            current,
            next: rows.map((row) => ({
              id: row.id,
              code: row.concept_code,
              values: conceptFromInput(
                row,
                row.id !== undefined ? byId.get(row.id) : byCode.get(row.concept_code.toLowerCase()),
              ),
            })),
            codeOf: (row) => row.conceptCode,
            toNew: conceptToNew,
            label: (row) => STUDY_SERVICE_MESSAGES.conceptRow(row),
            tracked: tracked as Record<string, keyof NewConcept>,
            fieldLabel: 'concept',
          });
        },
        audit(user),
      );
      if (!changes) throw errors.notFound(`Study ${id} does not exist.`);
      return answer(changes);
    },

    /** Tag definitions of the edit screens: study fields, fragrance and concept columns. */
    /** Tag definitions; client and sales users see only their own clients among the client options. */
    async options(user: AuthUser): Promise<StudyOptionsResponse> {
      const definitions = await fields.definitions();
      const options = (def: FieldRow | undefined) =>
        (def?.options ?? [])
          // As in the search fields: client and sales users never learn the names of other clients.
          .filter((option) => def?.field !== 'client' || canSeeClient(user, option.value))
          .map((option) => ({
            value: option.value,
            label: option.label,
            parent: option.parent,
          }));
      const metadata = STUDY_FIELDS.map((spec) => {
        const def = metadataDefinition(definitions, spec.field);
        return {
          field: spec.field,
          label: def?.label ?? spec.label,
          type: spec.kind === 'whole' ? 'int' : spec.kind === 'boolean' ? 'boolean' : (def?.type ?? 'string'),
          options: options(def),
          multivalue: spec.kind === 'choices',
          editable: spec.editable,
          tag_group: def?.tagGroup ?? null,
          whole_number: spec.kind === 'whole' || spec.kind === 'age',
        };
      });
      const table = (group: 'fragrance' | 'concept', columns: readonly string[]) =>
        columns.map((field) => {
          const def = definitions.find(
            (candidate) => candidate.fieldGroup === group && candidate.field === field,
          );
          return {
            field,
            label: def?.label ?? field.replace(/_/g, ' '),
            type: def?.type ?? (field === 'level' ? 'number' : 'string'),
            options: options(def),
            multivalue: false,
            editable: true,
            tag_group: null,
            whole_number: false,
          };
        });
      return {
        metadata,
        fragrance: table('fragrance', [...FRAGRANCE_TABLE_FIELDS, 'bench_create']),
        concept: table('concept', Object.keys(CONCEPT_COLUMNS)),
      };
    },

    async history(user: AuthUser, id: number): Promise<StudyEditHistoryResponse> {
      await visibleStudy(user, id);
      return presentHistory(await repo.history(id));
    },
  };
}

function checkClear(rowCount: number, clear: boolean | undefined, flag: string) {
  if (rowCount === 0 && !clear)
    throw errors.badRequest(STUDY_SERVICE_MESSAGES.clearRequired(flag), [
      { path: flag, message: STUDY_SERVICE_MESSAGES.clearRequired(flag) },
    ]);
  if (rowCount > 0 && clear)
    throw errors.badRequest(STUDY_SERVICE_MESSAGES.clearWithRows(flag), [
      { path: flag, message: STUDY_SERVICE_MESSAGES.clearWithRows(flag) },
    ]);
}

export type StudyService = ReturnType<typeof createStudyService>;
