/**
 * Injection of the validated studies of an upload. Every study is one transaction: the study row,
 * its fragrances, concepts and products, its files (copied to the study's storage), its questions
 * with their suggested metric, its respondents and their answers (raw and harmonised to the common
 * 5-point scale, METRICS.md), and the product statistics the analytics read; a study is visible
 * with everything it holds or not at all. New studies are injected two at a time on PostgreSQL (one
 * database core each), and each names itself on the process's row as it commits. The studies that
 * replace library studies and the move from VALIDATED to INJECTED come last, in one transaction.
 * When anything fails, the studies the process had added are removed again (removeInjectedStudies,
 * also run after a restart), with the bytes written to storage, and no replaced study was touched.
 *
 * Results files are read as streams, one study at a time; answers are inserted in batches through
 * unnest() of array parameters, which both engines take as one statement each. The statistics tables
 * read by analytics (product_metric_stats, product_metric_demo_stats) are computed here from the
 * parsed answers (answer-stats.ts) and stored beside them: the transaction tells the answers' insert
 * trigger so, and the database only stores rows.
 */
import { randomUUID } from 'node:crypto';
import { harmoniseToFivePoint } from '@accord/stats';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  answers,
  concepts,
  fileProcesses,
  fragrances,
  metrics,
  products,
  questions,
  respondents,
  studies,
  studyFiles,
  studyFileVersions,
} from '../../db/schema.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { MetricSuggester, type CatalogueMetric } from '../mapping/suggest.ts';
import { AnswerStatistics, type AnswerSums } from './answer-stats.ts';
import {
  readResults,
  replacing,
  testDateOf,
  type QuestionDraft,
  type StudyDraft,
  type ZipFile,
} from './study-zip.ts';

type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

/** Answers per INSERT statement. */
const ANSWER_BATCH = 50_000;

export interface InjectionInput {
  processId: number;
  studies: StudyDraft[];
  files: Map<string, ZipFile>;
  replaceExisting: boolean;
  /** Only these studies (CMI numbers) replace the library's, unless replaceExisting. */
  replaceCmis?: readonly string[];
  userId: number | null;
  now: Date;
  /** Reads the answers of a study's results files (default: here; the server passes a worker thread's). */
  parse?: (study: StudyDraft) => Promise<ParsedResults[]>;
}

export interface InjectionSummary {
  studyIds: number[];
  answers: number;
  respondents: number;
}

/** A PostgreSQL array literal of the values (cast with ::int[], ::float8[], ::text[] in SQL). */
export function arrayLiteral(values: readonly (number | string | null)[]): string {
  const parts = values.map((value) => {
    if (value === null) return 'NULL';
    if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'NULL';
    return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${parts.join(',')}}`;
}

/** The suggestion engine over the catalogue and the library's validated mappings. */
export async function loadSuggester(database: Database): Promise<MetricSuggester> {
  const catalogue = await database.db
    .select({ id: metrics.id, name: metrics.name, label: metrics.label, kind: metrics.kind })
    .from(metrics);
  const examples = await database.db
    .select({
      text: questions.text,
      questionType: questions.questionType,
      metricId: questions.metricId,
      count: sql<number>`count(*)::int`,
    })
    .from(questions)
    .where(and(eq(questions.metricValidated, true), sql`${questions.metricId} is not null`))
    .groupBy(questions.text, questions.questionType, questions.metricId);
  return new MetricSuggester(
    catalogue as CatalogueMetric[],
    examples.map((e) => ({
      text: e.text,
      questionType: e.questionType,
      metricId: Number(e.metricId),
      count: Number(e.count),
    })),
  );
}

const FILE_TYPE: Record<string, 'report' | 'questionnaire' | 'protocol' | 'screener'> = {
  report: 'report',
  questionnaire: 'questionnaire',
  protocol: 'protocol',
  screener: 'screener',
};

/**
 * Studies injected at the same time, each in its own transaction on its own connection: the
 * database inserts on one core per connection. PGlite has one connection.
 */
const CONCURRENT_STUDIES = { postgresql: 2, pglite: 1 } as const;

/** Injects every study; throws (and leaves nothing) when any part fails. */
export async function injectStudies(
  database: Database,
  storage: FileStorage,
  input: InjectionInput,
): Promise<InjectionSummary> {
  const suggester = await loadSuggester(database);
  const eegMetrics = new Set(
    (await database.db.select({ id: metrics.id }).from(metrics).where(eq(metrics.kind, 'eeg'))).map((m) =>
      Number(m.id),
    ),
  );
  const parseOf = input.parse ?? ((study: StudyDraft) => parseStudyResults(study, input.files));
  const written: string[] = [];
  // Stored files of the replaced studies: removed once the replacing transaction has committed.
  const replacedFiles: string[] = [];
  const summary: InjectionSummary = { studyIds: [], answers: 0, respondents: 0 };
  const inject = (tx: Tx, study: StudyDraft, parsed: ParsedResults[]) =>
    injectStudy(tx, storage, study, parsed, input, suggester, eegMetrics, written, summary, replacedFiles);
  const replacingStudies = input.studies.filter((s) => s.metadata && replacing(input, s.metadata.cMiNumber));
  const newStudies = input.studies.filter((s) => !replacingStudies.includes(s));
  try {
    // New studies: a transaction each, several at a time; each names itself on the process as it
    // commits, so a failure (or a restart) can remove what the upload added.
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < newStudies.length) {
        const study = newStudies[next++] as StudyDraft;
        const parsed = await parseOf(study);
        await database.db.transaction(async (tx) => {
          await storesItsStatistics(tx);
          const id = await inject(tx, study, parsed);
          const named = await tx
            .update(fileProcesses)
            .set({ studyIds: sql`array_append(${fileProcesses.studyIds}, ${id}::int)` })
            .where(and(eq(fileProcesses.id, input.processId), eq(fileProcesses.status, 'VALIDATED')))
            .returning({ id: fileProcesses.id });
          if (named.length === 0) throw new Error(`file process ${input.processId} is no longer validated`);
          summary.studyIds.push(id);
        });
      }
    };
    const workers = Array.from({ length: CONCURRENT_STUDIES[database.engine] }, () =>
      worker().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    );
    const ended = await Promise.allSettled(workers);
    const failure = ended.find((e): e is PromiseRejectedResult => e.status === 'rejected');
    if (failure) throw failure.reason;

    // Studies replacing the library's, and the move to INJECTED, in one last transaction: a failure
    // before its commit leaves every replaced study as it was.
    await database.db.transaction(async (tx) => {
      await storesItsStatistics(tx);
      // The results of the next study are parsed while the database stores the current one.
      const parse = (study: StudyDraft | undefined) => {
        if (!study) return undefined;
        const parsed = parseOf(study);
        parsed.catch(() => undefined); // awaited below; a failure is thrown there
        return parsed;
      };
      let parsing = parse(replacingStudies[0]);
      for (let index = 0; index < replacingStudies.length; index++) {
        const parsed = await (parsing as Promise<ParsedResults[]>);
        parsing = parse(replacingStudies[index + 1]);
        summary.studyIds.push(await inject(tx, replacingStudies[index] as StudyDraft, parsed));
      }
      const moved = await tx
        .update(fileProcesses)
        .set({ status: 'INJECTED', studyIds: summary.studyIds, updatedAt: input.now })
        .where(and(eq(fileProcesses.id, input.processId), eq(fileProcesses.status, 'VALIDATED')))
        .returning({ id: fileProcesses.id });
      if (moved.length === 0) throw new Error(`file process ${input.processId} is no longer validated`);
    });
  } catch (error) {
    await removeInjectedStudies(database, storage, input.processId);
    await Promise.all(written.map((key) => storage.remove(key).catch(() => undefined)));
    throw error;
  }
  for (const key of replacedFiles) await storage.remove(key).catch(() => undefined);
  return summary;
}

/** Tells the answers' insert trigger that this transaction stores their statistics (migration 0010). */
async function storesItsStatistics(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('accord.demo_stats_by_caller', 'on', true)`);
}

/**
 * Removes the studies a process injected before it failed or the server stopped (those its row
 * names while it is not yet INJECTED), with their stored files, in one transaction.
 */
export async function removeInjectedStudies(
  database: Database,
  storage: FileStorage,
  processId: number,
): Promise<void> {
  const keys = await database.db.transaction(async (tx) => {
    const [process] = await tx
      .select({ studyIds: fileProcesses.studyIds, status: fileProcesses.status })
      .from(fileProcesses)
      .where(eq(fileProcesses.id, processId))
      .for('update');
    if (!process || process.status === 'INJECTED' || process.status === 'SUCCEED') return [];
    if (process.studyIds.length === 0) return [];
    const stored = await deleteStudies(tx, process.studyIds);
    await tx.update(fileProcesses).set({ studyIds: [] }).where(eq(fileProcesses.id, processId));
    return stored;
  });
  for (const key of keys) await storage.remove(key).catch(() => undefined);
}

/**
 * Deletes studies with their answers (found through their questions; the statistics follow through
 * the answers' triggers) and everything else they hold; answers their stored files' keys, for the
 * caller to remove once the transaction has committed.
 */
async function deleteStudies(tx: Tx, ids: readonly number[]): Promise<string[]> {
  const stored = await tx
    .select({ key: studyFileVersions.storageKey })
    .from(studyFileVersions)
    .innerJoin(studyFiles, eq(studyFiles.id, studyFileVersions.fileId))
    .where(inArray(studyFiles.studyId, [...ids]));
  await tx.delete(answers).where(
    inArray(
      answers.questionId,
      tx
        .select({ id: questions.id })
        .from(questions)
        .where(inArray(questions.studyId, [...ids])),
    ),
  );
  await tx.delete(studies).where(inArray(studies.id, [...ids]));
  return stored.map((s) => s.key);
}

/** An injection's file key: studies/{study id}/{folder}/{uuid}/{name} (seeded files use version ids). */
const INJECTED_KEY =
  /^studies\/\d+\/[^/]+\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[^/]+$/;
/** Files younger than this may belong to an injection still running (in this or another process). */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * Removes the study files an injection wrote before it was killed (its transaction rolled back, so no
 * version names them): run at start. Only files of the injection's layout older than an hour go, so
 * an injection running elsewhere keeps its files. Answers how many were removed.
 */
export async function removeOrphanStudyFiles(
  database: Database,
  storage: FileStorage,
  now: Date,
): Promise<number> {
  const candidates: string[] = [];
  for await (const entry of storage.list('studies/'))
    if (INJECTED_KEY.test(entry.key) && now.getTime() - entry.modifiedAt.getTime() > ORPHAN_AGE_MS)
      candidates.push(entry.key);
  let removed = 0;
  for (let start = 0; start < candidates.length; start += 1000) {
    const batch = candidates.slice(start, start + 1000);
    const known = new Set(
      (
        await database.db
          .select({ key: studyFileVersions.storageKey })
          .from(studyFileVersions)
          .where(inArray(studyFileVersions.storageKey, batch))
      ).map((row) => row.key),
    );
    for (const key of batch)
      if (!known.has(key)) {
        await storage.remove(key);
        removed++;
      }
  }
  return removed;
}

/** The answers of one results file, column by column, by position (no database ids yet). */
export interface ParsedResults {
  /** Respondent codes in their order of first appearance, with their demographics. */
  respondents: { code: string; demographics: Record<string, string> }[];
  /** Per answer: index into respondents, the product code's index in productCodes, the question's index. */
  respondent: Int32Array;
  product: Int32Array;
  question: Int32Array;
  raw: Float64Array;
  value: Float64Array;
  productCodes: string[];
  count: number;
}

/** Reads and harmonises the answers of every results file of a study (streamed, row by row). */
export async function parseStudyResults(
  study: StudyDraft,
  files: Map<string, ZipFile>,
): Promise<ParsedResults[]> {
  const parsed: ParsedResults[] = [];
  for (const results of study.results) {
    const file = files.get(results.path);
    if (!file) throw new Error(`file ${results.path} is missing from the upload`);
    const questionList = results.questions;
    let capacity = 1024;
    let respondent = new Int32Array(capacity);
    let product = new Int32Array(capacity);
    let question = new Int32Array(capacity);
    let raw = new Float64Array(capacity);
    let value = new Float64Array(capacity);
    const grow = () => {
      capacity *= 2;
      const widen = <T extends Int32Array | Float64Array>(array: T): T => {
        const wider = new (array.constructor as new (n: number) => T)(capacity);
        wider.set(array);
        return wider;
      };
      respondent = widen(respondent);
      product = widen(product);
      question = widen(question);
      raw = widen(raw);
      value = widen(value);
    };
    const respondentIndex = new Map<string, number>();
    const respondentList: ParsedResults['respondents'] = [];
    const productIndex = new Map<string, number>();
    const productCodes: string[] = [];
    let count = 0;
    for await (const row of readResults(file, questionList)) {
      let r = respondentIndex.get(row.respondent);
      if (r === undefined) {
        r = respondentList.length;
        respondentIndex.set(row.respondent, r);
        respondentList.push({ code: row.respondent, demographics: row.demographics });
      }
      let p = productIndex.get(row.product);
      if (p === undefined) {
        p = productCodes.length;
        productIndex.set(row.product, p);
        productCodes.push(row.product);
      }
      for (let q = 0; q < questionList.length; q++) {
        const rawValue = row.values[q];
        if (rawValue === null || rawValue === undefined) continue;
        const draft = questionList[q] as QuestionDraft;
        const harmonised =
          draft.questionType === 'eeg'
            ? rawValue
            : harmoniseToFivePoint(rawValue, draft.scaleMin as number, draft.scaleMax as number);
        if (!Number.isFinite(harmonised)) continue;
        if (count === capacity) grow();
        respondent[count] = r;
        product[count] = p;
        question[count] = q;
        raw[count] = rawValue;
        // Stored as computed (double precision, written in full by numberArray): rounding here would
        // leave a 7-point mean off by 1e-7.
        value[count] = harmonised;
        count++;
      }
    }
    parsed.push({
      respondents: respondentList,
      respondent,
      product,
      question,
      raw,
      value,
      productCodes,
      count,
    });
  }
  return parsed;
}

/** '{1,2,3}': a PostgreSQL array literal of numbers, the first `count` of a typed array. */
function numberArray(values: Int32Array | Float64Array | number[], count: number): string {
  let text = '{';
  for (let i = 0; i < count; i++) {
    if (i > 0) text += ',';
    const v = values[i] as number;
    text += Number.isFinite(v) ? String(v) : 'NULL';
  }
  return `${text}}`;
}

async function injectStudy(
  tx: Tx,
  storage: FileStorage,
  study: StudyDraft,
  parsedResults: ParsedResults[],
  input: InjectionInput,
  suggester: MetricSuggester,
  eegMetrics: ReadonlySet<number>,
  written: string[],
  summary: InjectionSummary,
  replacedFiles: string[],
): Promise<number> {
  const m = study.metadata;
  if (!m) throw new Error(`study folder ${study.folder} has no valid request form`);

  if (replacing(input, m.cMiNumber)) {
    const old = await tx
      .select({ id: studies.id })
      .from(studies)
      .where(sql`lower(${studies.cMiNumber}) = lower(${m.cMiNumber})`);
    if (old.length > 0)
      replacedFiles.push(
        ...(await deleteStudies(
          tx,
          old.map((o) => o.id),
        )),
      );
  }

  const [row] = await tx
    .insert(studies)
    .values({
      projectName: m.projectName,
      client: m.client,
      cMiNumber: m.cMiNumber,
      paceNumber: m.paceNumber,
      productArea: m.productArea,
      division: m.division,
      category: m.category,
      productType: m.productType,
      region: m.region,
      leadCountry: m.leadCountry,
      country: m.country,
      methodology: m.methodology,
      panelProfile: m.panelProfile,
      designMethod: m.designMethod,
      researchType: m.researchType,
      cmiToolType: m.cmiToolType,
      evaluation: m.evaluation,
      gender: m.gender,
      age: m.age,
      socialClass: m.socialClass,
      studySampleSize: m.studySampleSize,
      numberOfProducts: m.numberOfProducts,
      base: m.base,
      objectiveAndActionStandards: m.objectiveAndActionStandards,
      year: m.year,
      rdfType: m.rdfType,
      isGenisys: m.isGenisys,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: studies.id });
  const studyId = (row as { id: number }).id;

  // Fragrances, concepts and the products answers point at.
  const productIds = new Map<string, number>();
  if (study.fragrances.length > 0) {
    const rows = await tx
      .insert(fragrances)
      .values(
        study.fragrances.map((f) => ({
          studyId,
          name: f.name,
          refNumber: f.refNumber,
          code: f.code,
          fragranceCode: f.fragranceCode,
          methodology: f.methodology,
          perfumerName: f.perfumerName,
          region: f.region,
          country: f.country,
          family: f.family,
          subfamily: f.subfamily,
          specifier: f.specifier,
          level: f.level,
          supplementalInfo: f.supplementalInfo,
          dominantNote1: f.dominantNotes[0] ?? null,
          dominantNote2: f.dominantNotes[1] ?? null,
          dominantNote3: f.dominantNotes[2] ?? null,
          dominantNote4: f.dominantNotes[3] ?? null,
          dominantNote5: f.dominantNotes[4] ?? null,
          creative: f.creative,
        })),
      )
      .returning({ id: fragrances.id, code: fragrances.fragranceCode });
    const added = await tx
      .insert(products)
      .values(rows.map((r) => ({ studyId, kind: 'fragrance' as const, code: r.code, fragranceId: r.id })))
      .returning({ id: products.id, code: products.code });
    for (const p of added) productIds.set(p.code, p.id);
  }
  if (study.concepts.length > 0) {
    const rows = await tx
      .insert(concepts)
      .values(
        study.concepts.map((c) => ({
          studyId,
          name: c.name,
          conceptCode: c.conceptCode,
          region: c.region,
          country: c.country,
          theme: c.theme,
          ingredient1: c.ingredient1,
          ingredient2: c.ingredient2,
        })),
      )
      .returning({ id: concepts.id, code: concepts.conceptCode });
    const added = await tx
      .insert(products)
      .values(rows.map((r) => ({ studyId, kind: 'concept' as const, code: r.code, conceptId: r.id })))
      .returning({ id: products.id, code: products.code });
    for (const p of added) if (!productIds.has(p.code)) productIds.set(p.code, p.id);
  }

  // Files: documents, results and scale files, each with one version.
  const fileIds = new Map<string, number>();
  const storeFile = async (
    zipPath: string,
    folder: string,
    fileType: 'report' | 'questionnaire' | 'protocol' | 'screener' | 'RDF',
  ) => {
    const file = input.files.get(zipPath);
    if (!file) throw new Error(`file ${zipPath} is missing from the upload`);
    const name = zipPath.split('/').pop() as string;
    const extension = name.includes('.') ? (name.split('.').pop() as string).toLowerCase() : '';
    const key = `studies/${studyId}/${folder}/${randomUUID()}/${name}`;
    written.push(key);
    const size = await storage.putStream(key, await file.stream());
    const [added] = await tx
      .insert(studyFiles)
      .values({ studyId, fileType, folder, name, extension, createdAt: input.now })
      .returning({ id: studyFiles.id });
    const fileId = (added as { id: number }).id;
    const [version] = await tx
      .insert(studyFileVersions)
      .values({
        fileId,
        name,
        storageKey: key,
        size,
        status: 'success',
        errors: [],
        uploadedBy: input.userId,
        createdAt: input.now,
      })
      .returning({ id: studyFileVersions.id });
    await tx
      .update(studyFiles)
      .set({ currentVersionId: (version as { id: number }).id })
      .where(eq(studyFiles.id, fileId));
    fileIds.set(zipPath, fileId);
  };
  for (const document of study.documents) {
    await storeFile(document.path, document.folder, FILE_TYPE[document.folder] ?? 'report');
  }
  for (const results of study.results) {
    await storeFile(results.path, 'results', 'RDF');
    await storeFile(results.scalePath, 'results', 'RDF');
  }

  // Questions, respondents and answers, one results file at a time.
  const respondentIds = new Map<string, number>();
  /** The demographic group (gender and age as stored) of each respondent of the study. */
  const respondentGroups = new Map<string, number>();
  const statistics = new AnswerStatistics(eegMetrics);
  let sortOrder = 0;
  let resultsIndex = 0;
  for (const results of study.results) {
    const questionRows = await tx
      .insert(questions)
      .values(
        results.questions.map((q) => {
          const suggested =
            q.metricId ??
            suggester.suggest({
              text: q.text,
              questionType: q.questionType,
              scaleMin: q.scaleMin,
              scaleMax: q.scaleMax,
              labels: q.labels,
            });
          return {
            studyId,
            filename: results.name,
            path: `results/${results.name}`,
            resultsFileId: fileIds.get(results.path) ?? null,
            qid: q.qid,
            text: q.text,
            questionType: q.questionType,
            scaleMin: q.scaleMin,
            scaleMax: q.scaleMax,
            labels: q.labels,
            constantValue: q.constantValue,
            // Only a metric the scale file names maps the question (and puts its answers in
            // analytics); otherwise the suggestion waits for a check on the mapping page.
            metricId: q.metricId,
            suggestedMetricId: suggested,
            metricValidated: q.metricId !== null,
            sortOrder: sortOrder++,
          };
        }),
      )
      .returning({ id: questions.id, qid: questions.qid, metricId: questions.metricId });
    const questionIds = results.questions.map(
      (q) => questionRows.find((r) => r.qid === q.qid) as (typeof questionRows)[number],
    );

    const parsed = parsedResults[resultsIndex++] as ParsedResults;
    const newRespondents = parsed.respondents.filter((r) => !respondentIds.has(r.code));
    if (newRespondents.length > 0) {
      const age = (text: string | undefined) => {
        const value = Number(text);
        return text !== undefined && Number.isInteger(value) && value >= 10 && value <= 110 ? value : null;
      };
      const text = (name: string) => arrayLiteral(newRespondents.map((r) => r.demographics[name] ?? null));
      const added = (await tx.execute(sql`
        insert into ${respondents} (study_id, respondent_code, gender, age, ethnicity, social_class, country, bumo,
          test_date)
        select ${studyId}, t.code, t.gender, t.age, t.ethnicity, t.social_class, t.country, t.bumo, t.test_date
        from unnest(
          ${arrayLiteral(newRespondents.map((r) => r.code))}::text[],
          ${text('gender')}::text[],
          ${arrayLiteral(newRespondents.map((r) => age(r.demographics.age)))}::smallint[],
          ${text('ethnicity')}::text[],
          ${text('social_class')}::text[],
          ${text('country')}::text[],
          ${text('bumo')}::text[],
          ${arrayLiteral(newRespondents.map((r) => testDateOf(r.demographics.test_date)))}::date[]
        ) as t(code, gender, age, ethnicity, social_class, country, bumo, test_date)
        returning id, respondent_code`)) as unknown as { rows: { id: number; respondent_code: string }[] };
      for (const r of added.rows) respondentIds.set(String(r.respondent_code), Number(r.id));
      for (const r of newRespondents)
        respondentGroups.set(
          r.code,
          statistics.group(r.demographics.gender ?? null, age(r.demographics.age)),
        );
      summary.respondents += added.rows.length;
    }

    // Database ids of the parsed positions.
    const respondentDb = Int32Array.from(parsed.respondents, (r) => respondentIds.get(r.code) as number);
    const groupOf = Int32Array.from(parsed.respondents, (r) => respondentGroups.get(r.code) as number);
    const productDb = Int32Array.from(parsed.productCodes, (code) => {
      const id = productIds.get(code);
      if (id === undefined) throw new Error(`unknown product code ${code}`);
      return id;
    });
    const questionDb = Int32Array.from(questionIds, (q) => q.id);
    const metricDb = questionIds.map((q) => q.metricId);
    const n = parsed.count;
    const respondentOf = new Int32Array(n);
    const productOf = new Int32Array(n);
    const questionOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      respondentOf[i] = respondentDb[parsed.respondent[i] as number] as number;
      productOf[i] = productDb[parsed.product[i] as number] as number;
      questionOf[i] = questionDb[parsed.question[i] as number] as number;
      const metricId = metricDb[parsed.question[i] as number];
      if (metricId !== null && metricId !== undefined)
        statistics.add(
          productOf[i] as number,
          metricId,
          groupOf[parsed.respondent[i] as number] as number,
          parsed.value[i] as number,
        );
    }
    // In primary-key order (question, product, respondent): the index grows at its end.
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort(
      (a, b) =>
        (questionOf[a] as number) - (questionOf[b] as number) ||
        (productOf[a] as number) - (productOf[b] as number) ||
        (respondentOf[a] as number) - (respondentOf[b] as number),
    );
    for (let start = 0; start < n; start += ANSWER_BATCH) {
      const size = Math.min(n, start + ANSWER_BATCH) - start;
      const r = new Int32Array(size);
      const p = new Int32Array(size);
      const q = new Int32Array(size);
      const m: (number | null)[] = new Array<number | null>(size);
      const raw = new Float64Array(size);
      const v = new Float64Array(size);
      for (let k = 0; k < size; k++) {
        const i = order[start + k] as number;
        r[k] = respondentOf[i] as number;
        p[k] = productOf[i] as number;
        q[k] = questionOf[i] as number;
        m[k] = metricDb[parsed.question[i] as number] ?? null;
        raw[k] = parsed.raw[i] as number;
        v[k] = parsed.value[i] as number;
      }
      await tx.execute(sql`
        insert into ${answers} (study_id, respondent_id, product_id, question_id, metric_id, raw_value, value)
        select ${studyId}, t.r, t.p, t.q, t.m, t.raw, t.v
        from unnest(
          ${numberArray(r, size)}::int[],
          ${numberArray(p, size)}::int[],
          ${numberArray(q, size)}::int[],
          ${arrayLiteral(m)}::smallint[],
          ${numberArray(raw, size)}::float8[],
          ${numberArray(v, size)}::float8[]
        ) as t(r, p, q, m, raw, v)`);
    }
    summary.answers += n;
  }

  await insertStatistics(tx, statistics);
  return studyId;
}

/**
 * Array parameters of rows' sums, in the column order (n, sum, sum_sq, n_top_box, n_top_2_box,
 * n_just_right, n_bottom_2_box, n_bottom_box) that both statistics tables share.
 */
function sumsArrays(rows: readonly AnswerSums[]): SQL {
  const column = (pick: (row: AnswerSums) => number) => numberArray(rows.map(pick), rows.length);
  return sql`${column((r) => r.n)}::int[], ${column((r) => r.sum)}::float8[], ${column((r) => r.sumSq)}::float8[],
    ${column((r) => r.topBox)}::int[], ${column((r) => r.top2Box)}::int[], ${column((r) => r.justRight)}::int[],
    ${column((r) => r.bottom2Box)}::int[], ${column((r) => r.bottomBox)}::int[]`;
}

/** The product_metric_stats and product_metric_demo_stats rows of a study's answers. */
async function insertStatistics(tx: Tx, statistics: AnswerStatistics): Promise<void> {
  const product = statistics.productRows();
  if (product.length > 0)
    await tx.execute(sql`
      insert into product_metric_stats
        (product_id, metric_id, n, sum, sum_sq, n_top_box, n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box)
      select * from unnest(
        ${numberArray(
          product.map((r) => r.productId),
          product.length,
        )}::int[],
        ${numberArray(
          product.map((r) => r.metricId),
          product.length,
        )}::smallint[],
        ${sumsArrays(product)})`);
  const demographic = statistics.demographicRows();
  if (demographic.length > 0)
    await tx.execute(sql`
      insert into product_metric_demo_stats
        (product_id, metric_id, gender, age, in_scale, n, sum, sum_sq,
         n_top_box, n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box)
      select * from unnest(
        ${numberArray(
          demographic.map((r) => r.productId),
          demographic.length,
        )}::int[],
        ${numberArray(
          demographic.map((r) => r.metricId),
          demographic.length,
        )}::smallint[],
        ${arrayLiteral(demographic.map((r) => r.gender))}::text[],
        ${arrayLiteral(demographic.map((r) => r.age))}::smallint[],
        ${arrayLiteral(demographic.map((r) => (r.inScale ? 't' : 'f')))}::boolean[],
        ${sumsArrays(demographic)})`);
}
