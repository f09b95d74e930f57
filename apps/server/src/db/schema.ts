/**
 * The whole data model of Accord (specification documents 1 to 3). Later features add columns; the
 * shape is fixed here. Migrations are generated from this file with `npm run db:generate`.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** PostgreSQL's full-text document type. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** JSON kept as text: written as JSON.stringify writes it, parsed when read. */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------- users, roles, sessions, settings

export const roles = pgTable('roles', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    firstname: text('firstname').notNull().default(''),
    lastname: text('lastname').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    status: text('status', { enum: ['enabled', 'disabled'] })
      .notNull()
      .default('enabled'),
    deleted: boolean('deleted').notNull().default(false),
    /** Client names this user is limited to (client and sales roles). */
    clients: text('clients')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Set when the user has not signed in for 30 days; cleared by a password reset. */
    passwordResetFlag: boolean('password_reset_flag').notNull().default(false),
    createdAt: createdAt(),
    lastSeen: timestamp('last_seen', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessTokenHash: text('access_token_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshTokenHash: text('refresh_token_hash'),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }),
    remember: boolean('remember').notNull().default(true),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_access_token_key').on(t.accessTokenHash),
    uniqueIndex('sessions_refresh_token_key').on(t.refreshTokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

/**
 * Every access token issued to a session, each valid until its own expiry: a refresh adds one
 * without ending the others, so two tabs of one session (a profile opened in a new tab) both keep
 * working. Ending the session ends them all.
 */
export const sessionTokens = pgTable(
  'session_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('session_tokens_session_idx').on(t.sessionId)],
);

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Recent sign-in failures and reset requests per account (an e-mail, known or not), counted here
 * rather than in a process's memory so that every API process and host sees the same count.
 */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: serial('id').primaryKey(),
    /** Which limit counts the attempt: 'login' (failures) or 'reset' (requests). */
    kind: text('kind').notNull(),
    /** The account's e-mail as sign-in compares it. */
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_attempts_key_idx').on(t.kind, t.key, t.at), index('auth_attempts_at_idx').on(t.at)],
);

export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const savedSearches = pgTable(
  'saved_searches',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    searchType: text('search_type', { enum: ['search', 'cics', 'analytics'] }).notNull(),
    /** JSON text of the filters, as the client sent it. */
    metadataQuery: text('metadata_query').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('saved_searches_user_idx').on(t.userId, t.searchType)],
);

// ---------------------------------------------------------------- field and tag definitions

export const fieldDefinitions = pgTable('field_definitions', {
  id: serial('id').primaryKey(),
  /** Server name of the field (c_mi_number, product_area, family ...). */
  field: text('field').notNull(),
  /** Which entity the field belongs to: study metadata, fragrance, concept, demographics. */
  fieldGroup: text('field_group', { enum: ['metadata', 'fragrance', 'concept', 'demographics'] }).notNull(),
  label: text('label').notNull(),
  type: text('type', { enum: ['categorical', 'string', 'int', 'boolean', 'range', 'date'] }).notNull(),
  multivalue: boolean('multivalue').notNull().default(false),
  editable: boolean('editable').notNull().default(true),
  /** Tag group on the study page: geography, categorization, methodology (or null). */
  tagGroup: text('tag_group'),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const fieldOptions = pgTable(
  'field_options',
  {
    id: serial('id').primaryKey(),
    fieldId: integer('field_id')
      .notNull()
      .references(() => fieldDefinitions.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    label: text('label').notNull(),
    /** Option this one depends on (product type under a category, country under a region). */
    parentValue: text('parent_value'),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [uniqueIndex('field_options_value_key').on(t.fieldId, t.value)],
);

// ---------------------------------------------------------------- studies

export const studies = pgTable(
  'studies',
  {
    id: serial('id').primaryKey(),
    projectName: text('project_name').notNull(),
    client: text('client').notNull(),
    cMiNumber: text('c_mi_number').notNull(),
    paceNumber: text('pace_number'),
    /** Business unit; the server calls it product_area. */
    productArea: text('product_area')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    division: text('division'),
    category: text('category'),
    productType: text('product_type'),
    region: text('region')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    leadCountry: text('lead_country'),
    country: text('country')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    methodology: text('methodology'),
    panelProfile: text('panel_profile'),
    designMethod: text('design_method'),
    researchType: text('research_type')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    cmiToolType: text('cmi_tool_type')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    evaluation: text('evaluation')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    gender: text('gender')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    age: text('age'),
    socialClass: text('social_class')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    studySampleSize: integer('study_sample_size'),
    numberOfProducts: integer('number_of_products'),
    base: text('base'),
    objectiveAndActionStandards: text('objective_and_action_standards'),
    year: integer('year').notNull(),
    /** Kind of results the study holds: classic RDF, EEG or implicit (IRT). */
    rdfType: text('rdf_type', { enum: ['rdf', 'eeg', 'irt'] })
      .notNull()
      .default('rdf'),
    isGenisys: boolean('is_genisys').notNull().default(false),
    verified: boolean('verified').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('studies_c_mi_number_key').on(t.cMiNumber),
    index('studies_client_idx').on(t.client),
    index('studies_year_idx').on(t.year),
    index('studies_category_idx').on(t.category),
    // Study search: case-insensitive prefix search (lower(column) like 'text%') and list overlap (&&).
    index('studies_c_mi_number_prefix_idx').using('btree', sql`lower(${t.cMiNumber}) text_pattern_ops`),
    index('studies_pace_number_prefix_idx').using('btree', sql`lower(${t.paceNumber}) text_pattern_ops`),
    index('studies_project_name_prefix_idx').using('btree', sql`lower(${t.projectName}) text_pattern_ops`),
    index('studies_region_gin_idx').using('gin', t.region),
    index('studies_country_gin_idx').using('gin', t.country),
  ],
);

/** Fragrances of a study (the spec's perfume characteristics). */
export const fragrances = pgTable(
  'fragrances',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 'Developer #'. */
    refNumber: text('ref_number'),
    /** '6 Digit Code (SAP)'. */
    code: text('code'),
    /** Product code used in the results data file. */
    fragranceCode: text('fragrance_code').notNull(),
    methodology: text('methodology'),
    perfumerName: text('perfumer_name'),
    region: text('region'),
    country: text('country'),
    family: text('family'),
    subfamily: text('subfamily'),
    specifier: text('specifier'),
    /** Dosage level in percent. */
    level: doublePrecision('level'),
    supplementalInfo: text('supplemental_info'),
    dominantNote1: text('dominant_note_1'),
    dominantNote2: text('dominant_note_2'),
    dominantNote3: text('dominant_note_3'),
    dominantNote4: text('dominant_note_4'),
    dominantNote5: text('dominant_note_5'),
    /** true: creative submission; false: benchmark. The server calls it bench_create. */
    creative: boolean('creative').notNull().default(true),
  },
  (t) => [
    index('fragrances_study_idx').on(t.studyId),
    index('fragrances_family_idx').on(t.family),
    uniqueIndex('fragrances_code_key').on(t.studyId, t.fragranceCode),
    // Study search: case-insensitive prefix search on name, perfumer and SAP code.
    index('fragrances_name_prefix_idx').using('btree', sql`lower(${t.name}) text_pattern_ops`),
    index('fragrances_perfumer_prefix_idx').using('btree', sql`lower(${t.perfumerName}) text_pattern_ops`),
    index('fragrances_code_prefix_idx').using('btree', sql`lower(${t.code}) text_pattern_ops`),
  ],
);

export const concepts = pgTable(
  'concepts',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    conceptCode: text('concept_code').notNull(),
    region: text('region'),
    country: text('country'),
    theme: text('theme'),
    ingredient1: text('ingredient_1'),
    ingredient2: text('ingredient_2'),
  },
  (t) => [
    index('concepts_study_idx').on(t.studyId),
    uniqueIndex('concepts_code_key').on(t.studyId, t.conceptCode),
  ],
);

/**
 * A rated product of a study: a fragrance or a concept. Answers point here so that one narrow answers
 * table serves both kinds.
 */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['fragrance', 'concept'] }).notNull(),
    code: text('code').notNull(),
    fragranceId: integer('fragrance_id').references(() => fragrances.id, { onDelete: 'cascade' }),
    conceptId: integer('concept_id').references(() => concepts.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('products_code_key').on(t.studyId, t.kind, t.code)],
);

export const studyEditHistory = pgTable(
  'study_edit_history',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    type: text('type', { enum: ['study', 'fragrances', 'concepts'] }).notNull(),
    changeDate: timestamp('change_date', { withTimezone: true }).notNull().defaultNow(),
    /** [{ field, old_value, new_value }] */
    changes: jsonb('changes').notNull(),
  },
  (t) => [index('study_edit_history_study_idx').on(t.studyId, t.changeDate)],
);

// ---------------------------------------------------------------- files

export const studyFiles = pgTable(
  'study_files',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    fileType: text('file_type', {
      enum: ['report', 'questionnaire', 'protocol', 'RDF', 'screener'],
    }).notNull(),
    /** Folder of the study group the file lives in (report, questionnaire, protocol, results, screener). */
    folder: text('folder').notNull(),
    name: text('name').notNull(),
    extension: text('extension').notNull(),
    currentVersionId: integer('current_version_id'),
    createdAt: createdAt(),
  },
  (t) => [index('study_files_study_idx').on(t.studyId), index('study_files_type_idx').on(t.fileType)],
);

export const studyFileVersions = pgTable(
  'study_file_versions',
  {
    id: serial('id').primaryKey(),
    fileId: integer('file_id')
      .notNull()
      .references(() => studyFiles.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Key of the bytes in file storage. */
    storageKey: text('storage_key').notNull(),
    size: integer('size').notNull(),
    status: text('status', { enum: ['success', 'failed'] })
      .notNull()
      .default('success'),
    /** [{ id, high_msg, msg, level, event, error_file }] */
    errors: jsonb('errors')
      .notNull()
      .default(sql`'[]'::jsonb`),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('study_file_versions_file_idx').on(t.fileId)],
);

// ---------------------------------------------------------------- questions, metrics, answers

/** Catalogue of metrics questions map to (liking, strength, purchase_intention, attributes, EEG ...). */
export const metrics = pgTable('metrics', {
  id: smallint('id').primaryKey(),
  name: text('name').notNull().unique(),
  label: text('label').notNull(),
  /** Performance, Attribute, EEG or Implicit. */
  metricType: text('metric_type', { enum: ['Performance', 'Attribute', 'EEG', 'Implicit'] }).notNull(),
  /** How answers are read: hedonic scale, JAR (strength), binary (CATA), EEG score, implicit yes/no. */
  kind: text('kind', { enum: ['hedonic', 'jar', 'binary', 'eeg', 'implicit'] }).notNull(),
  chartOrder: integer('chart_order').notNull().default(1),
  required: boolean('required').notNull().default(false),
});

export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** Results file the question comes from. */
    filename: text('filename').notNull(),
    path: text('path').notNull(),
    resultsFileId: integer('results_file_id').references(() => studyFiles.id, { onDelete: 'set null' }),
    qid: text('qid').notNull(),
    text: text('text').notNull(),
    questionType: text('question_type', {
      enum: ['numerical', 'categorical', 'constant', 'binary', 'jar', 'eeg', 'implicit'],
    }).notNull(),
    scaleMin: doublePrecision('scale_min'),
    scaleMax: doublePrecision('scale_max'),
    /** Answer labels: [{ name, value }]. */
    labels: jsonb('labels')
      .notNull()
      .default(sql`'[]'::jsonb`),
    constantValue: text('constant_value'),
    metricId: smallint('metric_id').references(() => metrics.id),
    suggestedMetricId: smallint('suggested_metric_id').references(() => metrics.id),
    metricValidated: boolean('metric_validated').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    /** Full-text search over the question text (CICS): its English words, kept up to date by PostgreSQL. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('english', "text")`),
  },
  (t) => [
    index('questions_study_idx').on(t.studyId),
    index('questions_metric_idx').on(t.metricId),
    uniqueIndex('questions_qid_key').on(t.studyId, t.filename, t.qid),
    // CICS question search: full text (English) and trigram near spellings (pg_trgm).
    index('questions_search_vector_idx').using('gin', t.searchVector),
    index('questions_text_trgm_idx').using('gin', sql`${t.text} gin_trgm_ops`),
  ],
);

export const respondents = pgTable(
  'respondents',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    respondentCode: text('respondent_code').notNull(),
    gender: text('gender'),
    age: smallint('age'),
    ethnicity: text('ethnicity'),
    socialClass: text('social_class'),
    country: text('country'),
    /** Business-unit membership (the spec's bumo demographic). */
    bumo: text('bumo'),
    /**
     * The day of the respondent's test session (results column test_date, ISO yyyy-mm-dd); the
     * profile's time series averages the EEG scores per test date. Empty when the study did not say.
     */
    testDate: date('test_date', { mode: 'string' }),
  },
  (t) => [index('respondents_study_idx').on(t.studyId), index('respondents_demo_idx').on(t.gender, t.age)],
);

/**
 * One answer of one respondent to one question about one product: the raw value on the question's
 * scale and its harmonised value on the common 5-point scale (METRICS.md section 1). EEG answers keep
 * the continuous score in both. metric_id copies the question's mapping so analytics need no join.
 */
export const answers = pgTable(
  'answers',
  {
    studyId: integer('study_id').notNull(),
    respondentId: integer('respondent_id').notNull(),
    productId: integer('product_id').notNull(),
    questionId: integer('question_id').notNull(),
    metricId: smallint('metric_id'),
    // Double precision: a harmonised 7-point answer (1 + 4 * 5/6) or a mean over answers must
    // reproduce to 1e-9 (METRICS.md section 4, storage).
    rawValue: doublePrecision('raw_value').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.productId, t.respondentId] }),
    index('answers_metric_product_idx').on(t.metricId, t.productId, t.respondentId, t.questionId, t.value),
  ],
);

/** Precomputed sufficient statistics per product and metric for unfiltered analytics. */
export const productMetricStats = pgTable(
  'product_metric_stats',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    metricId: smallint('metric_id')
      .notNull()
      .references(() => metrics.id),
    n: integer('n').notNull(),
    sum: doublePrecision('sum').notNull(),
    sumSq: doublePrecision('sum_sq').notNull(),
    nTopBox: integer('n_top_box').notNull(),
    nTop2Box: integer('n_top_2_box').notNull(),
    nJustRight: integer('n_just_right').notNull(),
    nBottom2Box: integer('n_bottom_2_box').notNull(),
    nBottomBox: integer('n_bottom_box').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.metricId] }),
    index('product_metric_stats_metric_idx').on(t.metricId),
  ],
);

/**
 * Sufficient statistics per product, metric and respondent gender and age (single years), split by
 * whether the answers are inside the 5-point scale: a demographic filter on gender and an age range
 * sums these rows instead of reading the answers. Kept in step with the answers wherever they change
 * (seed, mapping edits; deleted products cascade). Box counts are counted for every metric.
 */
export const productMetricDemoStats = pgTable(
  'product_metric_demo_stats',
  {
    // No foreign key: the rows follow the answers (migration 0005's triggers), and checking the
    // product of every row cost an upload more than storing the rows.
    productId: integer('product_id').notNull(),
    metricId: smallint('metric_id').notNull(),
    gender: text('gender'),
    age: smallint('age'),
    inScale: boolean('in_scale').notNull(),
    n: integer('n').notNull(),
    sum: doublePrecision('sum').notNull(),
    sumSq: doublePrecision('sum_sq').notNull(),
    nTopBox: integer('n_top_box').notNull(),
    nTop2Box: integer('n_top_2_box').notNull(),
    nJustRight: integer('n_just_right').notNull(),
    nBottom2Box: integer('n_bottom_2_box').notNull(),
    nBottomBox: integer('n_bottom_box').notNull(),
  },
  (t) => [
    index('product_metric_demo_stats_product_idx').on(t.productId, t.metricId),
    // Every column: a filter on a metric is answered by an index-only scan.
    index('product_metric_demo_stats_metric_idx').on(
      t.metricId,
      t.gender,
      t.age,
      t.productId,
      t.inScale,
      t.n,
      t.sum,
      t.sumSq,
      t.nTopBox,
      t.nTop2Box,
      t.nJustRight,
      t.nBottom2Box,
      t.nBottomBox,
    ),
  ],
);

// ---------------------------------------------------------------- uploads and statistics runs

/** A studies zip going through UPLOADED -> UNPACKED -> VALIDATED -> INJECTED -> SUCCEED (or ERRORED). */
export const fileProcesses = pgTable(
  'file_processes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client').notNull(),
    studyType: text('study_type').notNull(),
    region: text('region').notNull(),
    year: integer('year').notNull(),
    cmi: text('cmi'),
    filename: text('filename').notNull(),
    storageKey: text('storage_key').notNull(),
    status: text('status', {
      enum: ['UPLOADED', 'UNPACKED', 'VALIDATED', 'INJECTED', 'ERRORED', 'SUCCEED'],
    })
      .notNull()
      .default('UPLOADED'),
    hasUploadedNewFile: boolean('has_uploaded_new_file').notNull().default(false),
    /** Nodes { type, name, file_path, children, errors }. */
    fileTree: jsonb('file_tree')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The task (job_results id) that last ran the pipeline of this upload. */
    taskId: text('task_id'),
    /** Why the process ended ERRORED, for the user (null otherwise). */
    message: text('message'),
    /** Studies created by the injection. */
    studyIds: integer('study_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('file_processes_created_idx').on(t.createdAt)],
);

/** A statistics generator run: its working folder, wizard form and results. */
export const statisticsRuns = pgTable('statistics_runs', {
  id: serial('id').primaryKey(),
  folderName: text('folder_name').notNull().unique(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  studyId: integer('study_id').references(() => studies.id, { onDelete: 'set null' }),
  studyName: text('study_name'),
  form: jsonb('form')
    .notNull()
    .default(sql`'{}'::jsonb`),
  result: jsonb('result'),
  createdAt: createdAt(),
});

/**
 * Outcome of a background job as the spec's polling protocol reads it (SUCCESS, FAILURE, REVOKED,
 * progress). pg-boss keeps the queue itself in its own schema; this table keeps results for the
 * owner to fetch, so they outlive pg-boss's archive. The result is JSON text as written (migration
 * 0011): an analytics answer of megabytes is written once and read back whole, so neither jsonb's
 * conversion nor json's check is worth its cost; PostgreSQL compresses it with lz4 where the server
 * offers it (a fast compression writing a fifth of the bytes), else it is stored uncompressed.
 * Finished analytics and comparison rows are removed after a day (their answers are recomputed on
 * demand). An analytics row keeps its request too (migration 0013).
 */
export const jobResults = pgTable(
  'job_results',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['PENDING', 'STARTED', 'SUCCESS', 'FAILURE', 'REVOKED'] })
      .notNull()
      .default('PENDING'),
    progress: integer('progress').notNull().default(0),
    result: jsonText('result'),
    error: text('error'),
    /**
     * The request the job answers, as JSON text (analytics jobs): its downloads state the search's
     * filters in words, and a download naming a significance job checks it covers the same search.
     */
    request: text('request'),
    /** A metric search's selected rows (product ids), kept with the job so every server process shares it. */
    selection: integer('selection').array(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_results_user_idx').on(t.userId)],
);

/**
 * One counter per library table that caches depend on (studies, fragrances, concepts, products,
 * questions, field definitions and options), raised once by every transaction that inserts,
 * updates, deletes or truncates rows of that table, at its commit (triggers of migration 0008).
 * Reading the counters tells a cache whether the data changed since an answer was computed, in one
 * indexed read instead of a scan of the tables; a rolled-back write rolls its raise back with it.
 */
export const dataVersions = pgTable('data_versions', {
  tableName: text('table_name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
