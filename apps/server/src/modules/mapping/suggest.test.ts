import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METRICS } from '../../seed/catalogue.ts';
import { SCALES } from '../../seed/scales.ts';
import { planStudy, DEFAULT_SHAPE } from '../../seed/study-plan.ts';
import {
  examplesOf,
  measureRealisticAccuracy,
  measureSuggestionAccuracy,
  type LabelledQuestion,
  type RealisticSet,
} from './suggest-accuracy.ts';
import { compatibleKinds, MetricSuggester, stem, tokens, type MappingExample } from './suggest.ts';

const catalogue = METRICS.map(({ id, name, label, kind }) => ({ id, name, label, kind }));
const id = (name: string) => METRICS.find((m) => m.name === name)!.id;

/** Validated mappings of a demo library of 120 studies, as the suggester reads them. */
let demo: MappingExample[] | null = null;
function demoExamples(): MappingExample[] {
  const shape = { ...DEFAULT_SHAPE, seed: 11, lastYear: 2025, respondents: 1 };
  demo ??= [
    ...examplesOf(
      Array.from({ length: 120 }, (_, index) =>
        planStudy(shape, index).questions.map((q) => ({
          text: q.text,
          questionType: q.questionType,
          scaleMin: q.scale.min,
          scaleMax: q.scale.max,
          metricId: q.metricId,
          validated: q.metricValidated,
          truth: q.suggestedMetricId,
        })),
      ).flat(),
    ).values(),
  ];
  return demo;
}

const numerical = (text: string, scaleMin = 1, scaleMax = 9) => ({
  text,
  questionType: 'numerical' as const,
  scaleMin,
  scaleMax,
});

describe('tokens and stem', () => {
  it('drops stop words and numbers, and meets word forms', () => {
    expect(tokens('How much do you agree that this fragrance smells clean? (repeat 2)')).toEqual(
      ['agree', 'smells', 'clean', 'repeat'].map(stem),
    );
    expect(tokens('How much do you like the fragrance at the long lasting stage?')).toEqual([stem('like')]);
    expect(stem('relaxing')).toBe(stem('relax'));
    expect(stem('energising')).toBe(stem('energise'));
    expect(stem('liking')).toBe(stem('like'));
    // Porter would make these other words.
    expect(stem('likely')).not.toBe(stem('like'));
    expect(stem('homely')).not.toBe(stem('home'));
    expect(stem('acceptability')).not.toBe(stem('acceptable'));
  });
});

describe('compatibleKinds', () => {
  it('reads the scale', () => {
    expect(compatibleKinds({ questionType: 'jar', scaleMin: 1, scaleMax: 5 })).toEqual(['jar']);
    expect(compatibleKinds({ questionType: 'numerical', scaleMin: 0, scaleMax: 1 })).toEqual(['binary']);
    expect(compatibleKinds({ questionType: 'numerical', scaleMin: 1, scaleMax: 7 })).toEqual(['hedonic']);
    expect(compatibleKinds({ questionType: 'categorical', scaleMin: 1, scaleMax: 4 })).toEqual([]);
    expect(compatibleKinds({ questionType: 'constant', scaleMin: null, scaleMax: null })).toEqual([]);
  });

  it('reads JAR and yes/no labels on a numerical scale', () => {
    const labels = (names: string[]) => names.map((name, i) => ({ name, value: i + 1 }));
    expect(
      compatibleKinds({
        questionType: 'numerical',
        scaleMin: 1,
        scaleMax: 5,
        labels: labels([
          'Far too weak',
          'A little too weak',
          'Just right',
          'A little too strong',
          'Far too strong',
        ]),
      }),
    ).toEqual(['jar']);
    expect(
      compatibleKinds({ questionType: 'numerical', scaleMin: 1, scaleMax: 3, labels: labels(['No', 'Yes']) }),
    ).toEqual(['binary']);
    expect(
      compatibleKinds({ questionType: 'numerical', scaleMin: 1, scaleMax: 5, labels: 'not a list' }),
    ).toEqual(['hedonic']);
  });
});

describe('MetricSuggester', () => {
  const empty = new MetricSuggester(catalogue, []);

  it('suggests from catalogue synonyms alone', () => {
    expect(empty.suggest(numerical('Overall, how much do you like this scent?'))).toBe(id('liking'));
    expect(empty.suggest(numerical('How likely would you be to purchase it?', 1, 5))).toBe(
      id('purchase_intention'),
    );
    expect(empty.suggest(numerical('Please rate: it feels luxurious', 1, 5))).toBe(id('premium'));
    expect(
      empty.suggest({ text: 'Strength of the scent', questionType: 'jar', scaleMin: 1, scaleMax: 5 }),
    ).toBe(id('strength'));
  });

  it('keeps to the metrics the scale allows', () => {
    // Intensity on a 1-10 rating is not the JAR strength metric.
    expect(empty.suggest(numerical('How intense is the fragrance at first smell?', 1, 10))).toBeNull();
    expect(
      empty.suggest({ text: 'Implicit: feels clean?', questionType: 'implicit', scaleMin: 1, scaleMax: 4 }),
    ).toBe(id('irt_clean'));
    expect(
      empty.suggest({ text: 'Describe it: Clean', questionType: 'binary', scaleMin: 0, scaleMax: 1 }),
    ).toBeNull();
    expect(
      empty.suggest({
        text: 'When do you like to use it?',
        questionType: 'categorical',
        scaleMin: 1,
        scaleMax: 4,
      }),
    ).toBeNull();
  });

  it('suggests nothing when no metric fits', () => {
    expect(empty.suggest(numerical('The fragrance matches what I expect from this brand.', 1, 5))).toBeNull();
    expect(empty.suggest(numerical('How suitable is this fragrance for the product?', 1, 5))).toBeNull();
  });

  it('learns from validated mappings of the library, and the majority wins a conflict', () => {
    const text = 'Score of the performance of sample 372';
    expect(empty.suggest(numerical(text))).toBeNull();
    const examples: MappingExample[] = [
      { text, questionType: 'numerical', metricId: id('liking'), count: 12 },
      { text, questionType: 'numerical', metricId: id('natural'), count: 1 },
    ];
    const learned = new MetricSuggester(catalogue, examples);
    expect(learned.suggest(numerical(text))).toBe(id('liking'));
    expect(learned.suggest(numerical(`${text} (after 4 hours)`))).toBe(id('liking'));
    // An example of another scale kind does not leak into this one.
    expect(learned.suggest({ text, questionType: 'jar', scaleMin: 1, scaleMax: 5 })).toBeNull();
  });
});

/**
 * The tests below plan a demo library of 120 studies and judge every one of its 3,000 questions with a
 * suggester built without that study's own mappings: a fixed amount of work, whose duration says
 * only how busy the machine is (4 s on an idle one, past 5 s when other work shares its cores). They
 * measure accuracy, not speed, so they run without the default time limit; the suggester's speed in
 * use (one study's questions) is not what they are about.
 */
const UNTIMED = { timeout: 0 };

describe('accuracy on the demo library', UNTIMED, () => {
  it('suggests the generator’s true metric for at least 90 % of the questions', () => {
    const shape = { ...DEFAULT_SHAPE, seed: 11, lastYear: 2025, respondents: 1 };
    const studies: LabelledQuestion[][] = Array.from({ length: 120 }, (_, index) =>
      planStudy(shape, index).questions.map((q) => ({
        text: q.text,
        questionType: q.questionType,
        scaleMin: q.scale.min,
        scaleMax: q.scale.max,
        metricId: q.metricId,
        validated: q.metricValidated,
        truth: q.suggestedMetricId,
      })),
    );
    const report = measureSuggestionAccuracy(catalogue, studies);
    if (process.env.SHOW_ACCURACY) console.log(report);
    expect(report.questions).toBe(120 * DEFAULT_SHAPE.questions);
    expect(report.withMetric).toBeGreaterThan(0);
    expect(report.withoutMetric).toBeGreaterThan(0);
    expect(report.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(report.withoutMetricCorrect / report.withoutMetric).toBeGreaterThanOrEqual(0.9);
  });
});

const labelled = (
  text: string,
  scale: (typeof SCALES)[keyof typeof SCALES],
  questionType: 'numerical' | 'jar' = 'numerical',
) => ({
  text,
  questionType,
  scaleMin: scale.min,
  scaleMax: scale.max,
  labels: scale.labels,
});
const cata = (text: string) => ({ text, questionType: 'binary' as const, scaleMin: 0, scaleMax: 1 });

describe('suggestions from how researchers word questions', UNTIMED, () => {
  const empty = new MetricSuggester(catalogue, []);

  it('reads paraphrases, WordNet synonyms and British spellings', () => {
    expect(empty.suggest(numerical('The scent puts me at ease.', 1, 5))).toBe(id('relaxing'));
    expect(empty.suggest(numerical('It feels tranquil.', 1, 5))).toBe(id('relaxing'));
    expect(empty.suggest(numerical('The scent lingers on the towel the next morning.', 1, 5))).toBe(
      id('long_lasting'),
    );
    expect(empty.suggest(numerical('The scent feels upmarket.', 1, 5))).toBe(id('premium'));
    expect(empty.suggest(numerical('It feels cosy.', 1, 5))).toBe(id('comforting'));
    expect(empty.suggest(numerical('It feels cozy.', 1, 5))).toBe(id('comforting'));
    expect(empty.suggest(cata('Energising'))).toBe(id('energizing'));
    expect(empty.suggest(cata('Revitalizing'))).toBe(id('energizing'));
    expect(empty.suggest(cata('Tender'))).toBe(id('soft'));
    expect(empty.suggest(cata('Flirty'))).toBe(id('sensual'));
    expect(empty.suggest(cata('Zesty'))).toBe(id('energizing'));
    // A comparative meets its adjective.
    expect(empty.suggest(numerical('This makes the room smell fresher.', 1, 5))).toBe(id('fresh'));
  });

  it('takes the scale as evidence', () => {
    expect(empty.suggest(labelled('Sample 481', SCALES.hedonic9))).toBe(id('liking'));
    expect(empty.suggest(labelled('Sample 481', SCALES.agree5))).toBeNull();
    expect(empty.suggest(labelled('Which of these applies to you?', SCALES.purchase5))).toBe(
      id('purchase_intention'),
    );
    expect(empty.suggest(labelled('Is the smell of the air freshener...', SCALES.jar5, 'jar'))).toBe(
      id('strength'),
    );
    const yesNo = [
      { name: 'No', value: 0 },
      { name: 'Yes', value: 1 },
    ];
    const ask = (text: string) => ({
      text,
      questionType: 'numerical' as const,
      scaleMin: 0,
      scaleMax: 1,
      labels: yesNo,
    });
    expect(empty.suggest(ask('Would you describe this fragrance as feminine?'))).toBe(id('feminine'));
    expect(empty.suggest(ask('Have you smelled this fragrance before?'))).toBeNull();
  });

  it('does not take a comparison, a negation or an antonym for the metric', () => {
    expect(empty.suggest(numerical('It smells like a sea breeze.', 1, 5))).toBe(id('fresh'));
    expect(empty.suggest(numerical('How likely are you to recommend it?', 1, 5))).toBe(
      id('purchase_intention'),
    );
    expect(empty.suggest(numerical('The scent is not relaxing at all.', 1, 5))).toBeNull();
    expect(empty.suggest(numerical('This fragrance smells old-fashioned.', 1, 5))).toBeNull();
    expect(empty.suggest(cata('Old-fashioned'))).toBeNull();
    expect(empty.suggest(cata('Up to date'))).toBe(id('modern'));
    expect(empty.suggest(numerical('It smells unnatural.', 1, 5))).toBeNull();
    // Nor does a validated question it resembles make a denial the metric.
    const learned = new MetricSuggester(catalogue, demoExamples());
    const agree = (text: string) => labelled(text, SCALES.agree5);
    expect(learned.suggest(agree('How much do you agree that this fragrance is long lasting?'))).toBe(
      id('long_lasting'),
    );
    expect(learned.suggest(agree('The perfume is not long lasting.'))).toBeNull();
  });

  it('does not let a shared questionnaire template outweigh the words', () => {
    // Every implicit question of the demo library reads "Implicit association: does this fragrance
    // feel ...?"; comforting is also a WordNet relative of relaxing (comfortable).
    const learned = new MetricSuggester(catalogue, demoExamples());
    const implicit = (text: string) => ({
      text,
      questionType: 'implicit' as const,
      scaleMin: 1,
      scaleMax: 4,
    });
    for (const attribute of ['comforting', 'relaxing', 'natural', 'fresh'])
      expect(learned.suggest(implicit(`Implicit association: does this fragrance feel ${attribute}?`))).toBe(
        id(`irt_${attribute}`),
      );
  });

  it('suggests nothing where two metrics are as likely', () => {
    expect(empty.suggest(numerical('It smells clean and fresh.', 1, 5))).toBeNull();
    expect(empty.rank(numerical('It smells clean and fresh.', 1, 5)).map((r) => r.metricId)).toEqual(
      expect.arrayContaining([id('clean'), id('fresh')]),
    );
  });

  it('explains a suggestion: the words, the WordNet relation, the validated question, the scale', () => {
    const ease = empty.explain(numerical('The scent puts me at ease.', 1, 5));
    expect(ease).toMatchObject({ metricId: id('relaxing'), confidence: 'high' });
    expect(ease?.reasons[0]).toMatchObject({ kind: 'words', words: ['at', 'ease'], source: 'catalogue' });
    // Soothing is relaxing, though comforting too in a lesser way: suggested, but not for sure.
    const calm = empty.explain(numerical('I find this scent soothing.', 1, 5));
    expect(calm).toMatchObject({ metricId: id('relaxing'), confidence: 'medium' });
    expect(calm?.reasons[0]).toMatchObject({ kind: 'words', words: ['soothing'] });
    const tranquil = empty.explain(numerical('It feels tranquil.', 1, 5));
    expect(tranquil?.reasons[0]).toMatchObject({
      kind: 'words',
      words: ['tranquil'],
      source: 'wordnet-synonym',
      via: 'calm',
    });
    const text = 'Score of the performance of sample 372';
    const learned = new MetricSuggester(catalogue, [
      { text, questionType: 'numerical', metricId: id('liking'), count: 3 },
    ]);
    const liked = learned.explain(labelled(text, SCALES.hedonic9));
    expect(liked?.reasons.map((r) => r.kind)).toEqual(['example', 'scale']);
    expect(liked?.reasons[0]).toMatchObject({ text, count: 3, weight: 1 });
    expect(liked?.reasons[1]).toMatchObject({
      kind: 'scale',
      labels: expect.arrayContaining(['Like extremely']),
    });
    expect(liked?.confidence).toBe('high');
    // A lone related word is suggested with medium confidence.
    expect(empty.explain(cata('Velvety'))).toMatchObject({ metricId: id('soft'), confidence: 'medium' });
  });
});

describe('accuracy on questions worded as real questionnaires word them', () => {
  const set = JSON.parse(
    readFileSync(new URL('./fixtures/realistic-questions.json', import.meta.url), 'utf8'),
  ) as RealisticSet;

  it('holds at least 150 questions, with and without a metric, and a held-out part', () => {
    expect(set.questions.length).toBeGreaterThanOrEqual(150);
    expect(set.questions.filter((q) => q.metric === null).length).toBeGreaterThanOrEqual(30);
    expect(set.questions.filter((q) => q.heldOut).length / set.questions.length).toBeGreaterThanOrEqual(0.3);
    const names = new Set(METRICS.map((m) => m.name));
    for (const q of set.questions) if (q.metric) expect(names.has(q.metric), q.metric).toBe(true);
  });

  it('suggests the right metric (or rightly none) for at least 95 %, and never a wrong one', () => {
    const report = measureRealisticAccuracy(catalogue, [], set);
    if (process.env.SHOW_ACCURACY)
      console.log(
        report.outcomes.filter((o) => o.outcome !== 'right').map((o) => [o.question.text, o.suggested]),
      );
    expect(report.questions).toBe(set.questions.length);
    expect(report.accuracy).toBeGreaterThanOrEqual(0.95);
    expect(report.outcomes.filter((o) => o.outcome === 'wrong').map((o) => o.question.text)).toEqual([]);
  });
});
