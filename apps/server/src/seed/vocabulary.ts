/**
 * The world of the demo library: fictional clients and brands, the business-unit tree, geography,
 * fragrance families, perfumers and houses, concept themes, and how they relate (which families fit
 * which category, which attributes each family evokes). Pure data; the reference seed turns it into
 * filter options and the library generator draws from it.
 */

// ---------------------------------------------------------------- clients

export interface ClientProfile {
  name: string;
  brands: string[];
  /** Relative weight of each business unit in this client's studies. */
  businessUnits: Partial<Record<BusinessUnitName, number>>;
  /** Relative share of the library. */
  weight: number;
}

export type BusinessUnitName = 'Home Care' | 'Beauty & Personal Care' | 'Prestige';

export const CLIENTS: readonly ClientProfile[] = [
  {
    name: 'Northwind Consumer Goods',
    brands: ['Breezia', 'Calmwave', 'Northwind'],
    businessUnits: { 'Home Care': 5, 'Beauty & Personal Care': 4 },
    weight: 18,
  },
  {
    name: 'Halden & Crane',
    brands: ['Velura', 'Silkroot', 'Halden'],
    businessUnits: { 'Beauty & Personal Care': 8, Prestige: 2 },
    weight: 15,
  },
  {
    name: 'Brightwell Brands',
    brands: ['Clarion', 'Tidyhome', 'Brightwell'],
    businessUnits: { 'Home Care': 9, 'Beauty & Personal Care': 1 },
    weight: 13,
  },
  {
    name: 'Meridian Household',
    brands: ['Linnea', 'Dewpoint', 'Meridian'],
    businessUnits: { 'Home Care': 7, 'Beauty & Personal Care': 2 },
    weight: 12,
  },
  {
    name: 'Solace Beauty Group',
    brands: ['Maison Solace', 'Azure Noir', 'Solace Sport'],
    businessUnits: { Prestige: 6, 'Beauty & Personal Care': 4 },
    weight: 10,
  },
  {
    name: 'Verdant Living Co.',
    brands: ['Verda', 'Greenleaf', 'Pure Meadow'],
    businessUnits: { 'Beauty & Personal Care': 5, 'Home Care': 5 },
    weight: 11,
  },
  {
    name: 'Aurelia Cosmetics',
    brands: ['Aurelia', 'Gilded Petal', 'Aura Kids'],
    businessUnits: { 'Beauty & Personal Care': 6, Prestige: 4 },
    weight: 10,
  },
  {
    name: 'Tidewater Products',
    brands: ['Mariner', 'Seaspray', 'Tidewater'],
    businessUnits: { 'Home Care': 6, 'Beauty & Personal Care': 4 },
    weight: 11,
  },
];

/** Competitor brands respondents may name as the brand they use most often (BUMO). */
export const OTHER_BRANDS = ['Store brand', 'Other brand', 'No regular brand'];

// ---------------------------------------------------------------- business units to product types

export interface CategoryProfile {
  name: string;
  businessUnit: BusinessUnitName;
  division: string;
  productTypes: string[];
  /** Evaluation stages tested in this category. */
  evaluations: string[];
  /** Fragrance dosage in percent, [min, max]. */
  dosage: [number, number];
  /** Gender the studies usually target: share of female-only and male-only studies. */
  femaleOnly: number;
  maleOnly: number;
  weight: number;
}

export const CATEGORIES: readonly CategoryProfile[] = [
  {
    name: 'Fabric Care',
    businessUnit: 'Home Care',
    division: 'Laundry',
    productTypes: [
      'Liquid Detergent',
      'Powder Detergent',
      'Fabric Conditioner',
      'Laundry Capsules',
      'Scent Booster',
    ],
    evaluations: ['Neat', 'Wet Stage', 'Dry Stage', 'Long Lasting'],
    dosage: [0.3, 1.2],
    femaleOnly: 0.35,
    maleOnly: 0,
    weight: 16,
  },
  {
    name: 'Home Care',
    businessUnit: 'Home Care',
    division: 'Household Care',
    productTypes: ['Dishwash Liquid', 'All-Purpose Cleaner', 'Floor Cleaner', 'Toilet Cleaner'],
    evaluations: ['Neat', 'Bloom', 'In Use'],
    dosage: [0.2, 0.8],
    femaleOnly: 0.25,
    maleOnly: 0,
    weight: 10,
  },
  {
    name: 'Air Care',
    businessUnit: 'Home Care',
    division: 'Household Care',
    productTypes: ['Aerosol Air Freshener', 'Plug-in Diffuser', 'Scented Candle', 'Reed Diffuser'],
    evaluations: ['Neat', 'In Room', 'Long Lasting'],
    dosage: [2, 10],
    femaleOnly: 0.2,
    maleOnly: 0,
    weight: 7,
  },
  {
    name: 'Personal Wash',
    businessUnit: 'Beauty & Personal Care',
    division: 'Skin Cleansing',
    productTypes: ['Bar Soap', 'Shower Gel', 'Liquid Hand Wash', 'Bath Foam'],
    evaluations: ['Neat', 'Bloom', 'On Skin'],
    dosage: [0.8, 1.8],
    femaleOnly: 0.3,
    maleOnly: 0.08,
    weight: 15,
  },
  {
    name: 'Hair Care',
    businessUnit: 'Beauty & Personal Care',
    division: 'Hair',
    productTypes: ['Shampoo', 'Conditioner', 'Hair Mask', 'Dry Shampoo'],
    evaluations: ['Neat', 'Wet Stage', 'On Hair', 'Long Lasting'],
    dosage: [0.5, 1.2],
    femaleOnly: 0.55,
    maleOnly: 0.05,
    weight: 13,
  },
  {
    name: 'Deodorants',
    businessUnit: 'Beauty & Personal Care',
    division: 'Deodorants',
    productTypes: ['Aerosol Deodorant', 'Roll-on', 'Stick', 'Body Spray'],
    evaluations: ['Neat', 'On Skin', 'Long Lasting'],
    dosage: [0.8, 2.5],
    femaleOnly: 0.35,
    maleOnly: 0.35,
    weight: 13,
  },
  {
    name: 'Skin Care',
    businessUnit: 'Beauty & Personal Care',
    division: 'Skin Care',
    productTypes: ['Body Lotion', 'Hand Cream', 'Face Moisturiser'],
    evaluations: ['Neat', 'On Skin'],
    dosage: [0.1, 0.5],
    femaleOnly: 0.6,
    maleOnly: 0.05,
    weight: 8,
  },
  {
    name: 'Fine Fragrance',
    businessUnit: 'Prestige',
    division: 'Fine Fragrance',
    productTypes: ['Eau de Parfum', 'Eau de Toilette', 'Body Mist', 'Cologne'],
    evaluations: ['Blotter', 'On Skin', 'Long Lasting'],
    dosage: [8, 20],
    femaleOnly: 0.45,
    maleOnly: 0.3,
    weight: 10,
  },
];

export const BUSINESS_UNITS: readonly BusinessUnitName[] = [
  'Home Care',
  'Beauty & Personal Care',
  'Prestige',
];

// ---------------------------------------------------------------- geography

export interface RegionProfile {
  name: string;
  /** Parent region (APAC for its sub-regions). */
  parent?: string;
  /** Countries with their relative weight as a study market. */
  countries: [string, number][];
  /** Respondent ethnicity mix. */
  ethnicities: [string, number][];
  /**
   * Scale-use habit of the region's respondents on the latent scale (some markets rate everything
   * higher), which is why the product warns against comparing scores across markets.
   */
  scaleUseBias: number;
  /** Weights of the liking scale used by local agencies: 9-point, 7-point, 5-point, 0-10. */
  hedonicScales: [number, number, number, number];
  weight: number;
}

export const REGIONS: readonly RegionProfile[] = [
  {
    name: 'North America',
    countries: [
      ['United States', 8],
      ['Canada', 2],
    ],
    ethnicities: [
      ['White', 60],
      ['Hispanic/Latino', 17],
      ['Black', 13],
      ['Asian', 7],
      ['Mixed', 3],
    ],
    scaleUseBias: 0.1,
    hedonicScales: [8, 1, 1, 0],
    weight: 20,
  },
  {
    name: 'Latin America',
    countries: [
      ['Brazil', 5],
      ['Mexico', 4],
      ['Argentina', 2],
      ['Colombia', 2],
      ['Chile', 1],
    ],
    ethnicities: [
      ['Mixed', 45],
      ['White', 38],
      ['Black', 12],
      ['Indigenous', 5],
    ],
    scaleUseBias: 0.35,
    hedonicScales: [3, 1, 2, 4],
    weight: 16,
  },
  {
    name: 'Europe',
    countries: [
      ['United Kingdom', 5],
      ['France', 4],
      ['Germany', 4],
      ['Italy', 2],
      ['Spain', 2],
      ['Netherlands', 1],
      ['Poland', 2],
      ['Turkey', 2],
    ],
    ethnicities: [
      ['White', 84],
      ['Asian', 6],
      ['Black', 4],
      ['Mixed', 4],
      ['Other', 2],
    ],
    scaleUseBias: -0.1,
    hedonicScales: [3, 4, 2, 1],
    weight: 22,
  },
  {
    name: 'Middle East & Africa',
    countries: [
      ['South Africa', 3],
      ['Nigeria', 2],
      ['Saudi Arabia', 2],
      ['United Arab Emirates', 1],
      ['Egypt', 2],
      ['Kenya', 1],
    ],
    ethnicities: [
      ['Black', 52],
      ['Arab', 32],
      ['White', 8],
      ['Asian', 5],
      ['Other', 3],
    ],
    scaleUseBias: 0.25,
    hedonicScales: [4, 1, 4, 1],
    weight: 9,
  },
  {
    name: 'South Asia',
    parent: 'APAC',
    countries: [
      ['India', 6],
      ['Pakistan', 2],
      ['Bangladesh', 1],
      ['Sri Lanka', 1],
    ],
    ethnicities: [
      ['South Asian', 97],
      ['Other', 3],
    ],
    scaleUseBias: 0.3,
    hedonicScales: [3, 1, 5, 1],
    weight: 11,
  },
  {
    name: 'South East Asia',
    parent: 'APAC',
    countries: [
      ['Indonesia', 4],
      ['Thailand', 2],
      ['Vietnam', 2],
      ['Philippines', 2],
      ['Malaysia', 1],
    ],
    ethnicities: [
      ['South East Asian', 88],
      ['East Asian', 8],
      ['Other', 4],
    ],
    scaleUseBias: 0.15,
    hedonicScales: [3, 2, 5, 0],
    weight: 11,
  },
  {
    name: 'North Asia',
    parent: 'APAC',
    countries: [
      ['China', 5],
      ['Japan', 3],
      ['South Korea', 2],
    ],
    ethnicities: [
      ['East Asian', 97],
      ['Other', 3],
    ],
    scaleUseBias: -0.35,
    hedonicScales: [2, 3, 4, 1],
    weight: 11,
  },
];

/** Region options in display order, APAC before its sub-regions. */
export const REGION_OPTIONS: readonly { name: string; parent?: string }[] = [
  { name: 'North America' },
  { name: 'Latin America' },
  { name: 'Europe' },
  { name: 'Middle East & Africa' },
  { name: 'APAC' },
  { name: 'South Asia', parent: 'APAC' },
  { name: 'South East Asia', parent: 'APAC' },
  { name: 'North Asia', parent: 'APAC' },
];

export const ETHNICITIES = [
  'White',
  'Black',
  'Hispanic/Latino',
  'Asian',
  'South Asian',
  'East Asian',
  'South East Asian',
  'Arab',
  'Indigenous',
  'Mixed',
  'Other',
];

export const SOCIAL_CLASSES: readonly [string, number][] = [
  ['A', 10],
  ['B', 24],
  ['C', 36],
  ['D', 20],
  ['E', 10],
];

export const GENDERS = ['Female', 'Male'];

export const STUDY_AGE_RANGES: readonly [string, number][] = [
  ['18-64', 5],
  ['18-45', 4],
  ['25-54', 3],
  ['18-35', 2],
  ['30-60', 1],
];

// ---------------------------------------------------------------- methodology

export const DESIGN_METHODS: readonly [string, number][] = [
  ['Monadic Sequential', 55],
  ['Balance Complete Block Design', 30],
  ['Balanced Incomplete Block Design', 15],
];

export const METHODOLOGIES: readonly [string, number][] = [
  ['Home Use Test', 35],
  ['Central Location Test', 35],
  ['Sniff Test', 20],
  ['Online Survey', 10],
];

export const EEG_METHODOLOGY = 'Neuro Lab (EEG)';
export const IRT_METHODOLOGY = 'Online Implicit Test';

export const PANEL_PROFILES = [
  'Category users',
  'Brand users',
  'Heavy category users',
  'Category users, main shoppers',
  'Brand rejectors',
  'General population',
];

export const RESEARCH_TYPES = [
  'Fragrance Screening',
  'Benchmarking',
  'Optimisation',
  'Concept Fit',
  'Claims Support',
  'Market Entry',
  'Tracking',
];

export const CMI_TOOL_TYPES = [
  'Blind Sniff',
  'Product in Use',
  'Branded Test',
  'Concept-Fragrance Fit',
  'EEG Neuro Test',
  'Implicit Response Test',
];

export const EVALUATIONS = [
  'Neat',
  'Bloom',
  'Blotter',
  'Wet Stage',
  'Dry Stage',
  'In Use',
  'In Room',
  'On Skin',
  'On Hair',
  'Long Lasting',
];

export const STUDY_PURPOSES = [
  'Fragrance Screening',
  'Fragrance Optimisation',
  'Benchmark Test',
  'Relaunch Test',
  'Fragrance Refresh',
  'Line Extension',
  'Market Entry Test',
];

// ---------------------------------------------------------------- fragrances

export type FamilyName =
  'Floral' | 'Citrus' | 'Woody' | 'Fresh' | 'Oriental/Amber' | 'Gourmand' | 'Fougère' | 'Chypre' | 'Fruity';

export interface FamilyProfile {
  name: FamilyName;
  subfamilies: string[];
  notes: string[];
  /** Perceived strength shift on the JAR scale (heavy bases read stronger). */
  strengthShift: number;
}

export const FAMILIES: readonly FamilyProfile[] = [
  {
    name: 'Floral',
    subfamilies: ['Soft Floral', 'White Floral', 'Rose', 'Floral Aldehydic', 'Muguet'],
    notes: ['Rose', 'Jasmine', 'Lily of the Valley', 'Peony', 'Freesia', 'Tuberose', 'Magnolia'],
    strengthShift: 0,
  },
  {
    name: 'Citrus',
    subfamilies: ['Citrus Fresh', 'Citrus Aromatic', 'Hesperidic Cologne'],
    notes: ['Lemon', 'Bergamot', 'Grapefruit', 'Mandarin', 'Lime', 'Orange Blossom'],
    strengthShift: -0.2,
  },
  {
    name: 'Woody',
    subfamilies: ['Woody Amber', 'Dry Woods', 'Mossy Woods', 'Sandalwood'],
    notes: ['Cedarwood', 'Sandalwood', 'Vetiver', 'Patchouli', 'Oud', 'Guaiac Wood'],
    strengthShift: 0.2,
  },
  {
    name: 'Fresh',
    subfamilies: ['Aquatic', 'Green', 'Ozonic', 'Clean Linen'],
    notes: ['Marine Accord', 'Cucumber', 'Green Leaves', 'Ozone', 'Mint', 'Cotton Flower'],
    strengthShift: -0.1,
  },
  {
    name: 'Oriental/Amber',
    subfamilies: ['Soft Amber', 'Floral Amber', 'Spicy Amber'],
    notes: ['Amber', 'Vanilla', 'Benzoin', 'Cinnamon', 'Cardamom', 'Musk'],
    strengthShift: 0.3,
  },
  {
    name: 'Gourmand',
    subfamilies: ['Vanilla', 'Caramel', 'Coffee'],
    notes: ['Vanilla', 'Tonka Bean', 'Caramel', 'Coffee', 'Praline', 'Coconut'],
    strengthShift: 0.15,
  },
  {
    name: 'Fougère',
    subfamilies: ['Aromatic Fougère', 'Fresh Fougère', 'Lavender Fougère'],
    notes: ['Lavender', 'Coumarin', 'Oakmoss', 'Geranium', 'Sage'],
    strengthShift: 0.1,
  },
  {
    name: 'Chypre',
    subfamilies: ['Fruity Chypre', 'Floral Chypre', 'Green Chypre'],
    notes: ['Oakmoss', 'Bergamot', 'Labdanum', 'Patchouli', 'Rose'],
    strengthShift: 0.2,
  },
  {
    name: 'Fruity',
    subfamilies: ['Red Fruits', 'Tropical Fruits', 'Apple & Pear'],
    notes: ['Apple', 'Pear', 'Peach', 'Raspberry', 'Blackcurrant', 'Mango'],
    strengthShift: -0.05,
  },
];

/**
 * How well each family suits each category, on the latent liking scale (a fresh laundry scent pleases,
 * a heavy amber dishwash does not).
 */
export const FAMILY_FIT: Record<string, Partial<Record<FamilyName, number>>> = {
  'Fabric Care': {
    Floral: 0.4,
    Citrus: 0.1,
    Woody: -0.35,
    Fresh: 0.5,
    'Oriental/Amber': -0.25,
    Gourmand: -0.1,
    Fougère: -0.2,
    Chypre: -0.3,
    Fruity: 0.3,
  },
  'Home Care': {
    Floral: 0.1,
    Citrus: 0.5,
    Woody: -0.35,
    Fresh: 0.4,
    'Oriental/Amber': -0.45,
    Gourmand: -0.25,
    Fougère: -0.1,
    Chypre: -0.4,
    Fruity: 0.2,
  },
  'Air Care': {
    Floral: 0.3,
    Citrus: 0.3,
    Woody: 0.2,
    Fresh: 0.3,
    'Oriental/Amber': 0.1,
    Gourmand: 0.2,
    Fougère: -0.1,
    Chypre: -0.2,
    Fruity: 0.2,
  },
  'Personal Wash': {
    Floral: 0.3,
    Citrus: 0.3,
    Woody: -0.1,
    Fresh: 0.4,
    'Oriental/Amber': -0.1,
    Gourmand: 0.2,
    Fougère: 0,
    Chypre: -0.2,
    Fruity: 0.3,
  },
  'Hair Care': {
    Floral: 0.4,
    Citrus: 0.1,
    Woody: -0.3,
    Fresh: 0.2,
    'Oriental/Amber': -0.2,
    Gourmand: 0.1,
    Fougère: -0.3,
    Chypre: -0.2,
    Fruity: 0.4,
  },
  Deodorants: {
    Floral: 0.1,
    Citrus: 0.2,
    Woody: 0.3,
    Fresh: 0.4,
    'Oriental/Amber': 0.1,
    Gourmand: -0.1,
    Fougère: 0.4,
    Chypre: 0,
    Fruity: 0,
  },
  'Skin Care': {
    Floral: 0.3,
    Citrus: 0,
    Woody: -0.2,
    Fresh: 0.2,
    'Oriental/Amber': 0,
    Gourmand: 0.3,
    Fougère: -0.3,
    Chypre: -0.2,
    Fruity: 0.1,
  },
  'Fine Fragrance': {
    Floral: 0.4,
    Citrus: 0,
    Woody: 0.4,
    Fresh: 0,
    'Oriental/Amber': 0.4,
    Gourmand: 0.3,
    Fougère: 0.1,
    Chypre: 0.3,
    Fruity: 0.1,
  },
};

export function familyFit(category: string, family: FamilyName): number {
  return FAMILY_FIT[category]?.[family] ?? 0;
}

/** Attribute affinity of each family in [-1, 1]; absent means neutral. */
export const FAMILY_ATTRIBUTES: Record<FamilyName, Partial<Record<string, number>>> = {
  Floral: { feminine: 0.9, soft: 0.6, relaxing: 0.3, sensual: 0.3, masculine: -0.8, energizing: -0.1 },
  Citrus: {
    fresh: 0.8,
    energizing: 0.8,
    clean: 0.5,
    natural: 0.5,
    youthful: 0.3,
    long_lasting: -0.4,
    sensual: -0.4,
  },
  Woody: {
    masculine: 0.7,
    premium: 0.5,
    long_lasting: 0.5,
    sensual: 0.3,
    feminine: -0.4,
    fresh: -0.3,
    youthful: -0.3,
  },
  Fresh: {
    fresh: 0.9,
    clean: 0.9,
    energizing: 0.4,
    good_for_every_day_use: 0.5,
    modern: 0.3,
    sensual: -0.3,
    premium: -0.2,
  },
  'Oriental/Amber': {
    sensual: 0.8,
    premium: 0.6,
    long_lasting: 0.7,
    comforting: 0.4,
    fresh: -0.6,
    clean: -0.4,
    good_for_every_day_use: -0.4,
  },
  Gourmand: {
    comforting: 0.8,
    sensual: 0.4,
    feminine: 0.4,
    youthful: 0.3,
    fresh: -0.6,
    clean: -0.5,
    natural: -0.3,
  },
  Fougère: { masculine: 0.9, clean: 0.5, fresh: 0.3, feminine: -0.7 },
  Chypre: {
    premium: 0.7,
    unique: 0.5,
    long_lasting: 0.4,
    sensual: 0.3,
    youthful: -0.4,
    good_for_every_day_use: -0.3,
  },
  Fruity: { youthful: 0.8, energizing: 0.4, feminine: 0.4, fresh: 0.3, premium: -0.3, natural: 0.2 },
};

/** Fantasy-name parts for fragrance names. */
export const FRAGRANCE_NAME_FIRST = [
  'Morning',
  'Velvet',
  'Silk',
  'Ocean',
  'Golden',
  'Midnight',
  'Spring',
  'Crystal',
  'Wild',
  'Secret',
  'Pure',
  'Sunlit',
  'Amber',
  'Cotton',
  'Polar',
  'Dusk',
  'Royal',
  'Summer',
  'Garden',
  'Urban',
];
export const FRAGRANCE_NAME_SECOND = [
  'Dew',
  'Bloom',
  'Breeze',
  'Petal',
  'Glow',
  'Mist',
  'Orchard',
  'Cascade',
  'Embrace',
  'Whisper',
  'Spark',
  'Harbour',
  'Meadow',
  'Aura',
  'Tide',
  'Ember',
  'Grove',
  'Drift',
  'Haze',
  'Pulse',
];

export interface FragranceHouse {
  name: string;
  perfumers: { name: string; region: string; country: string }[];
}

/** Fictional fragrance suppliers ('specifier') and their perfumers, with the creation centre they work in. */
export const FRAGRANCE_HOUSES: readonly FragranceHouse[] = [
  {
    name: 'Maison Ardent',
    perfumers: [
      { name: 'Camille Laurent', region: 'Europe', country: 'France' },
      { name: 'Hugo Marchetti', region: 'Europe', country: 'Italy' },
      { name: 'Ana Ribeiro', region: 'Latin America', country: 'Brazil' },
      { name: 'Priya Raman', region: 'South Asia', country: 'India' },
    ],
  },
  {
    name: 'Lumen Aromatics',
    perfumers: [
      { name: 'Daniel Weiss', region: 'Europe', country: 'Germany' },
      { name: 'Sarah Whitfield', region: 'North America', country: 'United States' },
      { name: 'Kenji Morimoto', region: 'North Asia', country: 'Japan' },
      { name: 'Lucia Fernández', region: 'Latin America', country: 'Mexico' },
    ],
  },
  {
    name: 'Ostara Scents',
    perfumers: [
      { name: 'Elodie Marchand', region: 'Europe', country: 'France' },
      { name: 'Tomás Alvarez', region: 'Europe', country: 'Spain' },
      { name: 'Mei Lin', region: 'North Asia', country: 'China' },
    ],
  },
  {
    name: 'Calder & Finch',
    perfumers: [
      { name: 'James Calder', region: 'Europe', country: 'United Kingdom' },
      { name: 'Olivia Grant', region: 'North America', country: 'United States' },
      { name: 'Nadia Haddad', region: 'Middle East & Africa', country: 'United Arab Emirates' },
    ],
  },
  {
    name: 'Essenza Labs',
    perfumers: [
      { name: 'Marco Bellini', region: 'Europe', country: 'Italy' },
      { name: 'Siti Rahma', region: 'South East Asia', country: 'Indonesia' },
      { name: 'Arjun Mehta', region: 'South Asia', country: 'India' },
    ],
  },
  {
    name: 'Nordvik Fragrances',
    perfumers: [
      { name: 'Ingrid Solberg', region: 'Europe', country: 'Netherlands' },
      { name: 'Rafael Costa', region: 'Latin America', country: 'Brazil' },
      { name: 'Emily Tran', region: 'South East Asia', country: 'Vietnam' },
    ],
  },
];

export const SUPPLEMENTAL_INFO = [
  'Cost-optimised version',
  'IFRA 51 compliant',
  'Encapsulated top notes',
  'Natural-origin index above 80 %',
  'Reformulated without lilial',
  'Longevity booster added',
];

// ---------------------------------------------------------------- concepts

export const CONCEPT_THEMES: Record<string, Partial<Record<string, number>>> = {
  Freshness: { fresh: 0.9, clean: 0.6, energizing: 0.5 },
  Care: { soft: 0.7, comforting: 0.6, natural: 0.3 },
  Indulgence: { sensual: 0.7, premium: 0.6, comforting: 0.5 },
  Naturalness: { natural: 0.9, fresh: 0.3, clean: 0.3 },
  Efficacy: { clean: 0.8, long_lasting: 0.6, good_for_every_day_use: 0.4 },
  Relaxation: { relaxing: 0.9, soft: 0.5, comforting: 0.4 },
  Energy: { energizing: 0.9, youthful: 0.5, fresh: 0.4 },
};

export const CONCEPT_INGREDIENTS = [
  'Aloe Vera',
  'Lavender Oil',
  'Shea Butter',
  'Vitamin E',
  'Green Tea',
  'Coconut Milk',
  'Argan Oil',
  'Eucalyptus',
  'Activated Charcoal',
  'Rose Water',
  'Sea Minerals',
  'Oat Extract',
];

// ---------------------------------------------------------------- helpers

export const countryRegion: ReadonlyMap<string, RegionProfile> = new Map(
  REGIONS.flatMap((region) => region.countries.map(([country]) => [country, region] as const)),
);

export function allCountries(): string[] {
  return REGIONS.flatMap((region) => region.countries.map(([country]) => country));
}

export function allBrands(): string[] {
  return [...CLIENTS.flatMap((client) => client.brands), ...OTHER_BRANDS];
}
