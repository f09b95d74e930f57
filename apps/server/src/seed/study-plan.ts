/**
 * Pure planning of one demo study: metadata, fragrances, concepts, questionnaire, respondents and
 * the latent traits behind their answers, then the answers themselves. Study i of a library depends
 * only on (seed, i), so plans can be rebuilt anywhere (tests, upload samples) without a database.
 */
import { METRICS, metricByName, type MetricDefinition } from './catalogue.ts';
import {
  attributeAgreement,
  attributeTicked,
  eegAnswer,
  implicitResponse,
  latentLiking,
  likingAnswer,
  MODEL,
  purchaseIntentionAnswer,
  strengthAnswer,
  type LatentProduct,
  type LatentRespondent,
} from './latent-model.ts';
import { mixSeed, Rng } from './prng.ts';
import { HEDONIC_SCALE_KEYS, SCALES, type Scale } from './scales.ts';
import {
  CATEGORIES,
  CLIENTS,
  CMI_TOOL_TYPES,
  CONCEPT_INGREDIENTS,
  CONCEPT_THEMES,
  DESIGN_METHODS,
  EEG_METHODOLOGY,
  FAMILIES,
  FAMILY_ATTRIBUTES,
  FRAGRANCE_HOUSES,
  FRAGRANCE_NAME_FIRST,
  FRAGRANCE_NAME_SECOND,
  IRT_METHODOLOGY,
  METHODOLOGIES,
  OTHER_BRANDS,
  PANEL_PROFILES,
  REGIONS,
  RESEARCH_TYPES,
  SOCIAL_CLASSES,
  STUDY_AGE_RANGES,
  STUDY_PURPOSES,
  SUPPLEMENTAL_INFO,
  countryRegion,
  familyFit,
  type CategoryProfile,
  type ClientProfile,
  type FamilyName,
  type FamilyProfile,
  type RegionProfile,
} from './vocabulary.ts';

export const FIRST_YEAR = 2010;

export interface LibraryShape {
  seed: number;
  /** Products (fragrances plus concepts) per study. */
  products: number;
  respondents: number;
  questions: number;
  /** Last year of the library (the current year by default). */
  lastYear: number;
}

export const DEFAULT_SHAPE: Omit<LibraryShape, 'seed' | 'lastYear'> = {
  products: 8,
  respondents: 150,
  questions: 25,
};

export interface StudyMetadata {
  projectName: string;
  client: string;
  cMiNumber: string;
  paceNumber: string | null;
  productArea: string[];
  division: string;
  category: string;
  productType: string;
  region: string[];
  leadCountry: string;
  country: string[];
  methodology: string;
  panelProfile: string;
  designMethod: string;
  researchType: string[];
  cmiToolType: string[];
  evaluation: string[];
  gender: string[];
  age: string;
  socialClass: string[];
  studySampleSize: number;
  numberOfProducts: number;
  base: string;
  objectiveAndActionStandards: string;
  year: number;
  rdfType: 'rdf' | 'eeg' | 'irt';
  isGenisys: boolean;
  verified: boolean;
  createdAt: Date;
}

export interface FragrancePlan {
  name: string;
  refNumber: string;
  code: string;
  fragranceCode: string;
  methodology: string;
  perfumerName: string | null;
  region: string | null;
  country: string | null;
  family: string;
  subfamily: string;
  specifier: string | null;
  level: number;
  supplementalInfo: string | null;
  dominantNotes: string[];
  creative: boolean;
}

export interface ConceptPlan {
  name: string;
  conceptCode: string;
  region: string;
  country: string;
  theme: string;
  ingredient1: string;
  ingredient2: string | null;
}

export interface ProductPlan {
  kind: 'fragrance' | 'concept';
  code: string;
  /** Index into fragrances or concepts. */
  index: number;
  name: string;
  latent: LatentProduct;
}

export type QuestionRole =
  'liking' | 'purchase_intention' | 'strength' | 'attribute' | 'eeg' | 'implicit' | 'extra';

export interface QuestionPlan {
  qid: string;
  text: string;
  questionType: 'numerical' | 'categorical' | 'binary' | 'jar' | 'eeg' | 'implicit';
  scale: Scale;
  role: QuestionRole;
  /** Metric whose model drives the answers (also for unmapped questions). */
  model?: MetricDefinition;
  metricId: number | null;
  suggestedMetricId: number | null;
  metricValidated: boolean;
}

export interface RespondentPlan {
  code: string;
  gender: string;
  age: number;
  ethnicity: string;
  socialClass: string;
  country: string;
  bumo: string;
  /** Day of the test session (yyyy-mm-dd) in EEG studies, whose profiles chart scores by test date; null otherwise. */
  testDate: string | null;
  latent: LatentRespondent;
  /** Scale-use habit of the respondent's market. */
  regionBias: number;
}

export interface EditPlan {
  type: 'study' | 'fragrances';
  daysAfterCreation: number;
  changes: { field: string; old_value: string; new_value: string }[];
}

export interface FilesPlan {
  protocolFormat: 'pdf' | 'docx';
  /** Versions of each document before the current one. */
  reportRevisions: number;
  questionnaireRevisions: number;
  /** The current results file was accepted with validation warnings. */
  resultsWarnings: boolean;
}

export interface StudyPlan {
  index: number;
  metadata: StudyMetadata;
  fragrances: FragrancePlan[];
  concepts: ConceptPlan[];
  products: ProductPlan[];
  questions: QuestionPlan[];
  respondents: RespondentPlan[];
  studyEffect: number;
  files: FilesPlan;
  edits: EditPlan[];
}

const weightedPick = <T>(rng: Rng, entries: readonly (readonly [T, number])[]): T =>
  rng.weighted(
    entries.map(([value]) => value),
    entries.map(([, weight]) => weight),
  );

const digits = (rng: Rng, count: number): string => {
  let out = '';
  for (let i = 0; i < count; i++) out += String(rng.int(0, 9));
  return out;
};

const unique = <T>(items: T[]): T[] => [...new Set(items)];

/** Study i of the library built with this shape, with the fragrances it re-tests from earlier studies. */
export function planStudy(shape: LibraryShape, index: number): StudyPlan {
  const plan = planOriginal(shape, index);
  applyRetests(shape, plan);
  return plan;
}

/**
 * How the library re-tests fragrances: a creative slot of a study is a re-test with chance `slot`; it
 * takes a "re-testable" fragrance (a share `retestable` of the original creative ones, the winners
 * worth testing again) of a study at most `window` studies earlier, trying up to `tries` of them.
 * About one fragrance code in eleven then appears in 2-5 studies (other markets, years, sometimes
 * other clients; a few in more), as in a real library, while every count of the library stays as it
 * was.
 */
export const RETESTS = { slot: 0.2, retestable: 0.15, window: 40, tries: 4 } as const;

/** Whether slot `slot` of study `index` re-tests an earlier fragrance (drawn apart from the plan's stream). */
export function isRetestSlot(seed: number, index: number, slot: number): boolean {
  return new Rng(mixSeed(seed, index, slot, 0x7e57)).chance(RETESTS.slot);
}

/** Whether the original fragrance of a slot may be re-tested later (never a re-test itself). */
export function isRetestable(seed: number, index: number, slot: number): boolean {
  return (
    !isRetestSlot(seed, index, slot) && new Rng(mixSeed(seed, index, slot, 0x0419)).chance(RETESTS.retestable)
  );
}

/**
 * Replaces the re-test slots' fragrances by earlier studies' re-testable ones: the same fragrance
 * (6-digit code, name, developer number, perfumer, family, notes) and the same latent quality, strength
 * and character, so its scores differ between studies by market, panel and sampling only. The slot
 * keeps its own product code, dosage and supplemental information; one fragrance appears once a study.
 */
function applyRetests(shape: LibraryShape, plan: StudyPlan): void {
  const origins = new Map<number, StudyPlan>();
  const originOf = (index: number) => {
    let found = origins.get(index);
    if (!found) origins.set(index, (found = planOriginal(shape, index)));
    return found;
  };
  const codes = new Set(plan.fragrances.map((fragrance) => fragrance.code));
  plan.fragrances.forEach((fragrance, slot) => {
    if (!fragrance.creative || !isRetestSlot(shape.seed, plan.index, slot)) return;
    const rng = new Rng(mixSeed(shape.seed, plan.index, slot, 0x0a19));
    for (let attempt = 0; attempt < RETESTS.tries; attempt++) {
      const earlier = plan.index - rng.int(1, RETESTS.window);
      if (earlier < 0) continue;
      const origin = originOf(earlier);
      const candidates = origin.fragrances
        .map((candidate, originSlot) => ({ candidate, originSlot }))
        .filter(
          ({ candidate, originSlot }) =>
            candidate.creative && !codes.has(candidate.code) && isRetestable(shape.seed, earlier, originSlot),
        );
      if (candidates.length === 0) continue;
      const { candidate, originSlot } = rng.pick(candidates);
      retest(plan, slot, candidate, origin.products[originSlot] as ProductPlan);
      codes.add(candidate.code);
      return;
    }
  });
}

/** Puts the original fragrance into slot `slot` of the plan as a re-test of it. */
function retest(plan: StudyPlan, slot: number, original: FragrancePlan, originalProduct: ProductPlan): void {
  const own = plan.fragrances[slot] as FragrancePlan;
  const tested: FragrancePlan = {
    ...original,
    fragranceCode: own.fragranceCode,
    methodology: own.methodology,
    level: own.level,
    supplementalInfo: own.supplementalInfo,
  };
  plan.fragrances[slot] = tested;
  const product = plan.products[slot] as ProductPlan;
  plan.products[slot] = {
    ...product,
    name: tested.name,
    latent: {
      ...originalProduct.latent,
      fit: familyFit(plan.metadata.category, tested.family as FamilyName),
    },
  };
  // An edit of the slot's family tells the fragrance's family as it now is.
  plan.edits = plan.edits.flatMap((edit) => {
    if (edit.type !== 'fragrances') return [edit];
    const changes = edit.changes
      .map((change) =>
        change.field === `${own.fragranceCode}.family` ? { ...change, new_value: tested.family } : change,
      )
      .filter((change) => change.old_value !== change.new_value);
    return changes.length > 0 ? [{ ...edit, changes }] : [];
  });
}

/** Study i as first drawn, each fragrance its own (before re-tests). */
function planOriginal(shape: LibraryShape, index: number): StudyPlan {
  const rng = new Rng(mixSeed(shape.seed, index, 0x5eed));
  const metadata = planMetadata(rng, shape, index);
  const category = CATEGORIES.find((c) => c.name === metadata.category) as CategoryProfile;
  const client = CLIENTS.find((c) => c.name === metadata.client) as ClientProfile;
  const leadRegion = countryRegion.get(metadata.leadCountry) as RegionProfile;

  const conceptCount =
    metadata.rdfType === 'rdf' && shape.products >= 4 && rng.chance(0.18)
      ? Math.min(2, shape.products - 2)
      : 0;
  const fragranceCount = shape.products - conceptCount;
  const fragrances = planFragrances(rng, fragranceCount, metadata, category, client, shape.seed, index);
  const concepts = planConcepts(rng, conceptCount, metadata, client, leadRegion);

  const products: ProductPlan[] = [
    ...fragrances.map((fragrance, i): ProductPlan => {
      const family = FAMILIES.find((f) => f.name === fragrance.family) as FamilyProfile;
      return {
        kind: 'fragrance',
        code: fragrance.fragranceCode,
        index: i,
        name: fragrance.name,
        latent: {
          quality: rng.normal(fragrance.creative ? 0 : MODEL.benchmarkQualityBonus, MODEL.qualitySd),
          fit: familyFit(category.name, family.name),
          strengthOffset: rng.normal(family.strengthShift, MODEL.strengthOffsetSd),
          affinity: attributeAffinities(rng, FAMILY_ATTRIBUTES[family.name]),
          family: family.name,
        },
      };
    }),
    ...concepts.map((concept, i): ProductPlan => ({
      kind: 'concept',
      code: concept.conceptCode,
      index: i,
      name: concept.name,
      latent: {
        quality: rng.normal(0, MODEL.conceptQualitySd),
        fit: 0,
        strengthOffset: 0,
        affinity: attributeAffinities(rng, CONCEPT_THEMES[concept.theme] ?? {}),
      },
    })),
  ];

  const questions = planQuestions(rng, shape.questions, metadata, leadRegion);
  const respondents = planRespondents(rng, shape.respondents, metadata, client);
  const studyEffect = rng.normal(0, MODEL.studyEffectSd);

  const files: FilesPlan = {
    protocolFormat: rng.chance(0.5) ? 'pdf' : 'docx',
    reportRevisions: rng.chance(0.12) ? rng.int(1, 2) : 0,
    questionnaireRevisions: rng.chance(0.06) ? 1 : 0,
    resultsWarnings: rng.chance(0.08),
  };
  const edits = planEdits(rng, metadata, fragrances);
  if (metadata.rdfType === 'eeg')
    planTestDates(new Rng(mixSeed(shape.seed, index, 0x7e57)), respondents, metadata);

  return {
    index,
    metadata,
    fragrances,
    concepts,
    products,
    questions,
    respondents,
    studyEffect,
    files,
    edits,
  };
}

function planMetadata(rng: Rng, shape: LibraryShape, index: number): StudyMetadata {
  // More studies in recent years: the library grew.
  const years = Array.from({ length: shape.lastYear - FIRST_YEAR + 1 }, (_, i) => FIRST_YEAR + i);
  const year = rng.weighted(
    years,
    years.map((y) => 1 + (y - FIRST_YEAR) * 0.25),
  );
  // The first two studies belong to the first two clients, so the demo client user always sees data.
  const client =
    index < 2
      ? (CLIENTS[index] as ClientProfile)
      : rng.weighted(
          CLIENTS,
          CLIENTS.map((c) => c.weight),
        );
  const businessUnits = Object.entries(client.businessUnits) as [string, number][];
  const businessUnit = weightedPick(rng, businessUnits);
  const categoryChoices = CATEGORIES.filter((c) => c.businessUnit === businessUnit);
  const category = rng.weighted(
    categoryChoices,
    categoryChoices.map((c) => c.weight),
  );
  const productType = rng.pick(category.productTypes);

  const leadRegion = rng.weighted(
    REGIONS,
    REGIONS.map((r) => r.weight),
  );
  const leadCountry = weightedPick(rng, leadRegion.countries);
  const countries = [leadCountry];
  const spread = rng.float();
  if (spread < 0.15 && leadRegion.countries.length > 1) {
    countries.push(
      ...rng.sample(
        leadRegion.countries.map(([c]) => c).filter((c) => c !== leadCountry),
        rng.int(1, 2),
      ),
    );
  } else if (spread < 0.2) {
    const other = rng.pick(REGIONS.filter((r) => r !== leadRegion));
    countries.push(weightedPick(rng, other.countries));
  }
  // APAC is never stored: it stands for its three sub-regions (contracts APAC_SUBREGIONS).
  const region = unique(countries.map((country) => (countryRegion.get(country) as RegionProfile).name));

  let rdfType: StudyMetadata['rdfType'] = 'rdf';
  const kind = rng.float();
  if (kind < 0.12 && year >= 2015) rdfType = 'eeg';
  else if (kind < 0.2 && year >= 2017) rdfType = 'irt';

  const methodology =
    rdfType === 'eeg'
      ? EEG_METHODOLOGY
      : rdfType === 'irt'
        ? IRT_METHODOLOGY
        : weightedPick(rng, METHODOLOGIES);
  const designMethod =
    rdfType === 'eeg'
      ? 'Monadic Sequential'
      : rdfType === 'irt'
        ? 'Balance Complete Block Design'
        : weightedPick(rng, DESIGN_METHODS);
  const researchType = rng.sample(RESEARCH_TYPES.slice(0, 5), rng.int(1, 2));
  const cmiToolType =
    rdfType === 'eeg'
      ? ['EEG Neuro Test']
      : rdfType === 'irt'
        ? ['Implicit Response Test']
        : rng.sample(CMI_TOOL_TYPES.slice(0, 3), rng.int(1, 2));
  const evaluation = category.evaluations.filter((_, i) => i === 0 || rng.chance(0.5));

  const genderRoll = rng.float();
  const gender =
    genderRoll < category.femaleOnly
      ? ['Female']
      : genderRoll < category.femaleOnly + category.maleOnly
        ? ['Male']
        : ['Female', 'Male'];
  const age = weightedPick(rng, STUDY_AGE_RANGES);
  const classStart = rng.int(0, 2);
  const socialClass = SOCIAL_CLASSES.slice(classStart, classStart + rng.int(3, 5)).map(([c]) => c);
  const panelProfile = rng.pick(PANEL_PROFILES);
  const brand = rng.pick(client.brands);
  const purpose = rng.pick(STUDY_PURPOSES);
  const genderText = gender.length === 1 ? `${gender[0]} ` : '';
  const base = `${genderText}${category.name.toLowerCase()} users aged ${age}, ${countries.join(', ')} (n=${shape.respondents} per product)`;
  const objective =
    `Identify the best fragrance for ${brand} ${productType} in ${countries.join(', ')}. ` +
    `Action standard: a candidate must be at parity or better than the benchmark on overall liking ` +
    `and purchase intention at 90% confidence, with no more than 20% "too strong".`;

  return {
    projectName: `${brand} ${productType} ${purpose} ${leadCountry} ${year}`,
    client: client.name,
    cMiNumber: `CMI-${year}-${String(index + 1).padStart(5, '0')}`,
    paceNumber: rng.chance(0.8) ? `PX-${year}-${digits(rng, 4)}` : null,
    productArea: [businessUnit],
    division: category.division,
    category: category.name,
    productType,
    region,
    leadCountry,
    country: countries,
    methodology,
    panelProfile,
    designMethod,
    researchType,
    cmiToolType,
    evaluation,
    gender,
    age,
    socialClass,
    studySampleSize: shape.respondents,
    numberOfProducts: shape.products,
    base,
    objectiveAndActionStandards: objective,
    year,
    rdfType,
    isGenisys: rng.chance(0.1),
    verified: rng.chance(0.94),
    createdAt: dayOfYear(rng, year),
  };
}

/**
 * Test sessions of an EEG study: the respondents come, in code order, over 4 to 8 consecutive
 * weekdays ending some days before the study was filed. A stream of its own keeps every other draw
 * of the library as it was.
 */
function planTestDates(rng: Rng, respondents: RespondentPlan[], metadata: StudyMetadata): void {
  const days: string[] = [];
  const day = new Date(metadata.createdAt.getTime() - rng.int(7, 40) * 86_400_000);
  const wanted = rng.int(4, 8);
  while (days.length < wanted) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.unshift(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() - 1);
  }
  respondents.forEach((respondent, r) => {
    respondent.testDate = days[Math.floor((r * days.length) / respondents.length)] ?? null;
  });
}

/** A moment in the given year that is not in the future. */
function dayOfYear(rng: Rng, year: number): Date {
  const start = Date.UTC(year, 0, 1);
  const end = Math.min(Date.UTC(year + 1, 0, 1), Date.now() - 86_400_000);
  const at = start + Math.floor(rng.float() * Math.max(0, end - start));
  return new Date(Math.floor(at / 60_000) * 60_000);
}

function planFragrances(
  rng: Rng,
  count: number,
  metadata: StudyMetadata,
  category: CategoryProfile,
  client: ClientProfile,
  seed: number,
  index: number,
): FragrancePlan[] {
  const benchmarks = count >= 6 && rng.chance(0.4) ? 2 : count >= 3 ? 1 : 0;
  const codes = rng.sample(
    Array.from({ length: 900 }, (_, i) => String(100 + i)),
    count,
  );
  const familyWeights = FAMILIES.map((f) => Math.exp(2.5 * familyFit(category.name, f.name)));
  const fragrances: FragrancePlan[] = [];
  for (let i = 0; i < count; i++) {
    const creative = i >= benchmarks;
    const family = rng.weighted(FAMILIES, familyWeights);
    const house = rng.pick(FRAGRANCE_HOUSES);
    const perfumer = rng.pick(house.perfumers);
    const knownPerfumer = creative || rng.chance(0.5);
    const otherFamily = rng.pick(FAMILIES);
    const notes = unique([
      ...rng.sample(family.notes, rng.int(2, 4)),
      ...(rng.chance(0.4) ? [rng.pick(otherFamily.notes)] : []),
    ]);
    const name = creative
      ? `${rng.pick(FRAGRANCE_NAME_FIRST)} ${rng.pick(FRAGRANCE_NAME_SECOND)}${rng.chance(0.3) ? ` ${rng.int(2, 9)}` : ''}`
      : i === 0
        ? `${rng.pick(client.brands)} current fragrance`
        : `Market leader benchmark`;
    const [dosageMin, dosageMax] = category.dosage;
    // Drawn to keep the stream of every later draw as it was; the code itself is unique (sapCode).
    rng.int(1, 9);
    digits(rng, 5);
    fragrances.push({
      name,
      refNumber: `DEV-${digits(rng, 5)}`,
      code: sapCode(seed, index, i),
      fragranceCode: codes[i] as string,
      methodology: metadata.methodology,
      perfumerName: knownPerfumer ? perfumer.name : null,
      region: knownPerfumer ? perfumer.region : null,
      country: knownPerfumer ? perfumer.country : null,
      family: family.name,
      subfamily: rng.pick(family.subfamilies),
      specifier: knownPerfumer ? house.name : null,
      level: Math.round(rng.range(dosageMin, dosageMax) * 100) / 100,
      supplementalInfo: rng.chance(0.12) ? rng.pick(SUPPLEMENTAL_INFO) : null,
      dominantNotes: notes,
      creative,
    });
  }
  return fragrances;
}

/** Slots per study in the code numbering: more than any study's products. */
const CODE_SLOTS = 64;
/** A multiplier coprime with 900,000: the numbering below is one-to-one over 900,000 slots. */
const CODE_STEP = 382_837;

/**
 * The 6-digit (SAP) code of a study's fragrance slot: unique across the library (up to 14,000 studies),
 * as a real fragrance's code is, so that one code means one fragrance, in every study that tests it.
 */
export function sapCode(seed: number, index: number, slot: number): string {
  const offset = mixSeed(seed, 0xc0de) % 900_000;
  const position = index * CODE_SLOTS + slot;
  return String(100_000 + ((position * CODE_STEP + offset) % 900_000));
}

function planConcepts(
  rng: Rng,
  count: number,
  metadata: StudyMetadata,
  client: ClientProfile,
  leadRegion: RegionProfile,
): ConceptPlan[] {
  const themes = rng.sample(Object.keys(CONCEPT_THEMES), count);
  return themes.map((theme, i) => {
    const [ingredient1, ingredient2] = rng.sample(CONCEPT_INGREDIENTS, 2);
    return {
      name: `${rng.pick(client.brands)} ${theme} ${rng.pick(['Promise', 'Ritual', 'Boost', 'Moments', 'Essentials'])}`,
      conceptCode: `C${i + 1}`,
      region: leadRegion.name,
      country: metadata.leadCountry,
      theme,
      ingredient1: ingredient1 as string,
      ingredient2: rng.chance(0.7) ? (ingredient2 as string) : null,
    };
  });
}

function attributeAffinities(rng: Rng, base: Partial<Record<string, number>>): Record<string, number> {
  const affinity: Record<string, number> = {};
  for (const metric of METRICS) {
    if (!metric.attribute || metric.attribute in affinity) continue;
    affinity[metric.attribute] = (base[metric.attribute] ?? 0) + rng.normal(0, MODEL.attributeIdiosyncrasySd);
  }
  return affinity;
}

interface QuestionDraft {
  text: string;
  questionType: QuestionPlan['questionType'];
  scale: Scale;
  role: QuestionRole;
  model?: MetricDefinition;
  /** Mapped metric, when the question measures one. */
  metric?: MetricDefinition;
  suggested?: MetricDefinition;
}

function planQuestions(
  rng: Rng,
  count: number,
  metadata: StudyMetadata,
  leadRegion: RegionProfile,
): QuestionPlan[] {
  const hedonic = SCALES[rng.weighted(HEDONIC_SCALE_KEYS, leadRegion.hedonicScales)];
  const agreement = rng.chance(0.7) ? SCALES.agree5 : SCALES.agree7;
  const binary = rng.chance(0.6) ? SCALES.binary01 : SCALES.binary12;
  const liking = metricByName('liking');
  const purchase = metricByName('purchase_intention');
  const strength = metricByName('strength');

  const core: QuestionDraft[] = [
    {
      text: 'Overall, how much do you like or dislike this fragrance?',
      questionType: 'numerical',
      scale: hedonic,
      role: 'liking',
      metric: liking,
    },
    {
      text: 'Based on its fragrance, how likely would you be to buy this product?',
      questionType: 'numerical',
      scale: SCALES.purchase5,
      role: 'purchase_intention',
      metric: purchase,
    },
    {
      text: 'How would you describe the strength of this fragrance?',
      questionType: 'jar',
      scale: SCALES.jar5,
      role: 'strength',
      metric: strength,
    },
  ];

  const special: QuestionDraft[] = [];
  if (metadata.rdfType === 'eeg') {
    for (const metric of METRICS.filter((m) => m.kind === 'eeg')) {
      special.push({
        text: `EEG ${metric.label} score`,
        questionType: 'eeg',
        scale: SCALES.eeg,
        role: 'eeg',
        metric,
      });
    }
  } else if (metadata.rdfType === 'irt') {
    const implicitMetrics = METRICS.filter((m) => m.kind === 'implicit');
    const chosen = new Set(rng.sample(implicitMetrics, 6));
    for (const metric of implicitMetrics.filter((m) => chosen.has(m))) {
      special.push({
        text: `Implicit association: does this fragrance feel ${metric.phrase}?`,
        questionType: 'implicit',
        scale: SCALES.implicit,
        role: 'implicit',
        metric,
      });
    }
  }

  const extrasWanted = count >= 8 ? Math.min(5, Math.round(count * 0.15)) : 0;
  const attributeSlots = Math.max(0, count - core.length - special.length - extrasWanted);
  const hedonicAttributes = rng.sample(
    METRICS.filter((m) => m.metricType === 'Attribute' && m.kind === 'hedonic'),
    Math.ceil(attributeSlots / 2),
  );
  const binaryAttributes = rng.sample(
    METRICS.filter((m) => m.metricType === 'Attribute' && m.kind === 'binary'),
    attributeSlots - hedonicAttributes.length,
  );
  const attributes: QuestionDraft[] = [
    ...hedonicAttributes
      .sort((a, b) => a.id - b.id)
      .map((metric): QuestionDraft => ({
        text: `How much do you agree that this fragrance ${metric.phrase}?`,
        questionType: 'numerical',
        scale: agreement,
        role: 'attribute',
        metric,
      })),
    ...binaryAttributes
      .sort((a, b) => a.id - b.id)
      .map((metric): QuestionDraft => ({
        text: `Which of these words describe this fragrance? ${metric.phrase}`,
        questionType: 'binary',
        scale: binary,
        role: 'attribute',
        metric,
      })),
  ];

  const drafts = [...core, ...special, ...attributes];
  const extras = extraQuestions(metadata, hedonic, agreement);
  for (let i = 0; drafts.length < count; i++) {
    const extra = extras[i % extras.length] as QuestionDraft;
    const round = Math.floor(i / extras.length);
    drafts.push(round === 0 ? extra : { ...extra, text: `${extra.text} (repeat ${round})` });
  }

  return drafts.slice(0, count).map((draft, i): QuestionPlan => {
    const mapping = mapQuestion(rng, draft);
    return {
      qid: `Q${i + 1}`,
      text: draft.text,
      questionType: draft.questionType,
      scale: draft.scale,
      role: draft.role,
      model: draft.model ?? draft.metric,
      ...mapping,
    };
  });
}

/** Questions the analytics catalogue has no metric for: stage liking, recommendation, fit, occasion. */
function extraQuestions(metadata: StudyMetadata, hedonic: Scale, agreement: Scale): QuestionDraft[] {
  const liking = metricByName('liking');
  const purchase = metricByName('purchase_intention');
  const stages = metadata.evaluation.filter((stage) => stage !== 'Neat');
  return [
    ...stages.map((stage): QuestionDraft => ({
      text: `How much do you like the fragrance at the ${stage.toLowerCase()} stage?`,
      questionType: 'numerical',
      scale: hedonic,
      role: 'extra',
      model: liking,
      suggested: liking,
    })),
    {
      text: 'How likely are you to recommend a product with this fragrance to a friend?',
      questionType: 'numerical',
      scale: SCALES.recommend0to10,
      role: 'extra',
      model: purchase,
      suggested: purchase,
    },
    {
      text: 'How suitable is this fragrance for the product?',
      questionType: 'numerical',
      scale: SCALES.suitability5,
      role: 'extra',
      model: liking,
    },
    {
      text: 'How intense is the fragrance at first smell?',
      questionType: 'numerical',
      scale: SCALES.intensity1to10,
      role: 'extra',
      model: metricByName('strength'),
    },
    {
      text: 'When would you most like to use a product with this fragrance?',
      questionType: 'categorical',
      scale: SCALES.occasion4,
      role: 'extra',
    },
    {
      text: 'The fragrance matches what I expect from this brand.',
      questionType: 'numerical',
      scale: agreement,
      role: 'extra',
      model: liking,
    },
  ];
}

/** Mapping state: mostly validated, some mapped but unvalidated, some left for the researcher to map. */
function mapQuestion(
  rng: Rng,
  draft: QuestionDraft,
): Pick<QuestionPlan, 'metricId' | 'suggestedMetricId' | 'metricValidated'> {
  if (!draft.metric) {
    return { metricId: null, suggestedMetricId: draft.suggested?.id ?? null, metricValidated: false };
  }
  const roll = rng.float();
  const core = draft.metric.metricType === 'Performance';
  if (roll < (core ? 0.97 : 0.88))
    return { metricId: draft.metric.id, suggestedMetricId: draft.metric.id, metricValidated: true };
  if (core || roll < 0.95)
    return { metricId: draft.metric.id, suggestedMetricId: draft.metric.id, metricValidated: false };
  return { metricId: null, suggestedMetricId: draft.metric.id, metricValidated: false };
}

function planRespondents(
  rng: Rng,
  count: number,
  metadata: StudyMetadata,
  client: ClientProfile,
): RespondentPlan[] {
  const [ageMin, ageMax] = metadata.age.split('-').map(Number) as [number, number];
  const countryWeights = metadata.country.map((_, i) => (i === 0 ? 3 : 1));
  const classWeights = metadata.socialClass.map((c) => SOCIAL_CLASSES.find(([name]) => name === c)?.[1] ?? 1);
  const otherClientBrands = CLIENTS.filter((c) => c !== client).flatMap((c) => c.brands);
  const respondents: RespondentPlan[] = [];
  for (let r = 0; r < count; r++) {
    const country = rng.weighted(metadata.country, countryWeights);
    const region = countryRegion.get(country) as RegionProfile;
    const bumoRoll = rng.float();
    respondents.push({
      code: `R${String(r + 1).padStart(4, '0')}`,
      gender: rng.pick(metadata.gender),
      age: rng.int(ageMin, ageMax),
      ethnicity: weightedPick(rng, region.ethnicities),
      socialClass: rng.weighted(metadata.socialClass, classWeights),
      country,
      bumo:
        bumoRoll < 0.5
          ? rng.pick(client.brands)
          : bumoRoll < 0.85
            ? rng.pick(otherClientBrands)
            : rng.pick(OTHER_BRANDS),
      testDate: null,
      latent: {
        bias: rng.normal(0, MODEL.respondentBiasSd),
        agreementBias: rng.normal(0, MODEL.agreementBiasSd),
        strengthSensitivity: rng.normal(0, MODEL.strengthSensitivitySd),
      },
      regionBias: region.scaleUseBias,
    });
  }
  return respondents;
}

function planEdits(rng: Rng, metadata: StudyMetadata, fragrances: FragrancePlan[]): EditPlan[] {
  if (!rng.chance(0.08)) return [];
  const edits: EditPlan[] = [
    {
      type: 'study',
      daysAfterCreation: rng.int(3, 60),
      changes: [
        {
          field: 'panel_profile',
          old_value: rng.pick(PANEL_PROFILES.filter((p) => p !== metadata.panelProfile)),
          new_value: metadata.panelProfile,
        },
      ],
    },
  ];
  const fragrance = fragrances[fragrances.length - 1];
  if (fragrance && rng.chance(0.5)) {
    const oldFamily = rng.pick(FAMILIES.filter((f) => f.name !== fragrance.family)).name;
    edits.push({
      type: 'fragrances',
      daysAfterCreation: rng.int(61, 200),
      changes: [
        { field: `${fragrance.fragranceCode}.family`, old_value: oldFamily, new_value: fragrance.family },
      ],
    });
  }
  return edits;
}

// ---------------------------------------------------------------- answers

/** Whether respondent r rates product p (incomplete block designs rate a rotating subset). */
export function ratesProduct(plan: StudyPlan, respondent: number, product: number): boolean {
  const productCount = plan.products.length;
  if (plan.metadata.designMethod !== 'Balanced Incomplete Block Design' || productCount <= 2) return true;
  const perRespondent = Math.max(2, Math.ceil(productCount * 0.6));
  return (product - (respondent % productCount) + productCount) % productCount < perRespondent;
}

/**
 * Raw answers of a study as a dense array indexed [question][product][respondent]; NaN where no
 * answer exists (products a respondent did not rate, strength of a concept).
 */
export function generateAnswers(plan: StudyPlan, seed: number): Float64Array {
  const rng = new Rng(mixSeed(seed, plan.index, 0xa5));
  const questionCount = plan.questions.length;
  const productCount = plan.products.length;
  const respondentCount = plan.respondents.length;
  const values = new Float64Array(questionCount * productCount * respondentCount).fill(Number.NaN);
  for (let r = 0; r < respondentCount; r++) {
    const respondent = plan.respondents[r] as RespondentPlan;
    const shared = plan.studyEffect + respondent.regionBias;
    for (let p = 0; p < productCount; p++) {
      if (!ratesProduct(plan, r, p)) continue;
      const product = plan.products[p] as ProductPlan;
      const liking = latentLiking(rng, product.latent, respondent.latent, shared);
      for (let q = 0; q < questionCount; q++) {
        const value = answerOf(rng, plan.questions[q] as QuestionPlan, product, respondent, liking);
        values[(q * productCount + p) * respondentCount + r] = value;
      }
    }
  }
  return values;
}

function answerOf(
  rng: Rng,
  question: QuestionPlan,
  product: ProductPlan,
  respondent: RespondentPlan,
  liking: number,
): number {
  const { min, max } = question.scale;
  const attribute = question.model?.attribute;
  switch (question.role) {
    case 'liking':
      return likingAnswer(liking, min, max);
    case 'purchase_intention':
      return purchaseIntentionAnswer(rng, liking, min, max);
    case 'strength':
      return product.kind === 'concept' ? Number.NaN : strengthAnswer(rng, product.latent, respondent.latent);
    case 'attribute': {
      const affinity = attribute ? (product.latent.affinity[attribute] ?? 0) : 0;
      if (question.questionType === 'binary') return attributeTicked(rng, affinity, liking) ? max : min;
      return attributeAgreement(rng, affinity, liking, respondent.latent, min, max);
    }
    case 'implicit':
      return implicitResponse(rng, attribute ? (product.latent.affinity[attribute] ?? 0) : 0, liking);
    case 'eeg':
      return eegAnswer(rng, question.model?.name ?? '', liking, product.latent.family);
    case 'extra':
      if (question.questionType === 'categorical') return rng.int(min, max);
      if (question.model?.name === 'strength') {
        // Intensity rather than JAR: stronger fragrances score higher.
        return Math.min(
          max,
          Math.max(
            min,
            Math.round(min + (max - min) * (0.5 + 0.15 * product.latent.strengthOffset) + rng.normal(0, 1.2)),
          ),
        );
      }
      return likingAnswer(0.8 * liking + rng.normal(0, 0.6), min, max);
  }
}
