/**
 * Loads the demo library into a database: plans studies in batches, writes their files to storage,
 * and bulk-loads every table with COPY. Ids are assigned here (sequences are moved past them at the
 * end), so parents and children go in one pass. When the answers table starts empty its secondary
 * indexes and primary key are dropped during the load and rebuilt once, which is several times
 * faster than maintaining them row by row.
 */
import type { Database } from '../db/client.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { METRICS } from './catalogue.ts';
import { harmoniseToFivePoint } from './latent-model.ts';
import { CsvTable, json } from './pg-csv.ts';
import {
  DEFAULT_SHAPE,
  FIRST_YEAR,
  generateAnswers,
  planStudy,
  type LibraryShape,
  type StudyPlan,
} from './study-plan.ts';
import { buildStudyFiles, resultsFileName } from './study-files.ts';
import { DEMO_USERS } from './users.ts';

export type SeedPhase = 'loading' | 'statistics' | 'indexes' | 'analyze' | 'done';

export interface DemoLibraryOptions {
  /** Studies to add. */
  studies: number;
  /** Seed of the generator: the same seed gives the same library. */
  seed: number;
  /** Products (fragrances plus concepts) per study; 8 by default. */
  products?: number;
  /** Respondents per study; 150 by default. */
  respondents?: number;
  /** Questions per study; 25 by default. */
  questions?: number;
  /** Studies generated and loaded per batch; bounds memory (about 1 MB of CSV per study). */
  batchSize?: number;
  /** Last year of the library; the current year by default. */
  lastYear?: number;
  /** Called after every batch and at each finishing phase. */
  onProgress?(done: number, total: number, phase: SeedPhase): void;
}

export interface DemoLibrarySummary {
  studies: number;
  firstStudyId: number;
  lastStudyId: number;
  products: number;
  respondents: number;
  questions: number;
  answers: number;
  files: number;
  /** Whether the answers indexes were dropped for the load and rebuilt. */
  rebuiltIndexes: boolean;
  milliseconds: number;
}

const ID_TABLES = [
  'studies',
  'fragrances',
  'concepts',
  'products',
  'questions',
  'respondents',
  'study_files',
  'study_file_versions',
  'study_edit_history',
] as const;
type IdTable = (typeof ID_TABLES)[number];

const columns = (names: string): readonly string[] => names.trim().split(/\s+/);

const COLUMNS = {
  studies: columns(`
    id project_name client c_mi_number pace_number product_area division category product_type region
    lead_country country methodology panel_profile design_method research_type cmi_tool_type evaluation gender
    age social_class study_sample_size number_of_products base objective_and_action_standards year rdf_type
    is_genisys verified created_at updated_at`),
  fragrances: columns(`
    id study_id name ref_number code fragrance_code methodology perfumer_name region country family subfamily
    specifier level supplemental_info dominant_note_1 dominant_note_2 dominant_note_3 dominant_note_4
    dominant_note_5 creative`),
  concepts: columns('id study_id name concept_code region country theme ingredient_1 ingredient_2'),
  products: columns('id study_id kind code fragrance_id concept_id'),
  study_files: columns('id study_id file_type folder name extension current_version_id created_at'),
  study_file_versions: columns('id file_id name storage_key size status errors uploaded_by created_at'),
  questions: columns(`
    id study_id filename path results_file_id qid text question_type scale_min scale_max labels constant_value
    metric_id suggested_metric_id metric_validated sort_order`),
  respondents: columns(
    'id study_id respondent_code gender age ethnicity social_class country bumo test_date',
  ),
  study_edit_history: columns('id study_id user_id user_email type change_date changes'),
  // Primary-key columns first: rows are written sorted by (question, product, respondent).
  answers: columns('question_id product_id respondent_id study_id metric_id raw_value value'),
};

/** Parent tables first, so foreign keys hold after every COPY. */
const LOAD_ORDER = [
  'studies',
  'fragrances',
  'concepts',
  'products',
  'study_files',
  'study_file_versions',
  'questions',
  'respondents',
  'study_edit_history',
] as const satisfies readonly IdTable[];

const DAY = 86_400_000;
const BOX_TOLERANCE = 1e-6;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Adds `options.studies` generated studies (with everything they hold) to the library. */
export async function seedDemoLibrary(
  database: Database,
  storage: FileStorage,
  options: DemoLibraryOptions,
): Promise<DemoLibrarySummary> {
  const started = performance.now();
  const total = Math.max(0, Math.floor(options.studies));
  const shape: LibraryShape = {
    seed: options.seed,
    products: options.products ?? DEFAULT_SHAPE.products,
    respondents: options.respondents ?? DEFAULT_SHAPE.respondents,
    questions: options.questions ?? DEFAULT_SHAPE.questions,
    lastYear: Math.max(FIRST_YEAR, options.lastYear ?? new Date().getFullYear()),
  };
  if (shape.products < 1 || shape.respondents < 1 || shape.questions < 1) {
    throw new Error('products, respondents and questions must be at least 1');
  }
  const batchSize = Math.max(1, options.batchSize ?? 20);
  const summary: DemoLibrarySummary = {
    studies: total,
    firstStudyId: 0,
    lastStudyId: 0,
    products: 0,
    respondents: 0,
    questions: 0,
    answers: 0,
    files: 0,
    rebuiltIndexes: false,
    milliseconds: 0,
  };
  if (total === 0) return summary;

  const nextId = await currentMaxIds(database);
  const userIds = await demoUserIds(database);
  summary.firstStudyId = nextId.studies + 1;
  summary.lastStudyId = nextId.studies + total;
  // Library index = study id - 1 on a fresh database; continuing after existing studies keeps CMI numbers unique.
  const firstIndex = nextId.studies;
  const firstProductId = nextId.products + 1;

  const answersWereEmpty = (await database.sql.executeSql('SELECT 1 FROM answers LIMIT 1')).rows.length === 0;
  const droppedIndexes = answersWereEmpty ? await dropAnswerIndexes(database) : [];
  summary.rebuiltIndexes = droppedIndexes.length > 0;

  let pendingAnswers: Promise<void> | undefined;
  try {
    for (let start = 0; start < total; start += batchSize) {
      const end = Math.min(total, start + batchSize);
      const batch = await buildBatch(
        shape,
        firstIndex + start,
        firstIndex + end,
        nextId,
        userIds,
        storage,
        summary,
      );
      // At most one answers COPY in flight: the next batch is generated while the server ingests this one.
      if (pendingAnswers) await pendingAnswers;
      for (const table of LOAD_ORDER) {
        const csv = batch.tables[table];
        if (csv.rowCount > 0) await database.copyCsv(table, [...csv.columns], csv.text());
      }
      pendingAnswers = database.copyCsv('answers', [...COLUMNS.answers], batch.answers.text());
      pendingAnswers.catch(() => undefined); // observed by the await above or below
      options.onProgress?.(end, total, 'loading');
    }
    if (pendingAnswers) await pendingAnswers;
    for (const table of ID_TABLES) {
      await database.sql.executeSql(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
      );
    }
  } finally {
    if (pendingAnswers) await pendingAnswers.catch(() => undefined);
    if (droppedIndexes.length > 0) {
      options.onProgress?.(total, total, 'indexes');
      await restoreAnswerIndexes(database, droppedIndexes);
    }
  }
  // VACUUM sets the visibility map, without which analytics (and the statistics below) cannot use
  // index-only scans of the covering answers index; PGlite has no autovacuum to do it later.
  options.onProgress?.(total, total, 'analyze');
  await database.sql.executeSql('VACUUM ANALYZE answers');
  options.onProgress?.(total, total, 'statistics');
  await fillProductMetricStats(database, firstProductId);
  // Triggers on answers (migration 0005) filled product_metric_demo_stats while the answers loaded;
  // VACUUM lets demographic filters read it by index-only scans (PGlite has no autovacuum).
  await database.sql.executeSql('VACUUM ANALYZE product_metric_demo_stats');
  // answers was analyzed with its VACUUM above; the planner needs fresh statistics of the rest too.
  await database.sql.executeSql(`ANALYZE ${[...LOAD_ORDER, 'product_metric_stats'].join(', ')}`);
  options.onProgress?.(total, total, 'done');
  summary.milliseconds = Math.round(performance.now() - started);
  return summary;
}

async function currentMaxIds(database: Database): Promise<Record<IdTable, number>> {
  const select = ID_TABLES.map((t) => `(SELECT coalesce(max(id), 0) FROM ${t}) AS ${t}`).join(', ');
  const row = (await database.sql.executeSql(`SELECT ${select}`)).rows[0] ?? {};
  return Object.fromEntries(ID_TABLES.map((t) => [t, Number(row[t] ?? 0)])) as Record<IdTable, number>;
}

interface DemoUserIds {
  admin: { id: number | null; email: string };
  researcher: number | null;
}

async function demoUserIds(database: Database): Promise<DemoUserIds> {
  const adminEmail = DEMO_USERS.find((u) => u.roleId === 1)?.email ?? 'admin@accord.test';
  const researcherEmail = DEMO_USERS.find((u) => u.roleId === 2)?.email ?? 'researcher@accord.test';
  const { rows } = await database.sql.executeSql(
    'SELECT id, lower(email) AS email FROM users WHERE lower(email) = ANY($1)',
    [[adminEmail, researcherEmail]],
  );
  const idOf = (email: string) => {
    const row = rows.find((r) => r.email === email);
    return row ? Number(row.id) : null;
  };
  return { admin: { id: idOf(adminEmail), email: adminEmail }, researcher: idOf(researcherEmail) };
}

interface Batch {
  tables: Record<(typeof LOAD_ORDER)[number], CsvTable>;
  answers: CsvTable;
}

/** Harmonised answer tokens "raw,value\n" for every point of an integer scale. */
function scaleTokens(min: number, max: number): string[] {
  const tokens: string[] = [];
  for (let v = min; v <= max; v++) {
    tokens.push(`${v},${harmoniseToFivePoint(v, min, max)}\n`);
  }
  return tokens;
}

async function buildBatch(
  shape: LibraryShape,
  fromIndex: number,
  toIndex: number,
  nextId: Record<IdTable, number>,
  users: DemoUserIds,
  storage: FileStorage,
  summary: DemoLibrarySummary,
): Promise<Batch> {
  const tables = Object.fromEntries(
    LOAD_ORDER.map((t) => [t, new CsvTable(t, COLUMNS[t])]),
  ) as Batch['tables'];
  const answers = new CsvTable('answers', COLUMNS.answers);
  const writes: Promise<void>[] = [];

  for (let index = fromIndex; index < toIndex; index++) {
    const plan = planStudy(shape, index);
    const values = generateAnswers(plan, shape.seed);
    const studyId = ++nextId.studies;
    const m = plan.metadata;
    const createdAt = m.createdAt;
    const later = (days: number) => new Date(Math.min(createdAt.getTime() + days * DAY, Date.now()));

    tables.studies.add({
      id: studyId,
      project_name: m.projectName,
      client: m.client,
      c_mi_number: m.cMiNumber,
      pace_number: m.paceNumber,
      product_area: m.productArea,
      division: m.division,
      category: m.category,
      product_type: m.productType,
      region: m.region,
      lead_country: m.leadCountry,
      country: m.country,
      methodology: m.methodology,
      panel_profile: m.panelProfile,
      design_method: m.designMethod,
      research_type: m.researchType,
      cmi_tool_type: m.cmiToolType,
      evaluation: m.evaluation,
      gender: m.gender,
      age: m.age,
      social_class: m.socialClass,
      study_sample_size: m.studySampleSize,
      number_of_products: m.numberOfProducts,
      base: m.base,
      objective_and_action_standards: m.objectiveAndActionStandards,
      year: m.year,
      rdf_type: m.rdfType,
      is_genisys: m.isGenisys,
      verified: m.verified,
      created_at: createdAt,
      updated_at: later(plan.edits.length > 0 ? 200 : 30),
    });

    const fragranceIds = plan.fragrances.map((f) => {
      const id = ++nextId.fragrances;
      tables.fragrances.add({
        id,
        study_id: studyId,
        name: f.name,
        ref_number: f.refNumber,
        code: f.code,
        fragrance_code: f.fragranceCode,
        methodology: f.methodology,
        perfumer_name: f.perfumerName,
        region: f.region,
        country: f.country,
        family: f.family,
        subfamily: f.subfamily,
        specifier: f.specifier,
        level: f.level,
        supplemental_info: f.supplementalInfo,
        dominant_note_1: f.dominantNotes[0],
        dominant_note_2: f.dominantNotes[1],
        dominant_note_3: f.dominantNotes[2],
        dominant_note_4: f.dominantNotes[3],
        dominant_note_5: f.dominantNotes[4],
        creative: f.creative,
      });
      return id;
    });
    const conceptIds = plan.concepts.map((c) => {
      const id = ++nextId.concepts;
      tables.concepts.add({
        id,
        study_id: studyId,
        name: c.name,
        concept_code: c.conceptCode,
        region: c.region,
        country: c.country,
        theme: c.theme,
        ingredient_1: c.ingredient1,
        ingredient_2: c.ingredient2,
      });
      return id;
    });
    const productIds = plan.products.map((p) => {
      const id = ++nextId.products;
      tables.products.add({
        id,
        study_id: studyId,
        kind: p.kind,
        code: p.code,
        fragrance_id: p.kind === 'fragrance' ? fragranceIds[p.index] : null,
        concept_id: p.kind === 'concept' ? conceptIds[p.index] : null,
      });
      return id;
    });
    summary.products += productIds.length;

    let resultsFileId: number | null = null;
    for (const file of buildStudyFiles(plan, values)) {
      const fileId = ++nextId.study_files;
      if (file.name === resultsFileName(plan)) resultsFileId = fileId;
      let currentVersionId = 0;
      for (const version of file.versions) {
        const versionId = ++nextId.study_file_versions;
        currentVersionId = versionId;
        const storageKey = `studies/${studyId}/${file.folder}/${versionId}/${file.name}`;
        writes.push(storage.put(storageKey, version.bytes));
        tables.study_file_versions.add({
          id: versionId,
          file_id: fileId,
          name: file.name,
          storage_key: storageKey,
          size: version.bytes.length,
          status: version.status,
          errors: json(version.errors),
          uploaded_by: users.researcher ?? users.admin.id,
          created_at: later(version.daysAfterCreation),
        });
      }
      tables.study_files.add({
        id: fileId,
        study_id: studyId,
        file_type: file.fileType,
        folder: file.folder,
        name: file.name,
        extension: file.extension,
        current_version_id: currentVersionId,
        created_at: createdAt,
      });
      summary.files++;
    }

    const resultsName = resultsFileName(plan);
    const questionIds = plan.questions.map((q, i) => {
      const id = ++nextId.questions;
      tables.questions.add({
        id,
        study_id: studyId,
        filename: resultsName,
        path: `results/${resultsName}`,
        results_file_id: resultsFileId,
        qid: q.qid,
        text: q.text,
        question_type: q.questionType,
        scale_min: q.scale.min,
        scale_max: q.scale.max,
        labels: json(q.scale.labels),
        metric_id: q.metricId,
        suggested_metric_id: q.suggestedMetricId,
        metric_validated: q.metricValidated,
        sort_order: i,
      });
      return id;
    });
    summary.questions += questionIds.length;

    const respondentIds = plan.respondents.map((r) => {
      const id = ++nextId.respondents;
      tables.respondents.add({
        id,
        study_id: studyId,
        respondent_code: r.code,
        gender: r.gender,
        age: r.age,
        ethnicity: r.ethnicity,
        social_class: r.socialClass,
        country: r.country,
        bumo: r.bumo,
        test_date: r.testDate,
      });
      return String(id);
    });
    summary.respondents += respondentIds.length;

    for (const edit of plan.edits) {
      tables.study_edit_history.add({
        id: ++nextId.study_edit_history,
        study_id: studyId,
        user_id: users.admin.id,
        user_email: users.admin.email,
        type: edit.type,
        change_date: later(edit.daysAfterCreation),
        changes: json(edit.changes),
      });
    }

    const [text, rows] = answersCsv(plan, values, studyId, questionIds, productIds, respondentIds);
    answers.addRaw(text, rows);
    summary.answers += rows;
    // Lets a COPY of the previous batch stream to the server while this one is generated.
    await yieldToEventLoop();
  }
  await Promise.all(writes);
  return { tables, answers };
}

/** Answer rows of one study in primary-key order (question, product, respondent). */
function answersCsv(
  plan: StudyPlan,
  values: Float64Array,
  studyId: number,
  questionIds: number[],
  productIds: number[],
  respondentIds: string[],
): [string, number] {
  const productCount = productIds.length;
  const respondentCount = respondentIds.length;
  let out = '';
  let rows = 0;
  for (let q = 0; q < questionIds.length; q++) {
    const question = plan.questions[q] as StudyPlan['questions'][number];
    const { min, max, integer } = question.scale;
    const tokens = integer ? scaleTokens(min, max) : undefined;
    const suffix = `,${studyId},${question.metricId ?? ''},`;
    for (let p = 0; p < productCount; p++) {
      const prefix = `${questionIds[q]},${productIds[p]},`;
      const base = (q * productCount + p) * respondentCount;
      for (let r = 0; r < respondentCount; r++) {
        const value = values[base + r] as number;
        if (value !== value) continue; // NaN: not answered
        // EEG scores are continuous and keep the score in both columns.
        const token = tokens ? tokens[value - min] : `${value},${value}\n`;
        out += prefix + respondentIds[r] + suffix + token;
        rows++;
      }
    }
  }
  return [out, rows];
}

// ---------------------------------------------------------------- answers indexes

interface IndexDefinition {
  name: string;
  /** Statement that recreates it. */
  create: string;
  /** Statement that drops it. */
  drop: string;
}

async function dropAnswerIndexes(database: Database): Promise<IndexDefinition[]> {
  const { rows: constraints } = await database.sql.executeSql(
    `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE conrelid = 'answers'::regclass AND contype = 'p'`,
  );
  const { rows: indexes } = await database.sql.executeSql(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = 'answers'::regclass AND NOT x.indisprimary`,
  );
  const definitions: IndexDefinition[] = [
    ...constraints.map((c) => ({
      name: String(c.conname),
      create: `ALTER TABLE answers ADD CONSTRAINT "${String(c.conname)}" ${String(c.def)}`,
      drop: `ALTER TABLE answers DROP CONSTRAINT "${String(c.conname)}"`,
    })),
    ...indexes.map((i) => ({
      name: String(i.name),
      create: String(i.def),
      drop: `DROP INDEX "${String(i.name)}"`,
    })),
  ];
  for (const definition of definitions) await database.sql.executeSql(definition.drop);
  return definitions;
}

async function restoreAnswerIndexes(database: Database, definitions: IndexDefinition[]): Promise<void> {
  // On a server, more sort memory turns the rebuild into one in-memory sort or a few runs. PGlite's
  // (measured) build time does not depend on it, so its small default stays.
  const prefix = database.engine === 'postgresql' ? "SET maintenance_work_mem = '1GB'; " : '';
  const suffix = database.engine === 'postgresql' ? '; RESET maintenance_work_mem' : '';
  for (const definition of definitions) {
    await database.sql.executeSql(`${prefix}${definition.create}${suffix}`);
  }
}

// ---------------------------------------------------------------- precomputed statistics

/**
 * Sufficient statistics per product and metric of the new products (METRICS.md section 1 box rules,
 * with a tolerance: 9-point 6 is exactly 3.5 only in exact arithmetic). EEG scores are not on the 5-point scale, so
 * their box counts stay 0.
 */
async function fillProductMetricStats(database: Database, firstProductId: number): Promise<void> {
  const lo = (threshold: number) => threshold - BOX_TOLERANCE;
  const hi = (threshold: number) => threshold + BOX_TOLERANCE;
  const eegIds = METRICS.filter((m) => m.kind === 'eeg').map((m) => m.id);
  const box = (column: string) =>
    `CASE WHEN s.metric_id IN (${eegIds.join(', ')}) THEN 0 ELSE s.${column} END`;
  await database.sql.executeSql(`
    SET work_mem = '256MB';
    INSERT INTO product_metric_stats
      (product_id, metric_id, n, sum, sum_sq, n_top_box, n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box)
    SELECT s.product_id, s.metric_id, s.n, s.sum, s.sum_sq,
      ${box('top_box')}, ${box('top_2_box')}, ${box('just_right')}, ${box('bottom_2_box')}, ${box('bottom_box')}
    FROM (
      SELECT product_id, metric_id,
        count(*)::int AS n,
        sum(v) AS sum,
        sum(v * v) AS sum_sq,
        (count(*) FILTER (WHERE v >= ${lo(4.5)}))::int AS top_box,
        (count(*) FILTER (WHERE v >= ${lo(3.5)}))::int AS top_2_box,
        (count(*) FILTER (WHERE v > ${hi(2.5)} AND v < ${lo(3.5)}))::int AS just_right,
        (count(*) FILTER (WHERE v <= ${hi(2.5)}))::int AS bottom_2_box,
        (count(*) FILTER (WHERE v <= ${hi(1.5)}))::int AS bottom_box
      FROM (
        -- product_id rather than study_id: both lead columns are in the covering index (index-only scan).
        SELECT product_id, metric_id, value::float8 AS v FROM answers
        WHERE metric_id IS NOT NULL AND product_id >= ${firstProductId}
      ) a
      GROUP BY product_id, metric_id
    ) s
    ON CONFLICT (product_id, metric_id) DO NOTHING;
    RESET work_mem;
  `);
}
