/**
 * A small, exact study library for the search API tests: six studies of four clients (the demo
 * client user sees Northwind and Halden & Crane; the sales user Northwind, Brightwell and Meridian),
 * with fragrances, concepts and files chosen so that every filter changes the counts.
 *
 *   key  client                 year  verified  category / product             region (country)
 *   s1   Northwind              2015  yes       Fabric Care / Liquid Detergent South Asia (India)
 *   s2   Northwind              2018  yes       Fabric Care / Fabric Conditioner North Asia + Europe (China, France)
 *   s3   Halden & Crane         2020  yes       Hair Care / Shampoo            South East Asia (Indonesia)
 *   s4   Brightwell Brands      2012  yes       Home Care / Floor Cleaner      Europe (Germany)
 *   s5   Outsider Holdings      2019  no        Fabric Care / Liquid Detergent North America (United States)
 *   s6   Halden & Crane         2021  yes       Fabric Care / Liquid Detergent Latin America (Brazil)
 */
import type { Database } from '../../db/client.ts';
import { concepts, fragrances, studies, studyFiles } from '../../db/schema.ts';

export const NORTHWIND = 'Northwind Consumer Goods';
export const HALDEN = 'Halden & Crane';
export const BRIGHTWELL = 'Brightwell Brands';
export const OUTSIDER = 'Outsider Holdings';

type StudyKey = 's1' | 's2' | 's3' | 's4' | 's5' | 's6';
type NewStudy = typeof studies.$inferInsert;
type NewFragrance = Omit<typeof fragrances.$inferInsert, 'studyId'>;
type NewConcept = Omit<typeof concepts.$inferInsert, 'studyId'>;
type FileType = (typeof studyFiles.$inferInsert)['fileType'];

const STUDIES: Record<StudyKey, NewStudy> = {
  s1: {
    projectName: 'Breezia Detergent Test',
    client: NORTHWIND,
    cMiNumber: 'CMI-2015-001',
    paceNumber: 'PX-100',
    productArea: ['Home Care'],
    category: 'Fabric Care',
    productType: 'Liquid Detergent',
    region: ['South Asia'],
    country: ['India'],
    leadCountry: 'India',
    researchType: ['Benchmarking'],
    cmiToolType: ['Blind Sniff'],
    evaluation: ['Neat', 'Wet Stage'],
    designMethod: 'Monadic Sequential',
    methodology: 'Home Use Test',
    panelProfile: 'Category users',
    year: 2015,
  },
  s2: {
    projectName: 'Calmwave Conditioner Screening',
    client: NORTHWIND,
    cMiNumber: 'CMI-2018-002',
    paceNumber: 'PX-200',
    productArea: ['Home Care'],
    category: 'Fabric Care',
    productType: 'Fabric Conditioner',
    region: ['North Asia', 'Europe'],
    country: ['China', 'France'],
    leadCountry: 'China',
    researchType: ['Fragrance Screening'],
    cmiToolType: ['Product in Use'],
    designMethod: 'Balanced Incomplete Block Design',
    methodology: 'Central Location Test',
    panelProfile: 'Brand users',
    year: 2018,
  },
  s3: {
    projectName: 'Velura Shampoo Benchmark',
    client: HALDEN,
    cMiNumber: 'CMI-2020-003',
    productArea: ['Beauty & Personal Care'],
    category: 'Hair Care',
    productType: 'Shampoo',
    region: ['South East Asia'],
    country: ['Indonesia'],
    researchType: ['Benchmarking', 'Fragrance Screening'],
    cmiToolType: ['Blind Sniff'],
    designMethod: 'Monadic Sequential',
    methodology: 'Online Survey',
    year: 2020,
  },
  s4: {
    projectName: '1000 Homes Floor Test',
    client: BRIGHTWELL,
    cMiNumber: 'CMI-2012-004',
    productArea: ['Home Care'],
    category: 'Home Care',
    productType: 'Floor Cleaner',
    region: ['Europe'],
    country: ['Germany'],
    researchType: ['Market Entry'],
    designMethod: 'Balance Complete Block Design',
    methodology: 'Sniff Test',
    year: 2012,
  },
  s5: {
    projectName: 'Outsider Detergent Pilot',
    client: OUTSIDER,
    cMiNumber: 'CMI-2019-005',
    productArea: ['Home Care'],
    category: 'Fabric Care',
    productType: 'Liquid Detergent',
    region: ['North America'],
    country: ['United States'],
    year: 2019,
    verified: false,
  },
  s6: {
    projectName: '100% Pure_Test',
    client: HALDEN,
    cMiNumber: 'XYZ-2021-006',
    productArea: ['Home Care'],
    category: 'Fabric Care',
    productType: 'Liquid Detergent',
    region: ['Latin America'],
    country: ['Brazil'],
    objectiveAndActionStandards: 'Identify the best floral for the launch',
    year: 2021,
  },
};

const FRAGRANCES: Record<StudyKey, NewFragrance[]> = {
  s1: [
    {
      name: 'Rose Dawn',
      fragranceCode: '101',
      family: 'Floral',
      subfamily: 'Rose',
      perfumerName: 'Anna Berg',
      code: '123456',
      refNumber: 'DEV-1',
      region: 'South Asia',
      country: 'India',
      specifier: 'Essenza Labs',
      methodology: 'Home Use Test',
      level: 0.8,
      dominantNote1: 'Rose',
      creative: true,
    },
    {
      name: 'Cedar Night',
      fragranceCode: '102',
      family: 'Woody',
      subfamily: 'Cedar',
      perfumerName: 'Marc Dubois',
      code: '654321',
      region: 'Europe',
      country: 'France',
      creative: false,
    },
  ],
  s2: [
    {
      name: 'Rose Mist',
      fragranceCode: '201',
      family: 'Floral',
      subfamily: 'Soft Floral',
      perfumerName: 'Anna Berg',
      region: 'North Asia',
      country: 'China',
      creative: true,
    },
    {
      name: 'Citrus Pop',
      fragranceCode: '202',
      family: 'Citrus',
      subfamily: 'Citrus Fresh',
      perfumerName: 'Li Wei',
      region: 'Europe',
      country: 'France',
      creative: false,
    },
  ],
  s3: [
    {
      name: 'Amber Glow',
      fragranceCode: '301',
      family: 'Oriental',
      subfamily: 'Amber',
      perfumerName: 'Li Wei',
      region: 'South East Asia',
      country: 'Indonesia',
      creative: true,
    },
  ],
  s4: [
    {
      name: 'Rose Garden',
      fragranceCode: '401',
      family: 'Floral',
      subfamily: 'Rose',
      perfumerName: 'Anna Berg',
      region: 'Europe',
      country: 'Germany',
      creative: true,
    },
  ],
  s5: [
    { name: 'Fresh Linen', fragranceCode: '501', family: 'Fresh', subfamily: 'Aldehydic', creative: true },
  ],
  s6: [
    {
      name: 'Lavender Field',
      fragranceCode: '601',
      family: 'Floral',
      subfamily: 'White Floral',
      perfumerName: 'anna karenina',
      region: 'Latin America',
      country: 'Brazil',
      creative: true,
    },
  ],
};

const CONCEPTS: Partial<Record<StudyKey, NewConcept[]>> = {
  s1: [
    {
      name: 'Calm Evening',
      conceptCode: 'C1',
      theme: 'Care',
      region: 'South Asia',
      country: 'India',
      ingredient1: 'Lavender Oil',
      ingredient2: 'Green Tea',
    },
  ],
  s3: [
    {
      name: 'Energy Burst',
      conceptCode: 'C1',
      theme: 'Freshness',
      region: 'South East Asia',
      country: 'Indonesia',
      ingredient1: 'Green Tea',
    },
  ],
  s4: [
    {
      name: 'Calm Morning',
      conceptCode: 'C1',
      theme: 'Care',
      region: 'Europe',
      country: 'Germany',
      ingredient1: 'Aloe Vera',
    },
  ],
};

const FILES: Record<StudyKey, FileType[]> = {
  s1: ['report', 'RDF', 'questionnaire', 'protocol', 'screener'],
  s2: ['report', 'RDF', 'questionnaire'],
  s3: ['report', 'RDF'],
  s4: ['report', 'questionnaire'],
  s5: ['report'],
  s6: ['screener'],
};

const FILE_NAMES: Record<FileType, (cmi: string) => { name: string; extension: string; folder: string }> = {
  report: (cmi) => ({ name: `${cmi}_Final_Report.pdf`, extension: 'pdf', folder: 'report' }),
  RDF: (cmi) => ({ name: `${cmi}_results.csv`, extension: 'csv', folder: 'results' }),
  questionnaire: (cmi) => ({ name: `${cmi}_questionnaire.docx`, extension: 'docx', folder: 'questionnaire' }),
  protocol: (cmi) => ({ name: `${cmi}_protocol.pdf`, extension: 'pdf', folder: 'protocol' }),
  screener: (cmi) => ({ name: `${cmi}_screener.docx`, extension: 'docx', folder: 'screener' }),
};

export type FixtureIds = Record<StudyKey, number>;

/** Inserts the fixture library and answers the study ids by key. */
export async function seedSearchFixtures(database: Database): Promise<FixtureIds> {
  const ids = {} as FixtureIds;
  for (const [key, study] of Object.entries(STUDIES) as [StudyKey, NewStudy][]) {
    const [row] = await database.db.insert(studies).values(study).returning({ id: studies.id });
    const studyId = row!.id;
    ids[key] = studyId;
    await database.db
      .insert(fragrances)
      .values(FRAGRANCES[key].map((fragrance) => ({ ...fragrance, studyId })));
    const studyConcepts = CONCEPTS[key] ?? [];
    if (studyConcepts.length > 0)
      await database.db.insert(concepts).values(studyConcepts.map((concept) => ({ ...concept, studyId })));
    await database.db
      .insert(studyFiles)
      .values(
        FILES[key].map((fileType) => ({ studyId, fileType, ...FILE_NAMES[fileType](study.cMiNumber) })),
      );
  }
  return ids;
}
