/**
 * Studies zips in the upload format (docs/data-formats.md), generated from the demo library's study
 * plans: a clean sample, a sample with errors and warnings (plus the corrected results file that
 * fixes it), the downloadable templates, and zips of any size for the bench.
 */
import { CONCEPT_COLUMNS, FRAGRANCE_COLUMNS } from '../modules/fileprocess/study-zip.ts';
import { buildXlsx, csvLine, type Cell, type Sheet } from './documents.ts';
import { buildResultsCsv, buildScaleCsv, buildStudyFiles } from './study-files.ts';
import { generateAnswers, planStudy, type LibraryShape, type StudyPlan } from './study-plan.ts';
import { buildZip, type ZipEntry } from './zip.ts';

/** Library indexes of the sample studies: far beyond the demo library, so CMI numbers never collide. */
export const SAMPLE_FIRST_INDEX = 90_000;
export const SAMPLE_SEED = 20_260;

const STUDY_FIELDS = [
  'project_name',
  'client',
  'c_mi_number',
  'pace_number',
  'business_unit',
  'division',
  'category',
  'product_type',
  'region',
  'lead_country',
  'country',
  'methodology',
  'panel_profile',
  'design_method',
  'research_type',
  'cmi_tool_type',
  'evaluation',
  'gender',
  'age',
  'social_class',
  'study_sample_size',
  'number_of_products',
  'base',
  'objective_and_action_standards',
  'year',
  'rdf_type',
  'is_genisys',
] as const;

// The sheets' headers are the columns the upload validator reads (one definition of the format).
const FRAGRANCE_HEADER: Cell[] = [...FRAGRANCE_COLUMNS];
const CONCEPT_HEADER: Cell[] = [...CONCEPT_COLUMNS];

const list = (values: readonly string[]) => values.join('; ');

function studyValues(plan: StudyPlan): Record<(typeof STUDY_FIELDS)[number], Cell> {
  const m = plan.metadata;
  return {
    project_name: m.projectName,
    client: m.client,
    c_mi_number: m.cMiNumber,
    pace_number: m.paceNumber,
    business_unit: list(m.productArea),
    division: m.division,
    category: m.category,
    product_type: m.productType,
    region: list(m.region),
    lead_country: m.leadCountry,
    country: list(m.country),
    methodology: m.methodology,
    panel_profile: m.panelProfile,
    design_method: m.designMethod,
    research_type: list(m.researchType),
    cmi_tool_type: list(m.cmiToolType),
    evaluation: list(m.evaluation),
    gender: list(m.gender),
    age: m.age,
    social_class: list(m.socialClass),
    study_sample_size: m.studySampleSize,
    number_of_products: m.numberOfProducts,
    base: m.base,
    objective_and_action_standards: m.objectiveAndActionStandards,
    year: m.year,
    rdf_type: m.rdfType,
    is_genisys: m.isGenisys ? 'yes' : 'no',
  };
}

/** The request form of a study: sheets Study, Fragrances and (when it has concepts) Concepts. */
export function buildRequestForm(plan: StudyPlan, fragranceRows?: Cell[][]): Buffer {
  const values = studyValues(plan);
  const sheets: Sheet[] = [
    { name: 'Study', rows: [['field', 'value'], ...STUDY_FIELDS.map((field) => [field, values[field]])] },
    {
      name: 'Fragrances',
      rows: [
        FRAGRANCE_HEADER,
        ...(fragranceRows ??
          plan.fragrances.map((f) => [
            f.name,
            f.fragranceCode,
            f.refNumber,
            f.code,
            f.methodology,
            f.perfumerName,
            f.region,
            f.country,
            f.family,
            f.subfamily,
            f.specifier,
            f.level,
            f.supplementalInfo,
            ...[0, 1, 2, 3, 4].map((i) => f.dominantNotes[i] ?? null),
            f.creative ? 'yes' : 'no',
          ])),
      ],
    },
  ];
  if (plan.concepts.length > 0)
    sheets.push({
      name: 'Concepts',
      rows: [
        CONCEPT_HEADER,
        ...plan.concepts.map((c) => [
          c.name,
          c.conceptCode,
          c.region,
          c.country,
          c.theme,
          c.ingredient1,
          c.ingredient2,
        ]),
      ],
    });
  return buildXlsx(sheets);
}

/** Every entry of one study folder: request form, results with scale, and the documents. */
export function studyZipEntries(plan: StudyPlan, answers: Float64Array): ZipEntry[] {
  const cmi = plan.metadata.cMiNumber;
  const entries: ZipEntry[] = [{ name: `${cmi}/request_form.xlsx`, data: buildRequestForm(plan) }];
  for (const file of buildStudyFiles(plan, answers)) {
    const current = file.versions[file.versions.length - 1];
    if (!current) continue;
    entries.push({ name: `${cmi}/${file.folder}/${file.name}`, data: current.bytes });
  }
  return entries;
}

function samplePlan(
  index: number,
  shape: Partial<LibraryShape> = {},
): { plan: StudyPlan; answers: Float64Array } {
  const full: LibraryShape = {
    seed: shape.seed ?? SAMPLE_SEED,
    products: shape.products ?? 4,
    respondents: shape.respondents ?? 40,
    questions: shape.questions ?? 10,
    lastYear: shape.lastYear ?? new Date().getFullYear(),
  };
  const plan = planStudy(full, index);
  return { plan, answers: generateAnswers(plan, full.seed) };
}

/** Rows of a small CSV text (the generator's own output), for the sample with errors. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

export interface SampleZips {
  /** Two studies without any problem. */
  clean: Buffer;
  /** Two studies: the first with a warning, the second with errors and warnings in its results file. */
  withErrors: Buffer;
  /** Path inside withErrors of the results file with errors. */
  badResultsPath: string;
  /** The corrected results file: replacing the bad one with it leaves warnings only. */
  fixedResults: Buffer;
  /** CMI numbers of the studies of each sample. */
  cleanCmis: string[];
  errorCmis: string[];
}

/** What the sample with errors holds, exactly (docs/data-formats.md lists the same). */
export interface ExpectedIssue {
  level: 'error' | 'warning';
  high_msg: string;
  file: string;
  sheet?: string;
  row?: number;
  column?: string;
}

export function buildSampleZips(
  lastYear = new Date().getFullYear(),
): SampleZips & { expected: ExpectedIssue[] } {
  const shape = { lastYear };
  const cleanStudies = [0, 1].map((i) => samplePlan(SAMPLE_FIRST_INDEX + i, shape));
  const clean = buildZip(cleanStudies.flatMap(({ plan, answers }) => studyZipEntries(plan, answers)));

  const [a, b] = [2, 3].map((i) => samplePlan(SAMPLE_FIRST_INDEX + i, shape)) as [
    ReturnType<typeof samplePlan>,
    ReturnType<typeof samplePlan>,
  ];
  const expected: ExpectedIssue[] = [];

  // Study A: a fragrance level that is not a number (a warning; the level is left empty).
  const aCmi = a.plan.metadata.cMiNumber;
  const aEntries = studyZipEntries(a.plan, a.answers);
  const fragranceRows: Cell[][] = a.plan.fragrances.map((f, i) => [
    f.name,
    f.fragranceCode,
    f.refNumber,
    f.code,
    f.methodology,
    f.perfumerName,
    f.region,
    f.country,
    f.family,
    f.subfamily,
    f.specifier,
    i === 0 ? 'n/a' : f.level,
    f.supplementalInfo,
    ...[0, 1, 2, 3, 4].map((n) => f.dominantNotes[n] ?? null),
    f.creative ? 'yes' : 'no',
  ]);
  (aEntries[0] as ZipEntry).data = buildRequestForm(a.plan, fragranceRows);
  expected.push({
    level: 'warning',
    high_msg: 'Unreadable level',
    file: `${aCmi}/request_form.xlsx`,
    sheet: 'Fragrances',
    row: 2,
    column: 'L',
  });

  // Study B: problems in its results file.
  const bCmi = b.plan.metadata.cMiNumber;
  const bEntries = studyZipEntries(b.plan, b.answers);
  const resultsName = `${bCmi}_results.csv`;
  const badResultsPath = `${bCmi}/results/${resultsName}`;
  const fixedResults = Buffer.from(buildResultsCsv(b.plan, b.answers), 'utf8');
  const rows = parseCsv(fixedResults.toString('utf8'));
  const header = rows[0] as string[];
  const liking = b.plan.questions.find((q) => q.role === 'liking') ?? b.plan.questions[0];
  const likingColumn = header.indexOf(liking?.qid ?? '');
  const dropped = header.length - 1;
  // Row numbers count the header as row 1.
  (rows[1] as string[])[likingColumn] = '99';
  expected.push({
    level: 'error',
    high_msg: 'Value outside its scale',
    file: badResultsPath,
    row: 2,
    column: header[likingColumn],
  });
  (rows[2] as string[])[header.indexOf('age')] = 'unknown';
  expected.push({
    level: 'warning',
    high_msg: 'Unreadable age',
    file: badResultsPath,
    row: 3,
    column: 'age',
  });
  (rows[4] as string[])[header.indexOf('product_code')] = 'XX999';
  expected.push({
    level: 'error',
    high_msg: 'Unknown product code',
    file: badResultsPath,
    row: 5,
    column: 'product_code',
  });
  rows.push([...(rows[3] as string[])]);
  expected.push({
    level: 'error',
    high_msg: 'Duplicate respondent',
    file: badResultsPath,
    row: rows.length,
    column: 'respondent_id',
  });
  const bad = rows.map((row) => csvLine(row.filter((_, i) => i !== dropped))).join('');
  expected.push({ level: 'warning', high_msg: 'Question without answers', file: badResultsPath, row: 1 });
  const badEntry = bEntries.find((e) => e.name === badResultsPath) as ZipEntry;
  badEntry.data = bad;

  return {
    clean,
    withErrors: buildZip([...aEntries, ...bEntries]),
    badResultsPath,
    fixedResults,
    cleanCmis: cleanStudies.map(({ plan }) => plan.metadata.cMiNumber),
    errorCmis: [aCmi, bCmi],
    expected,
  };
}

/** A zip of `studies` generated studies of the given shape (the bench's upload). */
export function buildStudiesZip(
  studies: number,
  shape: Partial<LibraryShape> = {},
  firstIndex = SAMPLE_FIRST_INDEX + 100,
): Buffer {
  const entries: ZipEntry[] = [];
  for (let i = 0; i < studies; i++) {
    const { plan, answers } = samplePlan(firstIndex + i, shape);
    entries.push(...studyZipEntries(plan, answers));
  }
  return buildZip(entries);
}

/** The downloadable templates: an empty request form and a scale file with one example per type. */
export function buildTemplates(): { requestForm: Buffer; scaleFile: string } {
  const requestForm = buildXlsx([
    { name: 'Study', rows: [['field', 'value'], ...STUDY_FIELDS.map((field) => [field, null])] },
    { name: 'Fragrances', rows: [FRAGRANCE_HEADER] },
    { name: 'Concepts', rows: [CONCEPT_HEADER] },
  ]);
  const { plan } = samplePlan(SAMPLE_FIRST_INDEX, { questions: 10 });
  const scaleFile = buildScaleCsv(plan);
  return { requestForm, scaleFile };
}
