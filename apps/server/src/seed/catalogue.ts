/**
 * Reference catalogues every Accord database holds whatever its library: the four roles, the metrics
 * questions map to, and the filter/tag field definitions with their option lists. Pure data.
 */
import {
  BUSINESS_UNITS,
  CATEGORIES,
  CLIENTS,
  CMI_TOOL_TYPES,
  CONCEPT_INGREDIENTS,
  CONCEPT_THEMES,
  DESIGN_METHODS,
  EEG_METHODOLOGY,
  ETHNICITIES,
  EVALUATIONS,
  FAMILIES,
  FRAGRANCE_HOUSES,
  GENDERS,
  IRT_METHODOLOGY,
  METHODOLOGIES,
  PANEL_PROFILES,
  REGION_OPTIONS,
  REGIONS,
  RESEARCH_TYPES,
  SOCIAL_CLASSES,
  STUDY_AGE_RANGES,
  allBrands,
} from './vocabulary.ts';

export const ROLES = [
  { id: 1, slug: 'admin', name: 'Admin' },
  { id: 2, slug: 'researcher', name: 'Researcher' },
  { id: 3, slug: 'client', name: 'Client' },
  { id: 4, slug: 'sales', name: 'Sales' },
] as const;

export type MetricKind = 'hedonic' | 'jar' | 'binary' | 'eeg' | 'implicit';
export type MetricType = 'Performance' | 'Attribute' | 'EEG' | 'Implicit';

export interface MetricDefinition {
  id: number;
  name: string;
  label: string;
  metricType: MetricType;
  kind: MetricKind;
  chartOrder: number;
  required: boolean;
  /** Attribute whose family affinity drives the answers (attributes and implicit metrics). */
  attribute?: string;
  /** Wording used in generated question texts. */
  phrase?: string;
}

const attribute = (
  id: number,
  name: string,
  label: string,
  kind: 'hedonic' | 'binary',
  phrase: string,
): MetricDefinition => ({
  id,
  name,
  label,
  metricType: 'Attribute',
  kind,
  chartOrder: id,
  required: false,
  attribute: name,
  phrase,
});

const eeg = (id: number, name: string, label: string): MetricDefinition => ({
  id,
  name,
  label,
  metricType: 'EEG',
  kind: 'eeg',
  chartOrder: id,
  required: false,
});

const implicit = (id: number, attributeName: string, label: string): MetricDefinition => ({
  id,
  name: `irt_${attributeName}`,
  label: `${label} (implicit)`,
  metricType: 'Implicit',
  kind: 'implicit',
  chartOrder: id,
  required: false,
  attribute: attributeName,
  phrase: label.toLowerCase(),
});

/**
 * The metrics catalogue. Ids are fixed so every database, test and saved search agrees on them.
 * Hedonic attributes are agreement scales; binary ones are check-all-that-apply (CATA) words.
 */
export const METRICS: readonly MetricDefinition[] = [
  {
    id: 1,
    name: 'liking',
    label: 'Overall Liking',
    metricType: 'Performance',
    kind: 'hedonic',
    chartOrder: 1,
    required: true,
  },
  {
    id: 2,
    name: 'purchase_intention',
    label: 'Purchase Intention',
    metricType: 'Performance',
    kind: 'hedonic',
    chartOrder: 2,
    required: true,
  },
  {
    id: 3,
    name: 'strength',
    label: 'Strength',
    metricType: 'Performance',
    kind: 'jar',
    chartOrder: 3,
    required: false,
  },
  attribute(10, 'clean', 'Clean', 'hedonic', 'smells clean'),
  attribute(11, 'fresh', 'Fresh', 'hedonic', 'smells fresh'),
  attribute(12, 'relaxing', 'Relaxing', 'hedonic', 'is relaxing'),
  attribute(13, 'good_for_every_day_use', 'Good for every day use', 'hedonic', 'is good for every day use'),
  attribute(14, 'long_lasting', 'Long lasting', 'hedonic', 'is long lasting'),
  attribute(15, 'natural', 'Natural', 'hedonic', 'smells natural'),
  attribute(16, 'premium', 'Premium', 'hedonic', 'smells premium'),
  attribute(17, 'comforting', 'Comforting', 'hedonic', 'is comforting'),
  attribute(20, 'feminine', 'Feminine', 'binary', 'Feminine'),
  attribute(21, 'masculine', 'Masculine', 'binary', 'Masculine'),
  attribute(22, 'energizing', 'Energizing', 'binary', 'Energizing'),
  attribute(23, 'sensual', 'Sensual', 'binary', 'Sensual'),
  attribute(24, 'modern', 'Modern', 'binary', 'Modern'),
  attribute(25, 'unique', 'Unique', 'binary', 'Unique'),
  attribute(26, 'soft', 'Soft', 'binary', 'Soft'),
  attribute(27, 'youthful', 'Youthful', 'binary', 'Youthful'),
  eeg(40, 'hfd_hedonic', 'HFD Hedonic'),
  eeg(41, 'addiction', 'Addiction'),
  eeg(42, 'cogproc', 'Cognitive Processing'),
  eeg(43, 'attention', 'Attention'),
  eeg(44, 'relaxation', 'Relaxation'),
  eeg(45, 'energizing_eeg', 'Energizing (EEG)'),
  implicit(60, 'clean', 'Clean'),
  implicit(61, 'fresh', 'Fresh'),
  implicit(62, 'relaxing', 'Relaxing'),
  implicit(63, 'feminine', 'Feminine'),
  implicit(64, 'energizing', 'Energizing'),
  implicit(65, 'natural', 'Natural'),
  implicit(66, 'premium', 'Premium'),
  implicit(67, 'comforting', 'Comforting'),
];

export function metricByName(name: string): MetricDefinition {
  const metric = METRICS.find((m) => m.name === name);
  if (!metric) throw new Error(`Unknown metric ${name}`);
  return metric;
}

// ---------------------------------------------------------------- field definitions

export type FieldGroup = 'metadata' | 'fragrance' | 'concept' | 'demographics';
export type FieldType = 'categorical' | 'string' | 'int' | 'boolean' | 'range' | 'date';

export interface FieldOptionDefinition {
  value: string;
  label?: string;
  parentValue?: string;
}

export interface FieldDefinition {
  field: string;
  fieldGroup: FieldGroup;
  label: string;
  type: FieldType;
  multivalue?: boolean;
  editable?: boolean;
  tagGroup?: 'geography' | 'categorization' | 'methodology';
  options?: FieldOptionDefinition[];
}

const plain = (values: readonly string[]): FieldOptionDefinition[] => values.map((value) => ({ value }));
const weightedValues = (values: readonly (readonly [string, number])[]): string[] =>
  values.map(([value]) => value);

function regionOptions(): FieldOptionDefinition[] {
  return REGION_OPTIONS.map((region) => ({ value: region.name, parentValue: region.parent }));
}

function countryOptions(): FieldOptionDefinition[] {
  return REGIONS.flatMap((region) =>
    region.countries.map(([country]) => ({ value: country, parentValue: region.name })),
  ).sort((a, b) => a.value.localeCompare(b.value));
}

function perfumerOptions(): FieldOptionDefinition[] {
  return FRAGRANCE_HOUSES.flatMap((house) =>
    house.perfumers.map((p) => ({ value: p.name, parentValue: house.name })),
  );
}

/**
 * Every filter and tag field of the study side (spec 02 section 3) and the demographics of the
 * analytics side (spec 03 section 3.1), with option lists where the values are a closed set.
 */
export const FIELD_DEFINITIONS: readonly FieldDefinition[] = [
  // study metadata
  { field: 'project_name', fieldGroup: 'metadata', label: 'Project Name', type: 'string' },
  {
    field: 'client',
    fieldGroup: 'metadata',
    label: 'Client',
    type: 'categorical',
    options: plain(CLIENTS.map((c) => c.name)),
  },
  { field: 'c_mi_number', fieldGroup: 'metadata', label: 'CMI #', type: 'string', editable: false },
  { field: 'pace_number', fieldGroup: 'metadata', label: 'CX/Pace #', type: 'string' },
  {
    field: 'product_area',
    fieldGroup: 'metadata',
    label: 'Business Unit',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'categorization',
    options: plain(BUSINESS_UNITS),
  },
  {
    field: 'division',
    fieldGroup: 'metadata',
    label: 'Division',
    type: 'categorical',
    tagGroup: 'categorization',
    options: [...new Map(CATEGORIES.map((c) => [c.division, c.businessUnit])).entries()].map(
      ([value, parent]) => ({
        value,
        parentValue: parent,
      }),
    ),
  },
  {
    field: 'category',
    fieldGroup: 'metadata',
    label: 'Category',
    type: 'categorical',
    tagGroup: 'categorization',
    options: CATEGORIES.map((c) => ({ value: c.name, parentValue: c.division })),
  },
  {
    field: 'product_type',
    fieldGroup: 'metadata',
    label: 'Product',
    type: 'categorical',
    tagGroup: 'categorization',
    options: CATEGORIES.flatMap((c) => c.productTypes.map((value) => ({ value, parentValue: c.name }))),
  },
  {
    field: 'region',
    fieldGroup: 'metadata',
    label: 'Region',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'geography',
    options: regionOptions(),
  },
  {
    field: 'country',
    fieldGroup: 'metadata',
    label: 'Country',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'geography',
    options: countryOptions(),
  },
  {
    field: 'lead_country',
    fieldGroup: 'metadata',
    label: 'Lead Country',
    type: 'categorical',
    tagGroup: 'geography',
    options: countryOptions(),
  },
  {
    field: 'research_type',
    fieldGroup: 'metadata',
    label: 'Research Type',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'methodology',
    options: plain(RESEARCH_TYPES),
  },
  {
    field: 'cmi_tool_type',
    fieldGroup: 'metadata',
    label: 'CMI Tool Type',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'methodology',
    options: plain(CMI_TOOL_TYPES),
  },
  {
    field: 'design_method',
    fieldGroup: 'metadata',
    label: 'Design Method',
    type: 'categorical',
    tagGroup: 'methodology',
    options: plain(weightedValues(DESIGN_METHODS)),
  },
  {
    field: 'methodology',
    fieldGroup: 'metadata',
    label: 'Methodology',
    type: 'categorical',
    tagGroup: 'methodology',
    options: plain([...weightedValues(METHODOLOGIES), EEG_METHODOLOGY, IRT_METHODOLOGY]),
  },
  {
    field: 'panel_profile',
    fieldGroup: 'metadata',
    label: 'Panel Profile',
    type: 'string',
    tagGroup: 'methodology',
    options: plain(PANEL_PROFILES),
  },
  {
    field: 'evaluation',
    fieldGroup: 'metadata',
    label: 'Evaluation',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'methodology',
    options: plain(EVALUATIONS),
  },
  {
    field: 'gender',
    fieldGroup: 'metadata',
    label: 'Gender',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'methodology',
    options: plain(GENDERS),
  },
  {
    field: 'social_class',
    fieldGroup: 'metadata',
    label: 'Social Class',
    type: 'categorical',
    multivalue: true,
    tagGroup: 'methodology',
    options: plain(weightedValues(SOCIAL_CLASSES)),
  },
  {
    field: 'age',
    fieldGroup: 'metadata',
    label: 'Age',
    type: 'string',
    tagGroup: 'methodology',
    options: plain(weightedValues(STUDY_AGE_RANGES)),
  },
  {
    field: 'study_sample_size',
    fieldGroup: 'metadata',
    label: 'Study Sample Size',
    type: 'int',
    tagGroup: 'methodology',
  },
  {
    field: 'number_of_products',
    fieldGroup: 'metadata',
    label: 'Number of Products',
    type: 'int',
    editable: false,
  },
  { field: 'base', fieldGroup: 'metadata', label: 'Base', type: 'string', tagGroup: 'methodology' },
  {
    field: 'objective_and_action_standards',
    fieldGroup: 'metadata',
    label: 'Objective and Action Standards',
    type: 'string',
    tagGroup: 'methodology',
  },
  { field: 'year', fieldGroup: 'metadata', label: 'Year', type: 'range' },
  {
    field: 'rdf_type',
    fieldGroup: 'metadata',
    label: 'Results Type',
    type: 'categorical',
    editable: false,
    options: [
      { value: 'rdf', label: 'Traditional' },
      { value: 'eeg', label: 'EEG' },
      { value: 'irt', label: 'IRT' },
    ],
  },
  {
    field: 'verified',
    fieldGroup: 'metadata',
    label: 'Verified',
    type: 'boolean',
    options: [
      { value: 'true', label: 'Verified' },
      { value: 'false', label: 'Not verified' },
    ],
  },
  // fragrance
  { field: 'name', fieldGroup: 'fragrance', label: 'Fragrance Name', type: 'string' },
  { field: 'ref_number', fieldGroup: 'fragrance', label: 'Developer #', type: 'string' },
  { field: 'code', fieldGroup: 'fragrance', label: '6 Digit Code (SAP)', type: 'string' },
  {
    field: 'perfumer_name',
    fieldGroup: 'fragrance',
    label: 'Perfumer Name',
    type: 'categorical',
    options: perfumerOptions(),
  },
  {
    field: 'region',
    fieldGroup: 'fragrance',
    label: 'Region',
    type: 'categorical',
    options: regionOptions(),
  },
  {
    field: 'country',
    fieldGroup: 'fragrance',
    label: 'Country',
    type: 'categorical',
    options: countryOptions(),
  },
  {
    field: 'family',
    fieldGroup: 'fragrance',
    label: 'Family',
    type: 'categorical',
    options: plain(FAMILIES.map((f) => f.name)),
  },
  {
    field: 'subfamily',
    fieldGroup: 'fragrance',
    label: 'Subfamily',
    type: 'categorical',
    options: FAMILIES.flatMap((f) => f.subfamilies.map((value) => ({ value, parentValue: f.name }))),
  },
  {
    field: 'specifier',
    fieldGroup: 'fragrance',
    label: 'Specifier',
    type: 'categorical',
    options: plain(FRAGRANCE_HOUSES.map((h) => h.name)),
  },
  {
    field: 'methodology',
    fieldGroup: 'fragrance',
    label: 'Methodology',
    type: 'categorical',
    options: plain([...weightedValues(METHODOLOGIES), EEG_METHODOLOGY, IRT_METHODOLOGY]),
  },
  {
    field: 'bench_create',
    fieldGroup: 'fragrance',
    label: 'Benchmark / Creative',
    type: 'boolean',
    options: [
      { value: 'creative', label: 'Creative' },
      { value: 'benchmark', label: 'Benchmark' },
    ],
  },
  { field: 'level', fieldGroup: 'fragrance', label: 'Level (%)', type: 'string' },
  // concept
  { field: 'name', fieldGroup: 'concept', label: 'Concept Name', type: 'string' },
  {
    field: 'theme',
    fieldGroup: 'concept',
    label: 'Theme',
    type: 'categorical',
    options: plain(Object.keys(CONCEPT_THEMES)),
  },
  {
    field: 'ingredient_1',
    fieldGroup: 'concept',
    label: 'Ingredient 1',
    type: 'categorical',
    options: plain(CONCEPT_INGREDIENTS),
  },
  {
    field: 'ingredient_2',
    fieldGroup: 'concept',
    label: 'Ingredient 2',
    type: 'categorical',
    options: plain(CONCEPT_INGREDIENTS),
  },
  { field: 'region', fieldGroup: 'concept', label: 'Region', type: 'categorical', options: regionOptions() },
  {
    field: 'country',
    fieldGroup: 'concept',
    label: 'Country',
    type: 'categorical',
    options: countryOptions(),
  },
  // respondent demographics
  {
    field: 'gender',
    fieldGroup: 'demographics',
    label: 'Gender',
    type: 'categorical',
    options: plain(GENDERS),
  },
  {
    field: 'ethnicity',
    fieldGroup: 'demographics',
    label: 'Ethnicity',
    type: 'categorical',
    options: plain(ETHNICITIES),
  },
  {
    field: 'social_class',
    fieldGroup: 'demographics',
    label: 'Social Class',
    type: 'categorical',
    options: plain(weightedValues(SOCIAL_CLASSES)),
  },
  { field: 'age', fieldGroup: 'demographics', label: 'Age', type: 'range' },
  {
    field: 'bumo',
    fieldGroup: 'demographics',
    label: 'Brand Used Most Often',
    type: 'categorical',
    options: plain(allBrands()),
  },
];
