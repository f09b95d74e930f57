/**
 * The documents of a demo study, built from its plan and answers: report (PDF), questionnaire (docx),
 * protocol (PDF or docx), screener (xlsx), and the results data file (RDF) with its scale file as CSV
 * in the layout of shared/design/DATA-FORMATS.md.
 */
import { METRICS } from './catalogue.ts';
import { buildDocx, buildPdf, buildXlsx, csvLine, wrapText, type PdfLine } from './documents.ts';
import { harmoniseToFivePoint } from './latent-model.ts';
import type { StudyPlan } from './study-plan.ts';

export type StudyFileType = 'report' | 'questionnaire' | 'protocol' | 'RDF' | 'screener';

export interface StudyFileVersionDraft {
  bytes: Uint8Array;
  status: 'success' | 'failed';
  errors: {
    id: number;
    high_msg: string;
    msg: string;
    level: 'warning' | 'error';
    event: string;
    error_file: string;
  }[];
  /** Days after the study was created. */
  daysAfterCreation: number;
}

export interface StudyFileDraft {
  fileType: StudyFileType;
  folder: string;
  name: string;
  extension: string;
  /** Oldest first; the last one is current. */
  versions: StudyFileVersionDraft[];
}

const metricName = (id: number | null): string =>
  id === null ? '' : (METRICS.find((m) => m.id === id)?.name ?? '');

/** File name of the study's results data file (questions point at it). */
export const resultsFileName = (plan: StudyPlan): string => `${plan.metadata.cMiNumber}_results.csv`;

function formatAnswer(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
}

/** The RDF: one row per respondent and rated product, demographics, then one column per question. */
export function buildResultsCsv(plan: StudyPlan, answers: Float64Array): string {
  const productCount = plan.products.length;
  const respondentCount = plan.respondents.length;
  // EEG studies say when each respondent was tested (their profiles chart scores by test date).
  const dated = plan.respondents.some((respondent) => respondent.testDate !== null);
  const header = [
    'respondent_id',
    'product_code',
    'gender',
    'age',
    'ethnicity',
    'social_class',
    'country',
    ...(dated ? ['test_date'] : []),
    ...plan.questions.map((q) => q.qid),
  ];
  let out = csvLine(header);
  for (let r = 0; r < respondentCount; r++) {
    const respondent = plan.respondents[r];
    if (!respondent) continue;
    for (let p = 0; p < productCount; p++) {
      let rated = false;
      const cells: string[] = [];
      for (let q = 0; q < plan.questions.length; q++) {
        const value = answers[(q * productCount + p) * respondentCount + r] as number;
        if (!Number.isNaN(value)) rated = true;
        cells.push(Number.isNaN(value) ? '' : formatAnswer(value));
      }
      if (!rated) continue;
      const product = plan.products[p];
      out +=
        csvLine([
          respondent.code,
          product?.code,
          respondent.gender,
          respondent.age,
          respondent.ethnicity,
          respondent.socialClass,
          respondent.country,
          ...(dated ? [respondent.testDate] : []),
        ]).slice(0, -1) +
        ',' +
        cells.join(',') +
        '\n';
    }
  }
  return out;
}

/** The scale file: one row per question with its type, scale, labels and suggested metric. */
export function buildScaleCsv(plan: StudyPlan): string {
  let out = csvLine(['question_id', 'text', 'type', 'scale_min', 'scale_max', 'labels', 'metric']);
  for (const q of plan.questions) {
    const labels = q.scale.labels.map((l) => `${l.value}=${l.name}`).join(';');
    out += csvLine([
      q.qid,
      q.text,
      q.questionType,
      q.scale.min,
      q.scale.max,
      labels,
      metricName(q.suggestedMetricId),
    ]);
  }
  return out;
}

/** Mean harmonised liking per product, for the report's headline. */
function likingMeans(plan: StudyPlan, answers: Float64Array): { name: string; code: string; mean: number }[] {
  const q = plan.questions.findIndex((question) => question.role === 'liking');
  if (q < 0) return [];
  const { min, max } = (plan.questions[q] as StudyPlan['questions'][number]).scale;
  const respondentCount = plan.respondents.length;
  return plan.products.map((product, p) => {
    let sum = 0;
    let n = 0;
    for (let r = 0; r < respondentCount; r++) {
      const value = answers[(q * plan.products.length + p) * respondentCount + r] as number;
      if (Number.isNaN(value)) continue;
      sum += harmoniseToFivePoint(value, min, max);
      n++;
    }
    return { name: product.name, code: product.code, mean: n > 0 ? sum / n : Number.NaN };
  });
}

function reportPdf(plan: StudyPlan, answers: Float64Array, draft: boolean): Buffer {
  const m = plan.metadata;
  const ranking = likingMeans(plan, answers).sort((a, b) => b.mean - a.mean);
  const lines: PdfLine[] = [
    { text: `${m.projectName}`, size: 16 },
    { text: draft ? 'Draft report - not for circulation' : 'Final report', size: 13 },
    { text: `Client: ${m.client}    CMI #: ${m.cMiNumber}    Year: ${m.year}` },
    { text: `Category: ${m.category} / ${m.productType}    Countries: ${m.country.join(', ')}` },
    {
      text: `Design: ${m.designMethod}, ${m.methodology}, n=${m.studySampleSize} ${m.gender.join('/')} ${m.age}`,
    },
    { text: 'Overall liking (mean on the common 5-point scale)', size: 13 },
    ...ranking.map((row, i) => ({ text: `${i + 1}. ${row.name} (${row.code}): ${row.mean.toFixed(2)}` })),
    { text: 'Objective and action standards', size: 13 },
    ...wrapText(m.objectiveAndActionStandards, 95).map((text) => ({ text })),
  ];
  if (!draft && ranking[0])
    lines.push({ text: `Recommendation: proceed with ${ranking[0].name}.`, size: 12 });
  return buildPdf(lines);
}

function questionnaireDocx(plan: StudyPlan, revision: number): Buffer {
  const m = plan.metadata;
  return buildDocx([
    { text: `${m.projectName} - Questionnaire${revision > 0 ? ` (v${revision + 1})` : ''}`, heading: true },
    { text: `Client: ${m.client}. CMI #: ${m.cMiNumber}. Evaluation: ${m.evaluation.join(', ')}.` },
    ...plan.questions.map((q) => ({
      text: `${q.qid}. ${q.text} [${q.scale.labels.map((l) => `${l.value} ${l.name}`).join(' / ')}]`,
    })),
  ]);
}

function protocolLines(plan: StudyPlan): string[] {
  const m = plan.metadata;
  return [
    `Methodology: ${m.methodology}; design: ${m.designMethod}.`,
    `Sample: ${m.base}.`,
    `Evaluation stages: ${m.evaluation.join(', ')}.`,
    `Research type: ${m.researchType.join(', ')}. Tools: ${m.cmiToolType.join(', ')}.`,
    'Products:',
    ...plan.products.map((p) => `  ${p.code}  ${p.name} (${p.kind})`),
  ];
}

function screenerXlsx(plan: StudyPlan): Buffer {
  const m = plan.metadata;
  return buildXlsx([
    {
      name: 'Screener',
      rows: [
        ['Criterion', 'Requirement', 'Quota'],
        ['Gender', m.gender.join(', '), m.gender.length > 1 ? '50% each' : '100%'],
        ['Age', m.age, 'Natural fall-out'],
        ['Social class', m.socialClass.join(', '), 'Natural fall-out'],
        ['Country', m.country.join(', '), m.country.length > 1 ? 'Lead country 60%' : '100%'],
        ['Category usage', `Used ${m.category.toLowerCase()} in the past 4 weeks`, 'Required'],
        ['Panel profile', m.panelProfile, 'Required'],
        ['Sample size', m.studySampleSize, null],
      ],
    },
  ]);
}

/** Every file of the study with its version history (current version last). */
export function buildStudyFiles(plan: StudyPlan, answers: Float64Array): StudyFileDraft[] {
  const m = plan.metadata;
  const cmi = m.cMiNumber;
  const ok = (bytes: Uint8Array, daysAfterCreation: number): StudyFileVersionDraft => ({
    bytes,
    status: 'success',
    errors: [],
    daysAfterCreation,
  });
  const utf8 = (text: string) => Buffer.from(text, 'utf8');

  const reportName = `${cmi}_final_report.pdf`;
  const reportVersions: StudyFileVersionDraft[] = [];
  for (let i = 0; i < plan.files.reportRevisions; i++)
    reportVersions.push(ok(reportPdf(plan, answers, true), 20 + i * 7));
  reportVersions.push(ok(reportPdf(plan, answers, false), 20 + plan.files.reportRevisions * 7 + 3));

  const questionnaireName = `${cmi}_questionnaire.docx`;
  const questionnaireVersions: StudyFileVersionDraft[] = [];
  for (let i = 0; i < plan.files.questionnaireRevisions; i++) {
    questionnaireVersions.push({
      bytes: questionnaireDocx(plan, i),
      status: 'failed',
      errors: [
        {
          id: 1,
          high_msg: 'File could not be read',
          msg: 'The document is password protected; upload an unprotected copy.',
          level: 'error',
          event: 'upload',
          error_file: questionnaireName,
        },
      ],
      daysAfterCreation: 1,
    });
  }
  questionnaireVersions.push(ok(questionnaireDocx(plan, plan.files.questionnaireRevisions), 2));

  const protocolName = `${cmi}_protocol.${plan.files.protocolFormat}`;
  const protocolBytes =
    plan.files.protocolFormat === 'pdf'
      ? buildPdf([
          { text: `${m.projectName} - Protocol`, size: 15 },
          ...protocolLines(plan).map((text) => ({ text })),
        ])
      : buildDocx([
          { text: `${m.projectName} - Protocol`, heading: true },
          ...protocolLines(plan).map((text) => ({ text })),
        ]);

  const resultsName = resultsFileName(plan);
  const results: StudyFileVersionDraft = ok(utf8(buildResultsCsv(plan, answers)), 14);
  if (plan.files.resultsWarnings) {
    results.errors.push({
      id: 1,
      high_msg: 'Results accepted with warnings',
      msg: `Labels of ${plan.questions[plan.questions.length - 1]?.qid ?? 'the last question'} differ from the questionnaire; the scale file was used.`,
      level: 'warning',
      event: 'validation',
      error_file: resultsName,
    });
  }

  return [
    { fileType: 'report', folder: 'report', name: reportName, extension: 'pdf', versions: reportVersions },
    {
      fileType: 'questionnaire',
      folder: 'questionnaire',
      name: questionnaireName,
      extension: 'docx',
      versions: questionnaireVersions,
    },
    {
      fileType: 'protocol',
      folder: 'protocol',
      name: protocolName,
      extension: plan.files.protocolFormat,
      versions: [ok(protocolBytes, 0)],
    },
    { fileType: 'RDF', folder: 'results', name: resultsName, extension: 'csv', versions: [results] },
    {
      fileType: 'RDF',
      folder: 'results',
      name: `${cmi}_results.scale.csv`,
      extension: 'csv',
      versions: [ok(utf8(buildScaleCsv(plan)), 14)],
    },
    {
      fileType: 'screener',
      folder: 'screener',
      name: `${cmi}_screener.xlsx`,
      extension: 'xlsx',
      versions: [ok(screenerXlsx(plan), 0)],
    },
  ];
}
