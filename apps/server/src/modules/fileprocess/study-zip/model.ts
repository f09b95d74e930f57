/**
 * The study zip's names and limits, and what reading a study produces: the drafts of a study, its
 * fragrances, concepts, questions, results and documents, and the options of a validation.
 */
import type { Readable } from 'node:stream';
import { APAC_SUBREGIONS, type FileIssue, type STUDY_DOCUMENT_FOLDERS } from '@accord/contracts';

export const REQUEST_FORM = 'request_form.xlsx';
export const RESULTS_FOLDER = 'results';
export const SCALE_SUFFIX = '.scale.csv';
/** Problems listed per file before the rest are summed up in one line. */
export const MAX_ISSUES_PER_FILE = 50;
export const FIRST_STUDY_YEAR = 1990;

/** A file of the unpacked zip. */
export interface ZipFile {
  /** Slash-separated path inside the zip. */
  path: string;
  size: number;
  read(): Promise<Buffer>;
  stream(): Promise<Readable>;
}

/** Whether the study of this CMI number is to replace the library's. */
export function replacing(options: ValidationOptions, cmi: string): boolean {
  if (options.replaceExisting) return true;
  const wanted = cmi.toLowerCase();
  return (options.replaceCmis ?? []).some((c) => c.toLowerCase() === wanted);
}

export interface ReferenceData {
  /** Known values by their lower-case spelling, each to its canonical spelling. */
  clients: Map<string, string>;
  regions: Map<string, string>;
  countries: Map<string, string>;
  categories: Map<string, string>;
  metrics: Map<string, { id: number; kind: string }>;
  /** CMI numbers already in the library (lower case). */
  existingCmis: Set<string>;
  /** The last year a study may have (the current year). */
  lastYear: number;
}

export interface ValidationOptions {
  /** Studies already in the library are replaced instead of refused. */
  replaceExisting: boolean;
  /** These studies (CMI numbers, any case) are replaced when already in the library. */
  replaceCmis?: readonly string[];
  /** What the upload form said of the studies: a study that says otherwise is flagged. */
  form?: UploadFormValues;
}

/** The client, region and year chosen on the upload form. */
export interface UploadFormValues {
  client: string;
  region: string;
  year: number;
}

/** The region of the form covers a study's regions when it is one of them (APAC: any of its sub-regions). */
export function regionMatches(formRegion: string, studyRegions: readonly string[]): boolean {
  const wanted = formRegion.toLowerCase();
  const covered = wanted === 'apac' ? ['apac', ...APAC_SUBREGIONS.map((r) => r.toLowerCase())] : [wanted];
  return studyRegions.some((region) => covered.includes(region.toLowerCase()));
}

export type QuestionType = 'numerical' | 'categorical' | 'constant' | 'binary' | 'jar' | 'eeg' | 'implicit';
export const QUESTION_TYPES: readonly QuestionType[] = [
  'numerical',
  'categorical',
  'constant',
  'binary',
  'jar',
  'eeg',
  'implicit',
];

export interface QuestionDraft {
  qid: string;
  text: string;
  questionType: QuestionType;
  scaleMin: number | null;
  scaleMax: number | null;
  labels: { name: string; value: number }[];
  constantValue: string | null;
  /** Metric named by the scale file (null: none or unknown). */
  metricId: number | null;
}

export interface ResultsDraft {
  /** Path of the results file inside the zip. */
  path: string;
  name: string;
  scalePath: string;
  questions: QuestionDraft[];
}

export interface StudyMetadataDraft {
  projectName: string;
  client: string;
  cMiNumber: string;
  paceNumber: string | null;
  productArea: string[];
  division: string | null;
  category: string | null;
  productType: string | null;
  region: string[];
  leadCountry: string | null;
  country: string[];
  methodology: string | null;
  panelProfile: string | null;
  designMethod: string | null;
  researchType: string[];
  cmiToolType: string[];
  evaluation: string[];
  gender: string[];
  age: string | null;
  socialClass: string[];
  studySampleSize: number | null;
  numberOfProducts: number | null;
  base: string | null;
  objectiveAndActionStandards: string | null;
  year: number;
  rdfType: 'rdf' | 'eeg' | 'irt';
  isGenisys: boolean;
}

export interface FragranceDraft {
  name: string;
  fragranceCode: string;
  refNumber: string | null;
  code: string | null;
  methodology: string | null;
  perfumerName: string | null;
  region: string | null;
  country: string | null;
  family: string | null;
  subfamily: string | null;
  specifier: string | null;
  level: number | null;
  supplementalInfo: string | null;
  dominantNotes: (string | null)[];
  creative: boolean;
}

export interface ConceptDraft {
  name: string;
  conceptCode: string;
  region: string | null;
  country: string | null;
  theme: string | null;
  ingredient1: string | null;
  ingredient2: string | null;
}

export interface DocumentDraft {
  path: string;
  folder: (typeof STUDY_DOCUMENT_FOLDERS)[number];
  name: string;
  extension: string;
}

export interface StudyDraft {
  /** The study's folder in the zip. */
  folder: string;
  metadata: StudyMetadataDraft | null;
  fragrances: FragranceDraft[];
  concepts: ConceptDraft[];
  results: ResultsDraft[];
  documents: DocumentDraft[];
}

export interface ValidationResult {
  studies: StudyDraft[];
  issues: FileIssue[];
}
