/**
 * The study zip format (docs/data-formats.md): reading and checking the studies of an unpacked zip.
 *
 * One folder per study (named by its CMI number) holding request_form.xlsx, results/<name>.csv with
 * results/<name>.scale.csv, and documents in report/, questionnaire/, protocol/ and screener/.
 * `validateStudies` reads every study and answers what it found plus every problem, each attached to
 * the file or folder it concerns with level, high_msg, msg and a path (file, sheet, row, column).
 * Errors block injection; warnings do not. Results files are streamed row by row: the validator and
 * the injection (`readResults`) never hold a whole file.
 *
 * One reader per file kind, in study-zip/: the request form (`request-form.ts`), the scale file
 * (`scale-file.ts`), the results file (`results-file.ts`), over the names and drafts (`model.ts`),
 * the columns of each file (`columns.ts`), problems (`issues.ts`) and cells (`cells.ts`); the whole
 * zip in `validate.ts`. This module is what the rest of the server imports.
 */
export {
  FIRST_STUDY_YEAR,
  MAX_ISSUES_PER_FILE,
  QUESTION_TYPES,
  REQUEST_FORM,
  RESULTS_FOLDER,
  SCALE_SUFFIX,
  replacing,
} from './study-zip/model.ts';
export type {
  ConceptDraft,
  DocumentDraft,
  FragranceDraft,
  QuestionDraft,
  ReferenceData,
  ResultsDraft,
  StudyDraft,
  StudyMetadataDraft,
  UploadFormValues,
  ValidationOptions,
  ValidationResult,
  ZipFile,
} from './study-zip/model.ts';
export {
  CONCEPT_COLUMNS,
  DEMOGRAPHIC_COLUMNS,
  FRAGRANCE_COLUMNS,
  RESULTS_KEY_COLUMNS,
  SCALE_COLUMNS,
  STUDY_FORM_FIELDS,
  testDateOf,
} from './study-zip/columns.ts';
export { studyHasErrors } from './study-zip/issues.ts';
export { columnLetter } from './study-zip/cells.ts';
export { REQUEST_FORM_MAX_BYTES } from './study-zip/request-form.ts';
export { readResults } from './study-zip/results-file.ts';
export type { ResultRow } from './study-zip/results-file.ts';
export { validateStudies } from './study-zip/validate.ts';
