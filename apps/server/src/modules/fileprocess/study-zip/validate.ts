/**
 * The whole zip: every study folder read with the reader of each file kind (request form, scale
 * file, results file, documents), answering the drafts and every problem (`validateStudies`).
 */
import { STUDY_DOCUMENT_EXTENSIONS, STUDY_DOCUMENT_FOLDERS, STUDY_UPLOAD_MAX_BYTES } from '@accord/contracts';
import { CsvReadError, TableLimitError } from '../../../lib/csv-table.ts';
import { hasBlockingErrors, validateStudyFile } from '../../study/file-validation.ts';
import {
  type DocumentDraft,
  type QuestionDraft,
  type ReferenceData,
  REQUEST_FORM,
  RESULTS_FOLDER,
  SCALE_SUFFIX,
  type StudyDraft,
  type ValidationOptions,
  type ValidationResult,
  type ZipFile,
} from './model.ts';
import { IssueList } from './issues.ts';
import { readRequestForm } from './request-form.ts';
import { readScale } from './scale-file.ts';
import { checkResults } from './results-file.ts';

/** The content checks of a document (file-validation.ts); false when one of them is an error. */
async function checkDocument(
  file: ZipFile,
  name: string,
  folder: DocumentDraft['folder'],
  issues: IssueList,
): Promise<boolean> {
  const found = await validateStudyFile({ bytes: await file.read(), fileName: name, folder });
  for (const problem of found) issues.add(problem.level, problem.high_msg, problem.msg, { file: file.path });
  return !hasBlockingErrors(found);
}

/** A csv beyond the table limits or that the parser cannot read: an error on the file. */
function unreadableTable(issues: IssueList, file: string, error: unknown): void {
  if (error instanceof TableLimitError) issues.error('File too large', error.message, { file });
  else if (error instanceof CsvReadError) issues.error('Unreadable csv', error.message, { file });
  else throw error;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/** Reads and checks every study of the unpacked zip. */
export async function validateStudies(
  files: ZipFile[],
  ref: ReferenceData,
  options: ValidationOptions,
): Promise<ValidationResult> {
  const issues = new IssueList();
  const byFolder = new Map<string, ZipFile[]>();
  for (const file of files) {
    const slash = file.path.indexOf('/');
    if (slash < 0) {
      issues.error(
        'File outside a study folder',
        'Every file belongs in the folder of its study (named by its CMI number).',
        { file: file.path },
      );
      continue;
    }
    const folder = file.path.slice(0, slash);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  if (byFolder.size === 0) issues.error('No studies', 'The zip holds no study folder.', { file: '' });

  const studies: StudyDraft[] = [];
  const cmis = new Map<string, string>();
  for (const [folder, folderFiles] of [...byFolder.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const study: StudyDraft = {
      folder,
      metadata: null,
      fragrances: [],
      concepts: [],
      results: [],
      documents: [],
    };
    const inside = (file: ZipFile) => file.path.slice(folder.length + 1);
    const form = folderFiles.find((f) => inside(f).toLowerCase() === REQUEST_FORM);
    if (!form)
      issues.error('Missing request form', `The study folder has no ${REQUEST_FORM}.`, { file: folder });
    else Object.assign(study, await readRequestForm(form, folder, ref, options, issues));
    const cmi = study.metadata?.cMiNumber;
    if (cmi) {
      const other = cmis.get(cmi.toLowerCase());
      if (other)
        issues.error(
          'Study twice in the zip',
          `The folders ${other} and ${folder} hold the same CMI number ${cmi}.`,
          {
            file: folder,
          },
        );
      cmis.set(cmi.toLowerCase(), folder);
    }
    const productCodes = form
      ? new Set([
          ...study.fragrances.map((f) => f.fragranceCode),
          ...study.concepts.map((c) => c.conceptCode),
        ])
      : null;

    const resultsFiles = folderFiles.filter((f) => {
      const rel = inside(f);
      return rel.startsWith(`${RESULTS_FOLDER}/`) && !rel.toLowerCase().endsWith(SCALE_SUFFIX);
    });
    for (const file of folderFiles) {
      const rel = inside(file);
      if (file === form) continue;
      const parts = rel.split('/');
      const top = parts[0] as string;
      const name = parts[parts.length - 1] as string;
      const extension = extensionOf(name);
      if (top === RESULTS_FOLDER && parts.length === 2) {
        if (rel.toLowerCase().endsWith(SCALE_SUFFIX)) {
          const base = name.slice(0, -SCALE_SUFFIX.length).toLowerCase();
          if (!resultsFiles.some((r) => extensionOf(r.path) === 'csv' && baseName(r.path) === base))
            issues.warning(
              'Scale file without results',
              `No results file ${base}.csv goes with this scale file.`,
              {
                file: file.path,
              },
            );
        } else if (extension !== 'csv') {
          issues.error(
            'Unknown results file type',
            'Results files are CSV files (.csv) with a .scale.csv scale file.',
            {
              file: file.path,
            },
          );
        }
        continue;
      }
      if ((STUDY_DOCUMENT_FOLDERS as readonly string[]).includes(top) && parts.length === 2) {
        if (!(STUDY_DOCUMENT_EXTENSIONS as readonly string[]).includes(extension)) {
          issues.error(
            'Unknown document type',
            `Documents are ${STUDY_DOCUMENT_EXTENSIONS.join(', ')} files; .${extension || '(none)'} is not accepted.`,
            { file: file.path },
          );
        } else if (file.size === 0) {
          issues.error('Empty document', 'The document is empty.', { file: file.path });
        } else if (file.size > STUDY_UPLOAD_MAX_BYTES) {
          issues.error(
            'Document too large',
            `The document is larger than ${STUDY_UPLOAD_MAX_BYTES / 1024 / 1024} MB, the most a study file may be.`,
            { file: file.path },
          );
        } else if (
          // The same content check as a study file uploaded on its own (a "pdf" that is not one).
          !(await checkDocument(file, name, top as DocumentDraft['folder'], issues))
        ) {
          continue;
        } else {
          study.documents.push({
            path: file.path,
            folder: top as DocumentDraft['folder'],
            name,
            extension,
          });
        }
        continue;
      }
      issues.error(
        'Unknown folder',
        `Files go in ${REQUEST_FORM}, ${RESULTS_FOLDER}/ or ${STUDY_DOCUMENT_FOLDERS.join('/, ')}/ of the study folder.`,
        { file: file.path },
      );
    }

    const csvResults = resultsFiles.filter(
      (f) => extensionOf(f.path) === 'csv' && inside(f).split('/').length === 2,
    );
    if (csvResults.length === 0)
      issues.error('Missing results file', `The study folder has no results file in ${RESULTS_FOLDER}/.`, {
        file: folder,
      });
    for (const file of csvResults) {
      const scalePath = `${file.path.slice(0, -'.csv'.length)}${SCALE_SUFFIX}`;
      const scale = folderFiles.find((f) => f.path.toLowerCase() === scalePath.toLowerCase());
      if (!scale) {
        issues.error(
          'Missing scale file',
          `The results file needs its scale file ${scalePath.split('/').pop()}.`,
          {
            file: file.path,
          },
        );
        continue;
      }
      let questions: QuestionDraft[] | null;
      try {
        questions = await readScale(scale, ref, issues);
      } catch (error) {
        unreadableTable(issues, scale.path, error);
        continue;
      }
      if (!questions) continue;
      try {
        await checkResults(file, questions, productCodes, issues);
      } catch (error) {
        unreadableTable(issues, file.path, error);
        continue;
      }
      study.results.push({
        path: file.path,
        name: file.path.split('/').pop() as string,
        scalePath: scale.path,
        questions,
      });
    }
    studies.push(study);
  }
  return { studies, issues: issues.finish() };
}

const baseName = (filePath: string) => {
  const name = (filePath.split('/').pop() as string).toLowerCase();
  return name.endsWith('.csv') ? name.slice(0, -4) : name;
};
