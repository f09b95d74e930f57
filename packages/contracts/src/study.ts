/**
 * The study page (document 2 sections 3 and 7, "Study"): grouped details, the details edit, the
 * fragrance and concept table edits, single tags, the edit history, the study's files, uploads and
 * version control. Field names are the server's (product_area is the business unit).
 *
 * Calls (all under /api, signed in):
 * - GET  /study/{id}                          StudyDetailsResponse
 * - PUT  /study/{id}                          StudyUpdateRequest -> StudyEditResponse (admins)
 * - PUT  /study/{id}/tags                     StudyTagEditRequest -> StudyEditResponse (admins)
 * - GET  /study/options                       StudyOptionsResponse
 * - GET  /study/study_edit_history/{id}       StudyEditHistoryResponse
 * - GET  /study/{id}/study-files/             StudyFileEntry[]
 * - GET  /study/{studyId}/study-files/{fileId}  the current version's bytes (users who may download)
 * - GET  /study/{id}/related-study-files/     StudyFileNode (root: the study group)
 * - GET  /study/{id}/study-files-path/{file_name}  the bytes of the named file (users who may download)
 * - POST /study/{id}/upload                   multipart -> UploadStartedResponse (admins)
 * - GET  /study/{studyId}/upload/{jobId}      UploadJobStatus, or 404 'No such job'
 * - POST /study/{id}/version-history/{filename}  VersionHistoryRequest -> VersionHistoryResponse
 * - POST /study/{id}/swap-version-file/{filename}/{versionId}  SwapVersionRequest -> SwapVersionResponse (admins)
 */
import { z } from 'zod';
import { STUDY_FILE_TYPES, TEXT_LIMITS, UPLOAD_JOB_STATUSES } from './constants.ts';
import { numeric, refuseNulText } from './common.ts';

const TEXT_MAX = TEXT_LIMITS.studyText;

// ---------------------------------------------------------------- constants and messages

/** Folders of a study group: document folders, and results (the RDF data files). */
export const STUDY_FOLDERS = ['report', 'questionnaire', 'protocol', 'screener', 'results'] as const;
export type StudyFolder = (typeof STUDY_FOLDERS)[number];

/** Extensions a folder takes on upload (lower case, without the dot). */
export const FOLDER_EXTENSIONS: Record<'documents' | 'results', readonly string[]> = {
  documents: ['doc', 'docx', 'ppt', 'pptx', 'pdf', 'xls', 'xlsx'],
  results: ['csv', 'xlsx'],
};

/** Extensions the given folder accepts. */
export function extensionsForFolder(folder: StudyFolder): readonly string[] {
  return folder === 'results' ? FOLDER_EXTENSIONS.results : FOLDER_EXTENSIONS.documents;
}

/** Largest file an upload may carry: 50 MB. */
export const STUDY_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** Study fields whose tag value is a whole number of at least 1 (document 2 section 5, Add tag). */
export const WHOLE_NUMBER_TAGS = ['age', 'number_of_products', 'study_sample_size'] as const;

/** The field groups of the details cards (document 2 section 3, Study details), in order. */
export const STUDY_DETAIL_GROUPS = {
  study_info: ['project_name', 'client', 'c_mi_number', 'pace_number'],
  product_categorization: ['product_area', 'division', 'category', 'product_type'],
  geography: ['region', 'lead_country', 'country'],
  methodological_details_1: ['methodology', 'panel_profile'],
  methodological_details_2: ['gender', 'age', 'social_class', 'study_sample_size'],
  methodological_details_3: ['design_method'],
  methodological_details_4: ['base'],
  verified: ['verified'],
} as const;
export type StudyDetailGroup = keyof typeof STUDY_DETAIL_GROUPS;

/** The 18 fragrance fields the fragrance table edits and tracks (document 2 section 5). */
export const FRAGRANCE_TABLE_FIELDS = [
  'name',
  'ref_number',
  'code',
  'fragrance_code',
  'methodology',
  'perfumer_name',
  'region',
  'country',
  'family',
  'subfamily',
  'specifier',
  'level',
  'supplemental_info',
  'dominant_note_1',
  'dominant_note_2',
  'dominant_note_3',
  'dominant_note_4',
  'dominant_note_5',
] as const;

/** Concept fields whose changes the concept table tracks (document 2 section 5). */
export const CONCEPT_TRACKED_FIELDS = ['concept_code', 'country', 'name', 'region'] as const;

export const STUDY_MESSAGES = {
  saved: 'Study data was updated successfully.',
  nothingChanged: 'Nothing to change: the study already holds these values.',
  incoherent: 'The study data is not coherent.',
  stale: (fields: string[]) =>
    `The study was changed by someone else since you opened it (${fields.join(', ')}). Reload the page and try again.`,
  noSuchJob: 'No such job',
  uploadFailed: 'Upload failed',
  uploaded: (name: string) => `Uploaded ${name}.`,
  swapped: (name: string) => `${name} is now the current version.`,
  emptyFile: 'The file is empty.',
  tooLarge: (limitMb: number) => `The file is larger than the ${limitMb} MB limit.`,
  noFile: 'Choose a file to upload.',
  wrongExtension: (folder: string, extension: string, allowed: readonly string[]) =>
    `The ${folder} folder does not take .${extension} files; it takes ${allowed.map((e) => `.${e}`).join(', ')}.`,
  noVersionHistory: 'Current file has no version history',
} as const;

// ---------------------------------------------------------------- details

/** A stored tag value: text, list of texts, number, boolean, or null when empty. */
export const TagValue = z.union([
  z.string().max(TEXT_MAX),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string().max(TEXT_MAX)).max(500),
]);
export type TagValue = z.infer<typeof TagValue>;

export const StudyDetailField = z.object({
  label: z.string(),
  type: z.string().meta({ description: 'categorical, string, int or boolean.' }),
  value: TagValue,
});
export type StudyDetailField = z.infer<typeof StudyDetailField>;

const DetailGroup = z.record(z.string(), StudyDetailField);

export const StudyTag = z.object({
  field: z.string(),
  label: z.string(),
  type: z.string(),
  multivalue: z.boolean(),
  editable: z.boolean(),
  value: TagValue.meta({ description: "null (or an empty list) when the tag is empty ('Add info')." }),
});
export type StudyTag = z.infer<typeof StudyTag>;

/** One fragrance row of the study (perfume_characteristics). */
export const PerfumeCharacteristic = z
  .object({
    id: z.number().int(),
    name: z.string(),
    ref_number: z.string().nullable(),
    code: z.string().nullable(),
    fragrance_code: z.string(),
    methodology: z.string().nullable(),
    perfumer_name: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().nullable(),
    family: z.string().nullable(),
    subfamily: z.string().nullable(),
    specifier: z.string().nullable(),
    level: z.number().nullable(),
    supplemental_info: z.string().nullable(),
    dominant_note_1: z.string().nullable(),
    dominant_note_2: z.string().nullable(),
    dominant_note_3: z.string().nullable(),
    dominant_note_4: z.string().nullable(),
    dominant_note_5: z.string().nullable(),
    bench_create: z.enum(['creative', 'benchmark']),
  })
  .meta({ id: 'PerfumeCharacteristic' });
export type PerfumeCharacteristic = z.infer<typeof PerfumeCharacteristic>;

export const StudyConcept = z
  .object({
    id: z.number().int(),
    name: z.string(),
    concept_code: z.string(),
    region: z.string().nullable(),
    country: z.string().nullable(),
    theme: z.string().nullable(),
    ingredient_1: z.string().nullable(),
    ingredient_2: z.string().nullable(),
  })
  .meta({ id: 'StudyConcept' });
export type StudyConcept = z.infer<typeof StudyConcept>;

export const StudyDetailsResponse = z
  .object({
    id: z.number().int(),
    c_mi_number: z.string().meta({ description: 'For the breadcrumb.' }),
    project_name: z.string(),
    client: z.string(),
    verified: z.boolean(),
    updated_at: z.string(),
    details: z
      .object({
        study_info: DetailGroup,
        product_categorization: DetailGroup,
        geography: DetailGroup,
        methodological_details_1: DetailGroup,
        methodological_details_2: DetailGroup,
        methodological_details_3: DetailGroup,
        methodological_details_4: DetailGroup,
        verified: DetailGroup,
      })
      .meta({ description: 'Metadata cards: group -> field -> {label, type, value}, in display order.' }),
    tags: z
      .object({
        geography: z.array(StudyTag),
        categorization: z.array(StudyTag),
        methodology: z.array(StudyTag),
      })
      .meta({ description: 'Tags by tag group; empty tags have a null or empty value.' }),
    perfume_characteristics: z.array(PerfumeCharacteristic),
    concepts: z.array(StudyConcept),
    has_questions: z.boolean().meta({ description: "Whether to show 'Mapping to questions'." }),
  })
  .meta({ id: 'StudyDetails' });
export type StudyDetailsResponse = z.infer<typeof StudyDetailsResponse>;

// ---------------------------------------------------------------- edits

/**
 * Details edit: only the changed fields with their new values, and their values as the page showed
 * them (oldData). gender may be a one-item list or a text; region a list or a comma-separated text.
 */
export const StudyUpdateRequest = z
  .strictObject({
    type: z.literal('study'),
    study: z
      .record(z.string().min(1).max(100), TagValue)
      .refine((fields) => Object.keys(fields).length > 0, 'Nothing to change: send at least one field.')
      .meta({ description: 'Changed fields and their new values.' }),
    oldData: z
      .record(z.string().min(1).max(100), TagValue)
      .meta({ description: 'The value of every changed field as shown when editing began.' }),
  })
  .meta({ id: 'StudyUpdateRequest' });
export type StudyUpdateRequest = z.input<typeof StudyUpdateRequest>;

export const StudyChange = z.object({
  field: z.string(),
  old_value: z.unknown(),
  new_value: z.unknown(),
});
export type StudyChange = z.infer<typeof StudyChange>;

const optionalText = z.string().trim().max(TEXT_MAX).nullish();

/** A fragrance row to keep or add; with an id of the study's own row it updates that row. */
export const PerfumeCharacteristicInput = z.strictObject({
  id: z.number().int().positive().optional().meta({ description: 'Row to update; absent for new rows.' }),
  name: z.string().trim().min(1, 'Every fragrance needs a name.').max(TEXT_MAX),
  fragrance_code: z
    .string()
    .trim()
    .min(1, 'Every fragrance needs a fragrance code.')
    .max(TEXT_LIMITS.productCode)
    .meta({ description: 'Product code in the results file; unique within the study.' }),
  ref_number: optionalText,
  code: optionalText,
  methodology: optionalText,
  perfumer_name: optionalText,
  region: optionalText,
  country: optionalText,
  family: optionalText,
  subfamily: optionalText,
  specifier: optionalText,
  level: z
    .union([z.number(), z.string().trim()])
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined || value === '') return null;
      const number = Number(value);
      if (!Number.isFinite(number) || number < 0 || number > 100) {
        ctx.addIssue({ code: 'custom', message: 'Level is a percentage between 0 and 100.' });
        return z.NEVER;
      }
      return number;
    }),
  supplemental_info: optionalText,
  dominant_note_1: optionalText,
  dominant_note_2: optionalText,
  dominant_note_3: optionalText,
  dominant_note_4: optionalText,
  dominant_note_5: optionalText,
  bench_create: z
    .union([z.enum(['creative', 'benchmark']), z.boolean()])
    .optional()
    .meta({ description: 'creative (default) or benchmark; true means creative.' }),
});
export type PerfumeCharacteristicInput = z.input<typeof PerfumeCharacteristicInput>;

export const StudyConceptInput = z.strictObject({
  id: z.number().int().positive().optional().meta({ description: 'Row to update; absent for new rows.' }),
  name: z.string().trim().min(1, 'Every concept needs a name.').max(TEXT_MAX),
  concept_code: z.string().trim().min(1, 'Every concept needs a concept code.').max(TEXT_LIMITS.productCode),
  region: optionalText,
  country: optionalText,
  theme: optionalText,
  ingredient_1: optionalText,
  ingredient_2: optionalText,
});
export type StudyConceptInput = z.input<typeof StudyConceptInput>;

const ClientChanges = z
  .array(z.strictObject({ field: z.string().max(100), old_value: z.unknown(), new_value: z.unknown() }))
  .max(10_000)
  .optional()
  .meta({
    description:
      'Changes as the page tracked them. Accepted for compatibility; the history records the changes the server finds.',
  });

const uniqueBy = <T>(rows: T[], key: (row: T) => string) => new Set(rows.map(key)).size === rows.length;

/**
 * Tag edit (the spec leaves the path open: PUT /study/{id}/tags). Three kinds:
 * - fragrances: the full new fragrance table (rows without ids are added, rows with an id of the
 *   study update it, rows left out are removed with their answers), or clear_perfume_characteristics;
 * - concepts: the same for the concept table;
 * - tag: one study tag set from the 'Add tag' popup (whole numbers of at least 1 for age,
 *   number_of_products and study_sample_size; a listed option for categorical tags; free text else).
 */
export const StudyTagEditRequest = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('fragrances'),
      perfume_characteristics: z
        .array(PerfumeCharacteristicInput)
        .max(1000)
        .optional()
        .refine(
          (rows) => !rows || uniqueBy(rows, (row) => row.fragrance_code.toLowerCase()),
          'Each fragrance code may appear only once.',
        ),
      clear_perfume_characteristics: z.boolean().optional(),
      changes: ClientChanges,
    }),
    z.strictObject({
      type: z.literal('concepts'),
      concepts: z
        .array(StudyConceptInput)
        .max(1000)
        .optional()
        .refine(
          (rows) => !rows || uniqueBy(rows, (row) => row.concept_code.toLowerCase()),
          'Each concept code may appear only once.',
        ),
      clear_concepts: z.boolean().optional(),
      changes: ClientChanges,
    }),
    z.strictObject({
      type: z.literal('tag'),
      field: z.string().trim().min(1).max(100),
      value: TagValue,
      old_value: TagValue.optional().meta({
        description: 'The value shown when the popup opened; a different stored value answers 409.',
      }),
    }),
  ])
  .meta({ id: 'StudyTagEditRequest' });
export type StudyTagEditRequest = z.input<typeof StudyTagEditRequest>;

export const StudyEditResponse = z
  .object({
    message: z.string(),
    changes: z.array(StudyChange).meta({ description: 'What changed (empty when nothing did).' }),
  })
  .meta({ id: 'StudyEditResponse' });
export type StudyEditResponse = z.infer<typeof StudyEditResponse>;

/** A refused details edit: incoherent_fields maps each offending field to its messages. */
export const StudyEditErrorResponse = z
  .object({
    error: z.string(),
    message: z.string(),
    statusCode: z.number().int(),
    requestId: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    incoherent_fields: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'StudyEditErrorResponse' });
export type StudyEditErrorResponse = z.infer<typeof StudyEditErrorResponse>;

// ---------------------------------------------------------------- options and history

export const StudyTagDefinition = z
  .object({
    field: z.string(),
    label: z.string(),
    type: z.string(),
    options: z.array(z.object({ value: z.string(), label: z.string(), parent: z.string().nullable() })),
    multivalue: z.boolean(),
    editable: z.boolean(),
    tag_group: z.string().nullable(),
    whole_number: z.boolean().meta({ description: 'The value is a whole number of at least 1.' }),
  })
  .meta({ id: 'StudyTagDefinition' });
export type StudyTagDefinition = z.infer<typeof StudyTagDefinition>;

export const StudyOptionsResponse = z
  .object({
    metadata: z.array(StudyTagDefinition),
    fragrance: z.array(StudyTagDefinition),
    concept: z.array(StudyTagDefinition),
  })
  .meta({ id: 'StudyOptions' });
export type StudyOptionsResponse = z.infer<typeof StudyOptionsResponse>;

const UserEmail = z.object({ email: z.string() });

export const StudyHistoryEntry = z.object({
  id: z.number().int(),
  user_email: UserEmail,
  change_date: z.string(),
  field: z.string(),
  old_value: z.unknown(),
  new_value: z.unknown(),
});
export type StudyHistoryEntry = z.infer<typeof StudyHistoryEntry>;

export const StudyHistoryGroup = z.object({
  id: z.number().int(),
  type: z.enum(['study', 'fragrances', 'concepts']),
  user_email: UserEmail,
  change_date: z.string(),
  changes: z.array(StudyChange),
});
export type StudyHistoryGroup = z.infer<typeof StudyHistoryGroup>;

/** study: the study-level changes one per line; grouped: every save of any type; both newest first. */
export const StudyEditHistoryResponse = z
  .object({ study: z.array(StudyHistoryEntry), grouped: z.array(StudyHistoryGroup) })
  .meta({ id: 'StudyEditHistory' });
export type StudyEditHistoryResponse = z.infer<typeof StudyEditHistoryResponse>;

// ---------------------------------------------------------------- files

export const StudyFileTypeSchema = z.enum(STUDY_FILE_TYPES);

export const StudyFileError = z.object({
  id: z.number().int(),
  high_msg: z.string(),
  msg: z.string(),
  level: z.enum(['warning', 'error']),
  event: z.string(),
  error_file: z.string(),
});
export type StudyFileError = z.infer<typeof StudyFileError>;

export const StudyFileEntry = z
  .object({
    id: z.number().int(),
    name: z.string(),
    extension: z.string(),
    type: StudyFileTypeSchema,
    category: z.string().meta({ description: 'Reports, Questionnaires, Protocols, Screeners or RDFs.' }),
    folder: z.string(),
  })
  .meta({ id: 'StudyFileEntry' });
export type StudyFileEntry = z.infer<typeof StudyFileEntry>;

export interface StudyFileNode {
  name: string;
  type: 'directory' | 'file';
  children: StudyFileNode[];
  errors: StudyFileError[];
  file_type: string | null;
  id: number | null;
}
export const StudyFileNode: z.ZodType<StudyFileNode> = z
  .object({
    name: z.string(),
    type: z.enum(['directory', 'file']),
    get children() {
      return z.array(StudyFileNode);
    },
    errors: z.array(StudyFileError),
    file_type: z.string().nullable(),
    id: z.number().int().nullable(),
  })
  .meta({ id: 'StudyFileNode' });

export const StudyFileParams = z.object({
  studyId: numeric(z.number().int().positive()),
  fileId: numeric(z.number().int().positive()),
});

export const StudyFileNameParams = z.object({
  id: numeric(z.number().int().positive()),
  file_name: z.string().min(1).max(500),
});

export const StudyFolder = z.enum(STUDY_FOLDERS);

/** The text fields of an upload's multipart form (the file itself is the part named file). */
export const StudyUploadFields = z
  .strictObject({
    filename: z
      .string()
      .trim()
      .max(500)
      .optional()
      .meta({ description: 'Name of the file the upload replaces; a new file when the folder has none.' }),
    filetype: StudyFileTypeSchema,
    foldertype: StudyFolder,
  })
  // Multipart fields are checked by this schema alone (not by the server's check of every body).
  .superRefine(refuseNulText);
export type StudyUploadFields = z.infer<typeof StudyUploadFields>;

export const UploadStartedResponse = z
  .object({ job_id: z.string(), message: z.string() })
  .meta({ id: 'UploadStarted' });
export type UploadStartedResponse = z.infer<typeof UploadStartedResponse>;

export const UploadJobParams = z.object({
  studyId: numeric(z.number().int().positive()),
  jobId: z.string().min(1).max(100),
});

export const UploadJobStatus = z
  .object({
    status: z.enum(UPLOAD_JOB_STATUSES),
    filename: z.string(),
    high_msg: z.string(),
  })
  .meta({ id: 'UploadJobStatus' });
export type UploadJobStatus = z.infer<typeof UploadJobStatus>;

export const VersionHistoryParams = z.object({
  id: numeric(z.number().int().positive()),
  filename: z.string().min(1).max(500),
});

export const VersionHistoryRequest = z.strictObject({ foldertype: StudyFolder });
export type VersionHistoryRequest = z.infer<typeof VersionHistoryRequest>;

export const FileVersionEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  date: z.string(),
  status: z.enum(['success', 'failed']),
  errors: z.array(StudyFileError),
});

export const VersionHistoryResponse = z
  .object({
    _source: z.object({
      file_id: z.number().int(),
      current_version_id: z.number().int().nullable(),
      current_file: z.string(),
      date: z.string().nullable(),
      status: z.enum(['success', 'failed']).nullable(),
      errors: z.array(StudyFileError),
      file_history: z.array(FileVersionEntry).meta({
        description: 'Earlier (and later, after a revert) versions, newest first; never the current one.',
      }),
    }),
  })
  .meta({ id: 'VersionHistory' });
export type VersionHistoryResponse = z.infer<typeof VersionHistoryResponse>;

export const SwapVersionParams = z.object({
  id: numeric(z.number().int().positive()),
  filename: z.string().min(1).max(500),
  versionId: numeric(z.number().int().positive()),
});

export const SwapVersionRequest = z.strictObject({ filetype: StudyFileTypeSchema, foldertype: StudyFolder });
export type SwapVersionRequest = z.infer<typeof SwapVersionRequest>;

export const SwapVersionResponse = VersionHistoryResponse.extend({ message: z.string() }).meta({
  id: 'SwapVersionResponse',
});
export type SwapVersionResponse = z.infer<typeof SwapVersionResponse>;
