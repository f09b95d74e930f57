/**
 * The study search (document 2 sections 3 and 7, "Smart search and exports"): the filter model the
 * search screen sends, the answers of every /smartsearch call, and the bulk tag edit.
 *
 * Filter semantics, the same on every call:
 * - AND across fields, OR within a multi-select (a study matches when it carries any chosen value).
 * - Multi-value study fields (business unit, region, country, research type, CMI tool type) match by
 *   overlap: a study tagged ['Europe', 'North Asia'] matches a region filter ['North Asia'].
 * - Free-text fields (project name, CMI #, CX/Pace #, fragrance name, perfumer, SAP code, concept
 *   name) match case-insensitively by prefix; objective and action standards by substring.
 * - 'APAC' in any region filter stands for its three sub-regions (APAC_SUBREGIONS).
 * - Fragrance details must all hold on one and the same fragrance of the study; concept details on
 *   one and the same concept. The fragrance and concept tabs list exactly those rows.
 * - An empty text, an empty or missing list and a null value mean "no filter".
 * - Demographics and metrics belong to the analytics screens; the study search accepts and ignores them.
 * Unknown keys are refused with 400, so a misspelt filter never silently widens a search.
 */
import { z } from 'zod';
import { TEXT_LIMITS } from './constants.ts';
import { FieldDefinition } from './fields.ts';
import { FRAGRANCE_TABLE_FIELDS } from './study.ts';
import { numeric } from './common.ts';

const TEXT_MAX = TEXT_LIMITS.filterText;
const VALUES_MAX = 500;

/** A free-text filter; empty or null means no filter. */
const FilterText = (description: string) => z.string().trim().max(TEXT_MAX).nullish().meta({ description });

/** A multi-select filter: the study (or row) matches when it carries any of the values. */
const FilterValues = (description: string) =>
  z
    .array(z.string().trim().min(1, 'Filter values must not be empty').max(TEXT_MAX))
    .max(VALUES_MAX)
    .nullish()
    .meta({ description });

const FilterYear = (description: string) =>
  z.number().int().min(1900).max(2100).nullish().meta({ description });

/** Essentials tab: who, what and where. */
export const EssentialsFilter = z
  .strictObject({
    projectName: FilterText('Project name (project_name); prefix, case-insensitive.'),
    paceNumber: FilterText('CX/Pace # (pace_number); prefix, case-insensitive.'),
    cmiNumber: FilterText('CMI # (c_mi_number); prefix, case-insensitive.'),
    client: FilterValues('Clients (client).'),
    businessUnit: FilterValues('Business units (product_area); overlap.'),
    category: FilterValues('Categories (category).'),
    product: FilterValues('Product types (product_type).'),
    region: FilterValues("Regions (region); overlap; 'APAC' means its three sub-regions."),
    country: FilterValues('Countries (country); overlap.'),
    startYear: FilterYear('First study year, inclusive.'),
    endYear: FilterYear('Last study year, inclusive.'),
    verified: z.boolean().default(true).meta({
      description:
        'true: verified studies only (the default); false: not-verified studies only (admins only).',
    }),
  })
  .refine((value) => value.startYear == null || value.endYear == null || value.startYear <= value.endYear, {
    message: 'startYear must not be after endYear',
    path: ['endYear'],
  });

/** Fragrance Details tab: conditions on one fragrance of the study. */
export const FragranceDetailsFilter = z.strictObject({
  fragranceName: FilterText('Fragrance name (name); prefix, case-insensitive.'),
  perfumerName: FilterText('Perfumer (perfumer_name); prefix, case-insensitive.'),
  sapNumber: FilterText('6 Digit Code (SAP) (code); prefix, case-insensitive.'),
  region: FilterValues("Fragrance regions (region); 'APAC' means its three sub-regions."),
  creative: z
    .boolean()
    .nullish()
    .meta({ description: 'true: creative submissions; false: benchmarks; null: both (bench_create).' }),
  family: FilterValues('Families (family).'),
  subfamily: FilterValues('Subfamilies (subfamily).'),
  specifier: FilterValues('Specifiers (specifier).'),
  country: FilterValues('Fragrance countries (country).'),
  methodology: FilterValues('Fragrance methodologies (methodology).'),
});

/** Concept Details tab (admins only): conditions on one concept of the study. */
export const ConceptDetailsFilter = z.strictObject({
  name: FilterText('Concept name (name); prefix, case-insensitive.'),
  theme: FilterValues('Themes (theme).'),
  region: FilterValues("Concept regions (region); 'APAC' means its three sub-regions."),
  ingredient1: FilterText('Ingredient 1 (ingredient_1); the whole value, case-insensitive.'),
  ingredient2: FilterText('Ingredient 2 (ingredient_2); the whole value, case-insensitive.'),
  country: FilterValues('Concept countries (country).'),
});

/** Methodology tab. */
export const MethodologyFilter = z.strictObject({
  panelProfile: FilterValues('Panel profiles (panel_profile).'),
  researchType: FilterValues('Research types (research_type); overlap.'),
  cmiTool: FilterValues('CMI tool types (cmi_tool_type); overlap.'),
  designMethod: FilterValues('Design methods (design_method).'),
  methodology: FilterValues('Methodologies (methodology).'),
  objectiveAndStandards: FilterText(
    'Objective and action standards (objective_and_action_standards); substring, case-insensitive.',
  ),
});

/** Respondent demographics (analytics); the study search ignores them. */
export const DemographicsFilter = z.strictObject({
  ethnicity: FilterValues('Ethnicities.'),
  gender: FilterValues('Genders.'),
  startAge: z.number().int().min(0).max(99).nullish(),
  endAge: z.number().int().min(0).max(99).nullish(),
  socialClass: FilterValues('Social classes.'),
});

/**
 * The filters of the study search screen, grouped by tab. Every group may be left out; `verified`
 * defaults to true.
 */
export const StudySearchQuery = z
  .strictObject({
    essentials: EssentialsFilter.prefault({}),
    fragranceDetails: FragranceDetailsFilter.prefault({}),
    conceptDetails: ConceptDetailsFilter.prefault({}).meta({
      description:
        'Admins only: a non-admin sending any concept filter value gets 403 (an empty group is fine).',
    }),
    methodology: MethodologyFilter.prefault({}),
    demographics: DemographicsFilter.optional().meta({
      description: 'Accepted and ignored by the study search.',
    }),
    metrics: z.record(z.string(), z.unknown()).optional().meta({
      description: 'Analytics metric filters (document 3); accepted and ignored by the study search.',
    }),
  })
  .meta({ id: 'StudySearchQuery' });
export type StudySearchQuery = z.input<typeof StudySearchQuery>;
export type ParsedStudySearchQuery = z.output<typeof StudySearchQuery>;

/** Tabs whose rows are files, and the file types each lists. RDF_report lists results and reports. */
export const SEARCH_FILE_TABS = {
  RDF: ['RDF'],
  report: ['report'],
  protocol: ['protocol'],
  screener: ['screener'],
  questionnaire: ['questionnaire'],
  RDF_report: ['RDF', 'report'],
} as const;
export const SearchFileTab = z.enum(['RDF', 'report', 'protocol', 'screener', 'questionnaire', 'RDF_report']);
export type SearchFileTab = z.infer<typeof SearchFileTab>;
export const SearchFileTabParam = z.object({ fileType: SearchFileTab });

/** File search details; the study search sends both blank. */
export const SearchFullQuery = z
  .strictObject({
    file_type: z
      .union([SearchFileTab, z.literal('')])
      .nullish()
      .meta({ description: 'Informative only: the path decides the file type.' }),
    search_phrase: z
      .string()
      .trim()
      .max(TEXT_MAX)
      .nullish()
      .meta({ description: 'Words that must all appear in the file name (case-insensitive).' }),
  })
  .meta({ id: 'SearchFullQuery' });

/** Body of the search calls: the filters and, for file tabs, the file search details. */
export const SearchRequest = z
  .strictObject({
    query: StudySearchQuery.prefault({}),
    full_query: SearchFullQuery.prefault({}),
  })
  .meta({ id: 'SearchRequest' });
export type SearchRequest = z.input<typeof SearchRequest>;

/**
 * Columns a result table may be sorted by (the row fields of the same name); each table offers those
 * of its rows: summaries c_mi_number to lead_country, fragrances c_mi_number to specifier, concepts
 * c_mi_number, project_name, client, name, concept_code, files c_mi_number to file_name.
 */
export const RESULT_SORT_KEYS = [
  'c_mi_number',
  'project_name',
  'client',
  'category',
  'product_type',
  'pace_number',
  'methodology',
  'design_method',
  'lead_country',
  'name',
  'ref_number',
  'code',
  'fragrance_code',
  'perfumer_name',
  'family',
  'subfamily',
  'specifier',
  'concept_code',
  'file_name',
] as const;
export type ResultSortKey = (typeof RESULT_SORT_KEYS)[number];

/** Page of a result table: query string ?page=&per_page=&sort=&order= (answers carry the pagination headers). */
export const SearchPageQuery = z.object({
  page: numeric(z.number().int().min(1)).default(1),
  per_page: numeric(z.number().int().min(1).max(100)).default(10),
  /** Column to sort by (a row field); without it, newest studies first. */
  sort: z.enum(RESULT_SORT_KEYS).optional(),
  /** Sort direction, ascending by default; empty values come last either way. */
  order: z.enum(['asc', 'desc']).default('asc'),
});

/** Count badges of the result tabs. */
export const SearchCounts = z
  .object({
    summaries: z.number().int(),
    fragrances: z.number().int(),
    concepts: z.number().int(),
    questionnaire: z.number().int(),
    screener: z.number().int(),
    protocol: z.number().int(),
    RDF_report: z.number().int().meta({ description: 'Results (RDF, when you may download) plus reports.' }),
  })
  .meta({ id: 'SearchCounts' });
export type SearchCounts = z.infer<typeof SearchCounts>;

/** GET /smartsearch/count: what the library holds for you, without filters. */
export const LibraryCounts = z
  .object({ studies: z.number().int(), fragrances: z.number().int(), concepts: z.number().int() })
  .meta({ id: 'LibraryCounts' });
export type LibraryCounts = z.infer<typeof LibraryCounts>;

/**
 * An option list that follows another field: only `values` fit the chosen parent values (product
 * types of the chosen categories, countries of the chosen regions). With no parent chosen, `values`
 * holds every option.
 */
export const OptionDependency = z
  .object({
    group: z.enum(['metadata', 'fragrance', 'concept']),
    field: z.string(),
    parent: z.string(),
    selected: z
      .array(z.string())
      .meta({ description: 'Parent values chosen in the filters (APAC expanded).' }),
    values: z.array(z.string()),
  })
  .meta({ id: 'OptionDependency' });
export type OptionDependency = z.infer<typeof OptionDependency>;

/**
 * Option lists with counts under the current filters: each field's counts apply every filter except
 * the field's own, so every listed choice stays possible. Concept fields are listed for admins only.
 */
export const DropdownOptionsResponse = z
  .object({
    data: z.object({
      fields: z.object({
        metadata: z.array(FieldDefinition),
        fragrance: z.array(FieldDefinition),
        concept: z.array(FieldDefinition),
      }),
      dependencies: z.array(OptionDependency),
    }),
  })
  .meta({ id: 'DropdownOptionsResponse' });
export type DropdownOptionsResponse = z.infer<typeof DropdownOptionsResponse>;

const nullableText = z.string().nullable();
const textList = z.array(z.string());

/** Study summary row (document 2 section 3); business_unit is the server's product_area. */
export const StudySummaryRow = z
  .object({
    id: z.number().int(),
    category: nullableText,
    product_type: nullableText,
    client: z.string(),
    c_mi_number: z.string(),
    project_name: z.string(),
    pace_number: nullableText,
    methodology: nullableText,
    design_method: nullableText,
    country: textList,
    region: textList,
    lead_country: nullableText,
    business_unit: textList,
    research_type: textList,
    cmi_tool_type: textList,
    evaluation: textList,
  })
  .meta({ id: 'StudySummaryRow' });
export type StudySummaryRow = z.infer<typeof StudySummaryRow>;

/** Fragrance row (document 2 section 3), with the study id for the links. */
export const FragranceRow = z
  .object({
    id: z.number().int(),
    study_id: z.number().int(),
    category: nullableText,
    product_type: nullableText,
    client: z.string(),
    c_mi_number: z.string(),
    project_name: z.string(),
    name: z.string(),
    ref_number: nullableText,
    code: nullableText,
    fragrance_code: z.string(),
    methodology: nullableText,
    perfumer_name: nullableText,
    region: nullableText,
    country: nullableText,
    family: nullableText,
    subfamily: nullableText,
    specifier: nullableText,
    level: z.number().nullable().meta({ description: 'Dosage level in percent.' }),
    supplemental_info: nullableText,
    dominant_note_1: nullableText,
    dominant_note_2: nullableText,
    dominant_note_3: nullableText,
    dominant_note_4: nullableText,
    dominant_note_5: nullableText,
  })
  .meta({ id: 'FragranceRow' });
export type FragranceRow = z.infer<typeof FragranceRow>;

/** Concept row with its study's identity. */
export const ConceptRow = z
  .object({
    id: z.number().int(),
    name: z.string(),
    concept_code: z.string(),
    region: nullableText,
    country: nullableText,
    study_id: z.number().int(),
    c_mi_number: z.string(),
    project_name: z.string(),
    client: z.string(),
  })
  .meta({ id: 'ConceptRow' });
export type ConceptRow = z.infer<typeof ConceptRow>;

/** Search file row; id is the file's id (GET /study/{study_id}/study-files/{id}). */
export const SearchFileRow = z
  .object({
    id: z.number().int(),
    study_id: z.number().int(),
    category: nullableText,
    product_type: nullableText,
    client: z.string(),
    c_mi_number: z.string(),
    project_name: z.string(),
    file_name: z.string(),
    file_type: z.enum(['report', 'questionnaire', 'protocol', 'RDF', 'screener']),
  })
  .meta({ id: 'SearchFileRow' });
export type SearchFileRow = z.infer<typeof SearchFileRow>;

/** Bulk edit of categorical tags on many studies at once (admins only). */
export const BulkEditRequest = z
  .strictObject({
    studies: z.array(z.number().int().positive()).min(1, 'Choose at least one study.').max(10_000),
    data: z
      .array(
        z.strictObject({
          key: z
            .string()
            .trim()
            .min(1, 'Every row needs a field.')
            .max(100)
            .meta({ description: 'Server field name, e.g. product_area.' }),
          value: z
            .array(z.string().trim().min(1, 'Values must not be empty').max(TEXT_MAX))
            .max(VALUES_MAX)
            .meta({
              description: 'The new values; they replace the old ones. Single-value fields take at most one.',
            }),
        }),
      )
      .min(1, 'Nothing to change: add at least one field.')
      .refine(
        (rows) => new Set(rows.map((row) => row.key)).size === rows.length,
        'Each field may appear only once.',
      ),
  })
  .meta({ id: 'BulkEditRequest' });
export type BulkEditRequest = z.input<typeof BulkEditRequest>;

export const BulkEditResponse = z
  .object({
    message: z.string(),
    updated: z
      .number()
      .int()
      .meta({ description: 'Studies whose tags changed (each got one history entry).' }),
  })
  .meta({ id: 'BulkEditResponse' });
export type BulkEditResponse = z.infer<typeof BulkEditResponse>;

/** Export columns of the study summaries spreadsheet, in order. */
export const STUDY_EXPORT_COLUMNS = [
  'id',
  'category',
  'product_type',
  'client',
  'c_mi_number',
  'project_name',
  'pace_number',
  'methodology',
  'design_method',
  'country',
  'region',
  'lead_country',
  'business_unit',
  'research_type',
  'cmi_tool_type',
  'evaluation',
] as const;
/** Export columns of the fragrances spreadsheet, in order. */
export const FRAGRANCE_EXPORT_COLUMNS = [
  'id',
  'category',
  'product_type',
  'client',
  'c_mi_number',
  'project_name',
  ...FRAGRANCE_TABLE_FIELDS,
] as const;
/** Export columns of the concepts spreadsheet (downloaded under the fragrances file name). */
export const CONCEPT_EXPORT_COLUMNS = [
  'id',
  'name',
  'concept_code',
  'region',
  'country',
  'c_mi_number',
  'project_name',
  'client',
] as const;

const ExportColumns = z
  .array(z.string().trim().min(1).max(100))
  .min(1)
  .max(100)
  .optional()
  .meta({ description: 'The visible columns, in order; every column of the table when left out.' });

export const StudyExportRequest = z
  .strictObject({ q: StudySearchQuery.prefault({}), columns: ExportColumns })
  .meta({ id: 'StudyExportRequest' });
export type StudyExportRequest = z.input<typeof StudyExportRequest>;

export const FragranceExportRequest = z
  .strictObject({
    q: StudySearchQuery.prefault({}),
    type: z
      .enum(['fragrance', 'concept'])
      .default('fragrance')
      .meta({ description: 'concept exports the Concepts tab.' }),
    columns: ExportColumns,
  })
  .meta({ id: 'FragranceExportRequest' });
export type FragranceExportRequest = z.input<typeof FragranceExportRequest>;

export const STUDY_EXPORT_FILE_NAME = 'search-studies-result.xlsx';
export const FRAGRANCE_EXPORT_FILE_NAME = 'search-fragrances-result.xlsx';
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
