import { StudyTagEditRequest, type PerfumeCharacteristic, type StudyConcept } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  buildTableRequest,
  CONCEPT_TABLE,
  emptyDraftRow,
  FRAGRANCE_TABLE,
  hasEdits,
  removedRows,
  toDraftRows,
  trackChanges,
  validateDraft,
  type DraftRow,
  type FragranceField,
} from './editable-rows.ts';

function fragrance(id: number, overrides: Partial<PerfumeCharacteristic> = {}): PerfumeCharacteristic {
  return {
    id,
    name: `Fragrance ${id}`,
    ref_number: `DEV-${id}`,
    code: `10000${id}`,
    fragrance_code: `F${id}`,
    methodology: 'Sniff test',
    perfumer_name: 'Anne Roux',
    region: 'Europe',
    country: 'France',
    family: 'Floral',
    subfamily: 'Rose',
    specifier: 'House A',
    level: 12.5,
    supplemental_info: null,
    dominant_note_1: 'Rose',
    dominant_note_2: null,
    dominant_note_3: null,
    dominant_note_4: null,
    dominant_note_5: null,
    bench_create: 'creative',
    ...overrides,
  };
}

function concept(id: number, overrides: Partial<StudyConcept> = {}): StudyConcept {
  return {
    id,
    name: `Concept ${id}`,
    concept_code: `C${id}`,
    region: 'Europe',
    country: 'Spain',
    theme: 'Fresh',
    ingredient_1: 'Citrus',
    ingredient_2: null,
    ...overrides,
  };
}

function edit<Field extends string>(
  rows: DraftRow<Field>[],
  key: string,
  values: Partial<Record<Field, string>>,
): DraftRow<Field>[] {
  return rows.map((row) => (row.key === key ? { ...row, values: { ...row.values, ...values } } : row));
}

describe('toDraftRows', () => {
  it('shows every fragrance field as text, empty values as empty inputs', () => {
    const [row] = toDraftRows(FRAGRANCE_TABLE, [fragrance(7)]);
    expect(row!.key).toBe('row-7');
    expect(row!.id).toBe(7);
    expect(Object.keys(row!.values)).toHaveLength(18);
    expect(row!.values.level).toBe('12.5');
    expect(row!.values.supplemental_info).toBe('');
    expect(row!.values).not.toHaveProperty('bench_create');
  });
});

describe('trackChanges', () => {
  it('lists nothing for an untouched table', () => {
    const original = toDraftRows(FRAGRANCE_TABLE, [fragrance(1), fragrance(2)]);
    expect(trackChanges(FRAGRANCE_TABLE, original, original)).toEqual([]);
    expect(hasEdits(FRAGRANCE_TABLE, original, original)).toBe(false);
  });

  it('lists each changed fragrance field with its old and new value, trimming and emptying to null', () => {
    const original = toDraftRows(FRAGRANCE_TABLE, [fragrance(1), fragrance(2)]);
    const draft = edit(original, 'row-2', { name: '  Rose Night ', level: '20', dominant_note_1: ' ' });
    expect(trackChanges(FRAGRANCE_TABLE, original, draft)).toEqual([
      { field: 'name', old_value: 'Fragrance 2', new_value: 'Rose Night' },
      { field: 'level', old_value: 12.5, new_value: 20 },
      { field: 'dominant_note_1', old_value: 'Rose', new_value: null },
    ]);
    expect(hasEdits(FRAGRANCE_TABLE, original, draft)).toBe(true);
  });

  it('treats a level typed differently but equal as unchanged', () => {
    const original = toDraftRows(FRAGRANCE_TABLE, [fragrance(1)]);
    const draft = edit(original, 'row-1', { level: '12.50' });
    expect(trackChanges(FRAGRANCE_TABLE, original, draft)).toEqual([]);
    expect(hasEdits(FRAGRANCE_TABLE, original, draft)).toBe(false);
  });

  it('tracks only concept_code, country, name and region of concepts', () => {
    const original = toDraftRows(CONCEPT_TABLE, [concept(3)]);
    const draft = edit(original, 'row-3', { concept_code: 'C3-B', country: 'Italy' });
    expect(trackChanges(CONCEPT_TABLE, original, draft)).toEqual([
      { field: 'concept_code', old_value: 'C3', new_value: 'C3-B' },
      { field: 'country', old_value: 'Spain', new_value: 'Italy' },
    ]);
  });

  it('lists the filled fields of an added row and the held fields of a removed row', () => {
    const original = toDraftRows(CONCEPT_TABLE, [concept(1), concept(2, { region: null })]);
    const added = { ...emptyDraftRow(CONCEPT_TABLE, 'new-1') };
    added.values = { ...added.values, name: 'Ocean', concept_code: 'C9' };
    const draft = [added, original[0]!];
    expect(trackChanges(CONCEPT_TABLE, original, draft)).toEqual([
      { field: 'concept_code', old_value: null, new_value: 'C9' },
      { field: 'name', old_value: null, new_value: 'Ocean' },
      { field: 'concept_code', old_value: 'C2', new_value: null },
      { field: 'country', old_value: 'Spain', new_value: null },
      { field: 'name', old_value: 'Concept 2', new_value: null },
    ]);
    expect(removedRows(original, draft).map((row) => row.id)).toEqual([2]);
  });

  it('counts an added empty row as an edit', () => {
    const original = toDraftRows(CONCEPT_TABLE, [concept(1)]);
    const draft = [emptyDraftRow(CONCEPT_TABLE, 'new-1'), ...original];
    expect(trackChanges(CONCEPT_TABLE, original, draft)).toEqual([]);
    expect(hasEdits(CONCEPT_TABLE, original, draft)).toBe(true);
  });
});

describe('validateDraft', () => {
  it('accepts the study rows as they are', () => {
    const draft = toDraftRows(FRAGRANCE_TABLE, [fragrance(1), fragrance(2)]);
    expect(validateDraft(FRAGRANCE_TABLE, draft)).toEqual({});
  });

  it('names a missing name and code, a level outside 0-100 and a code used twice', () => {
    const original = toDraftRows(FRAGRANCE_TABLE, [fragrance(1), fragrance(2)]);
    let draft: DraftRow<FragranceField>[] = [emptyDraftRow(FRAGRANCE_TABLE, 'new-1'), ...original];
    draft = edit(draft, 'row-1', { level: '140' });
    draft = edit(draft, 'row-2', { fragrance_code: ' f1 ' });
    expect(validateDraft(FRAGRANCE_TABLE, draft)).toEqual({
      'new-1': {
        name: 'Every fragrance needs a name.',
        fragrance_code: 'Every fragrance needs a fragrance code.',
      },
      'row-1': { level: 'Level is a percentage between 0 and 100.' },
      'row-2': { fragrance_code: 'Each fragrance code may appear only once.' },
    });
  });

  it('refuses a level that is not a number', () => {
    const draft = edit(toDraftRows(FRAGRANCE_TABLE, [fragrance(1)]), 'row-1', { level: 'high' });
    expect(validateDraft(FRAGRANCE_TABLE, draft)['row-1']).toEqual({
      level: 'Level is a percentage between 0 and 100.',
    });
  });

  it('checks concepts the same way', () => {
    const draft = [emptyDraftRow(CONCEPT_TABLE, 'new-1')];
    expect(validateDraft(CONCEPT_TABLE, draft)).toEqual({
      'new-1': { name: 'Every concept needs a name.', concept_code: 'Every concept needs a concept code.' },
    });
  });
});

describe('buildTableRequest', () => {
  it('sends the whole fragrance table, kept rows with their id, added rows without', () => {
    const original = toDraftRows(FRAGRANCE_TABLE, [fragrance(1), fragrance(2)]);
    const added = emptyDraftRow(FRAGRANCE_TABLE, 'new-1');
    added.values = { ...added.values, name: 'Amber', fragrance_code: 'F9', level: '5' };
    const draft = [added, original[1]!];
    const request = buildTableRequest(FRAGRANCE_TABLE, original, draft);
    expect(StudyTagEditRequest.safeParse(request).success).toBe(true);
    expect(request.type).toBe('fragrances');
    if (request.type !== 'fragrances') throw new Error('unreachable');
    expect(request.clear_perfume_characteristics).toBeUndefined();
    expect(request.perfume_characteristics).toHaveLength(2);
    expect(request.perfume_characteristics![0]).toMatchObject({
      name: 'Amber',
      fragrance_code: 'F9',
      level: 5,
      perfumer_name: null,
    });
    expect(request.perfume_characteristics![0]).not.toHaveProperty('id');
    expect(request.perfume_characteristics![1]).toMatchObject({ id: 2, name: 'Fragrance 2', level: 12.5 });
    expect(request.perfume_characteristics![1]).not.toHaveProperty('bench_create');
    expect(request.changes).toContainEqual({ field: 'name', old_value: null, new_value: 'Amber' });
    expect(request.changes).toContainEqual({ field: 'name', old_value: 'Fragrance 1', new_value: null });
  });

  it('sends the clear flag and no rows when every fragrance was removed', () => {
    const original = toDraftRows(FRAGRANCE_TABLE, [fragrance(1)]);
    const request = buildTableRequest(FRAGRANCE_TABLE, original, []);
    expect(StudyTagEditRequest.safeParse(request).success).toBe(true);
    expect(request).toMatchObject({ type: 'fragrances', clear_perfume_characteristics: true });
    expect(request).not.toHaveProperty('perfume_characteristics');
  });

  it('sends the four concept columns only, so theme and ingredients keep their stored values', () => {
    const original = toDraftRows(CONCEPT_TABLE, [concept(4)]);
    const request = buildTableRequest(CONCEPT_TABLE, original, edit(original, 'row-4', { region: '' }));
    expect(StudyTagEditRequest.safeParse(request).success).toBe(true);
    expect(request).toEqual({
      type: 'concepts',
      concepts: [{ id: 4, name: 'Concept 4', concept_code: 'C4', region: null, country: 'Spain' }],
      changes: [{ field: 'region', old_value: 'Europe', new_value: null }],
    });
  });

  it('sends clear_concepts when every concept was removed', () => {
    const original = toDraftRows(CONCEPT_TABLE, [concept(1)]);
    expect(buildTableRequest(CONCEPT_TABLE, original, [])).toEqual({
      type: 'concepts',
      clear_concepts: true,
      changes: [
        { field: 'concept_code', old_value: 'C1', new_value: null },
        { field: 'country', old_value: 'Spain', new_value: null },
        { field: 'name', old_value: 'Concept 1', new_value: null },
        { field: 'region', old_value: 'Europe', new_value: null },
      ],
    });
  });
});
