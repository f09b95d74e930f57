import { describe, expect, it } from 'vitest';
import { FIELD_DEFINITIONS, METRICS } from '../../seed/catalogue.ts';
import { buildSampleZips, studyZipEntries } from '../../seed/sample-zips.ts';
import { generateAnswers, planStudy } from '../../seed/study-plan.ts';
import { buildZip } from '../../seed/zip.ts';
import { memoryFile, unpackToMemory } from './unpack.ts';
import { parseStudyResults } from './inject.ts';
import { testDateOf, validateStudies, type ReferenceData, type ZipFile } from './study-zip.ts';

const YEAR = 2026;

function options(field: string): Map<string, string> {
  const definition = FIELD_DEFINITIONS.find((d) => d.field === field && d.fieldGroup === 'metadata');
  return new Map((definition?.options ?? []).map((o) => [o.value.toLowerCase(), o.value]));
}

const reference = (existing: string[] = []): ReferenceData => ({
  clients: options('client'),
  regions: options('region'),
  countries: options('country'),
  categories: options('category'),
  metrics: new Map(METRICS.map((m) => [m.name.toLowerCase(), { id: m.id, kind: m.kind }])),
  existingCmis: new Set(existing.map((c) => c.toLowerCase())),
  lastYear: YEAR,
});

const samples = buildSampleZips(YEAR);

const validate = async (zip: Buffer, ref = reference(), replaceExisting = false) =>
  validateStudies(await unpackToMemory(zip), ref, { replaceExisting });

const summary = (issues: Awaited<ReturnType<typeof validate>>['issues']) =>
  issues.map((i) => ({
    level: i.level,
    high_msg: i.high_msg,
    file: i.path.file,
    ...(i.path.sheet ? { sheet: i.path.sheet } : {}),
    ...(i.path.row !== undefined ? { row: i.path.row } : {}),
    ...(i.path.column ? { column: i.path.column } : {}),
  }));

describe('validateStudies', () => {
  it('finds no problem in the clean sample and reads its studies', async () => {
    const result = await validate(samples.clean);
    expect(summary(result.issues)).toEqual([]);
    expect(result.studies.map((s) => s.metadata?.cMiNumber)).toEqual(samples.cleanCmis);
    const study = result.studies[0]!;
    expect(study.fragrances.length + study.concepts.length).toBe(4);
    expect(study.results).toHaveLength(1);
    expect(study.results[0]!.questions).toHaveLength(10);
    expect(study.documents.map((d) => d.folder).sort()).toEqual([
      'protocol',
      'questionnaire',
      'report',
      'screener',
    ]);
  });

  it('finds exactly the errors and warnings the sample with errors was built with', async () => {
    const result = await validate(samples.withErrors);
    const expected = samples.expected.map((e) => ({ ...e }));
    expect(summary(result.issues).sort(byKey)).toEqual(expected.sort(byKey));
  });

  it('refuses a study already in the library unless it is replaced explicitly', async () => {
    const cmi = samples.cleanCmis[0]!;
    const refused = await validate(samples.clean, reference([cmi]));
    expect(summary(refused.issues)).toEqual([
      {
        level: 'error',
        high_msg: 'Study already in the library',
        file: `${cmi}/request_form.xlsx`,
        sheet: 'Study',
        row: 4,
        column: 'B',
      },
    ]);
    const replaced = await validate(samples.clean, reference([cmi]), true);
    expect(replaced.issues.map((i) => [i.level, i.high_msg])).toEqual([['warning', 'Study replaced']]);
  });

  it('checks the request form fields against the known clients, regions, countries, categories and years', async () => {
    const files = await unpackToMemory(samples.clean);
    const cmi = samples.cleanCmis[0]!;
    const form = files.find((f) => f.path === `${cmi}/request_form.xlsx`)!;
    const { buildXlsx } = await import('../../seed/documents.ts');
    const bad = buildXlsx([
      {
        name: 'Study',
        rows: [
          ['field', 'value'],
          ['project_name', ''],
          ['client', 'Nobody Ltd'],
          ['c_mi_number', cmi],
          ['category', 'Spaceships'],
          ['region', 'Atlantis'],
          ['country', 'France; Narnia'],
          ['year', 1800],
        ],
      },
      { name: 'Fragrances', rows: [['name', 'fragrance_code']] },
    ]);
    const replaced: ZipFile[] = files.map((f) => (f === form ? memoryFile(f.path, bad) : f));
    const result = await validateStudies(replaced, reference(), { replaceExisting: false });
    const formIssues = result.issues.filter((i) => i.path.file === form.path).map((i) => i.high_msg);
    expect(formIssues).toEqual([
      'Empty project_name',
      'Unknown client',
      'Unknown category',
      'Unknown region',
      'Unknown country',
      'Year out of range',
    ]);
    expect(result.issues.find((i) => i.high_msg === 'Unknown country')?.msg).toBe(
      '"Narnia" is not a known country.',
    );
  });

  it('attaches missing files and unknown documents to their folder or file', async () => {
    const zip = buildZip([
      { name: 'loose.txt', data: 'x' },
      { name: 'CMI-X/report/notes.txt', data: 'notes' },
      { name: 'CMI-X/misc/a.pdf', data: '%PDF' },
    ]);
    const result = await validate(zip);
    expect(summary(result.issues)).toEqual([
      { level: 'error', high_msg: 'File outside a study folder', file: 'loose.txt' },
      { level: 'error', high_msg: 'Missing request form', file: 'CMI-X' },
      { level: 'error', high_msg: 'Unknown document type', file: 'CMI-X/report/notes.txt' },
      { level: 'error', high_msg: 'Unknown folder', file: 'CMI-X/misc/a.pdf' },
      { level: 'error', high_msg: 'Missing results file', file: 'CMI-X' },
    ]);
  });
});

const byKey = (
  a: { file: string; row?: number; high_msg: string },
  b: { file: string; row?: number; high_msg: string },
) =>
  `${a.file}|${String(a.row ?? 0).padStart(6, '0')}|${a.high_msg}`.localeCompare(
    `${b.file}|${String(b.row ?? 0).padStart(6, '0')}|${b.high_msg}`,
  );

describe('test_date of a results file', () => {
  const shape = { seed: 14, products: 4, respondents: 40, questions: 12, lastYear: YEAR };
  // Study 0 of seed 14 is an EEG study: its results file says when each respondent was tested.
  const plan = planStudy(shape, 0);
  const entries = () => studyZipEntries(plan, generateAnswers(plan, shape.seed));

  it('reads an ISO date, or the date of an ISO date and time, and nothing else', () => {
    expect(testDateOf('2024-03-11')).toBe('2024-03-11');
    expect(testDateOf(' 2024-03-11T14:30:00Z ')).toBe('2024-03-11');
    expect(testDateOf('2024-03-11 09:15')).toBe('2024-03-11');
    expect(testDateOf('2024-02-30')).toBeNull();
    expect(testDateOf('11/03/2024')).toBeNull();
    expect(testDateOf('')).toBeNull();
    expect(testDateOf(undefined)).toBeNull();
  });

  it('keeps the test dates of an EEG study and warns about one that is not a date', async () => {
    expect(plan.metadata.rdfType).toBe('eeg');
    const clean = await validate(buildZip(entries()));
    expect(summary(clean.issues)).toEqual([]);
    const zip = await unpackToMemory(buildZip(entries()));
    const [parsed] = await parseStudyResults(clean.studies[0]!, new Map(zip.map((f) => [f.path, f])));
    const dates = parsed!.respondents.map((r) => r.demographics.test_date);
    expect(dates).toEqual(plan.respondents.map((r) => r.testDate));
    expect(new Set(dates).size).toBeGreaterThanOrEqual(4);

    const broken = entries().map((entry) =>
      entry.name.endsWith('_results.csv')
        ? { ...entry, data: String(entry.data).replace(/,\d{4}-\d{2}-\d{2},/, ',2024-02-30,') }
        : entry,
    );
    const result = await validate(buildZip(broken));
    expect(summary(result.issues)).toEqual([
      {
        level: 'warning',
        high_msg: 'Unreadable test_date',
        file: `${plan.metadata.cMiNumber}/results/${plan.metadata.cMiNumber}_results.csv`,
        row: 2,
        column: 'test_date',
      },
    ]);
  });
});
