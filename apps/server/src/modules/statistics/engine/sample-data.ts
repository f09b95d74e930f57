// The sample files of the statistics generator, generated deterministically (a seeded generator, no
// clock): a paired test of four fragrances by 80 respondents. The committed copies under
// modules/statistics/samples/ are these exact bytes (a unit test checks it); regenerate them with
// `npx tsx apps/server/src/modules/statistics/engine/sample-data.ts --write`.
import { writeFileSync } from 'node:fs';
import { STATISTICS_SAMPLE_FILES, STATISTICS_SAMPLE_FOLDER } from '@accord/contracts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SAMPLE_FILES = STATISTICS_SAMPLE_FILES;
export type SampleFile = (typeof SAMPLE_FILES)[number];
/** The folder name under which the templates route serves the sample files. */
export const SAMPLE_FOLDER = STATISTICS_SAMPLE_FOLDER;
export const SAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples');

const RESPONDENTS = 80;
const PRODUCTS = [
  { code: 'F101', name: 'Amber Dusk', shift: 0.9 },
  { code: 'F102', name: 'Citrus Veil', shift: 0.1 },
  { code: 'F103', name: 'Green Orchard', shift: -0.5 },
  { code: 'F104', name: 'Velvet Musk and Sandalwood Accord', shift: 0.3 },
];

const QUESTIONS = [
  {
    id: 'liking',
    text: 'Overall liking',
    type: 'numerical',
    min: 1,
    max: 9,
    labels: 'Dislike extremely|Like extremely',
  },
  {
    id: 'pleasant',
    text: 'How pleasant is the fragrance?',
    type: 'numerical',
    min: 1,
    max: 7,
    labels: 'Not at all|Very',
  },
  {
    id: 'fresh',
    text: 'How fresh is the fragrance?',
    type: 'numerical',
    min: 1,
    max: 5,
    labels: 'Not at all|Very',
  },
  {
    id: 'long_lasting',
    text: 'How long lasting is the fragrance?',
    type: 'numerical',
    min: 1,
    max: 5,
    labels: 'Not at all|Very',
  },
  {
    id: 'strength',
    text: 'Strength of the fragrance',
    type: 'jar',
    min: 1,
    max: 5,
    labels: 'Much too weak|Just right|Much too strong',
  },
  {
    id: 'purchase_intention',
    text: 'How likely would you buy it?',
    type: 'numerical',
    min: 1,
    max: 5,
    labels: 'Definitely not|Definitely',
  },
  { id: 'natural', text: 'Does it smell natural?', type: 'binary', min: 0, max: 1, labels: 'No|Yes' },
] as const;

/** Mulberry32: a small seeded generator, so the files never change between runs. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const clamp = (value: number, min: number, max: number): number =>
  Math.min(max, Math.max(min, Math.round(value)));

/** The sample files' contents, keyed by file name. */
export function sampleFiles(): Record<SampleFile, string> {
  const random = seeded(20261123);
  const header = [
    'respondent_id',
    'product_code',
    'gender',
    'age',
    ...QUESTIONS.map((question) => question.id),
  ];
  const lines = [header.join(',')];
  for (let r = 1; r <= RESPONDENTS; r += 1) {
    const gender = random() < 0.6 ? 'female' : 'male';
    const age = 18 + Math.floor(random() * 47);
    const taste = normal(random) * 0.6;
    for (const product of PRODUCTS) {
      const appeal = product.shift + taste + normal(random) * 0.8;
      const strengthError =
        normal(random) * 0.9 + (product.code === 'F103' ? -0.8 : product.code === 'F101' ? 0.5 : 0);
      const values = [
        clamp(6 + 1.4 * appeal - 0.6 * Math.abs(strengthError), 1, 9),
        clamp(4.6 + appeal + normal(random) * 0.6, 1, 7),
        clamp(3.2 + 0.5 * appeal + normal(random) * 0.7 + (product.code === 'F102' ? 0.8 : 0), 1, 5),
        clamp(3 + 0.4 * appeal + normal(random) * 0.8, 1, 5),
        clamp(3 + strengthError, 1, 5),
        clamp(3.1 + 0.8 * appeal + normal(random) * 0.6, 1, 5),
        random() < 0.45 + 0.15 * appeal ? 1 : 0,
      ];
      // A few missing answers, as real fieldwork has.
      const cells = values.map((value, index) => (index > 0 && random() < 0.02 ? '' : String(value)));
      lines.push([`R${String(r).padStart(3, '0')}`, product.code, gender, String(age), ...cells].join(','));
    }
  }
  const quote = (text: string): string => (/[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  return {
    'sample_data.csv': `${lines.join('\n')}\n`,
    'sample_scale.csv': `${[
      'question_id,text,type,scale_min,scale_max,labels,metric',
      ...QUESTIONS.map((question) =>
        [
          question.id,
          quote(question.text),
          question.type,
          question.min,
          question.max,
          quote(question.labels),
          question.id === 'natural' ? '' : question.id,
        ].join(','),
      ),
    ].join('\n')}\n`,
    'sample_regression.csv':
      'question_id,role\npleasant,driver\nfresh,driver\nlong_lasting,driver\nliking,outcome\n',
    'sample_products.csv': `${['product_code,product_name', ...PRODUCTS.map((product) => `${product.code},${quote(product.name)}`)].join('\n')}\n`,
  };
}

if (
  process.argv[1] &&
  fileURLToPath(import.meta.url) === process.argv[1] &&
  process.argv.includes('--write')
) {
  for (const [name, content] of Object.entries(sampleFiles()))
    writeFileSync(join(SAMPLES_DIR, name), content);
}
