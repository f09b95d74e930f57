import { describe, expect, it } from 'vitest';
import { METRICS } from '../../seed/catalogue.ts';
import { planStudy, DEFAULT_SHAPE } from '../../seed/study-plan.ts';
import { measureSuggestionAccuracy, type LabelledQuestion } from './suggest-accuracy.ts';
import { compatibleKinds, MetricSuggester, stem, tokens, type MappingExample } from './suggest.ts';

const catalogue = METRICS.map(({ id, name, label, kind }) => ({ id, name, label, kind }));
const id = (name: string) => METRICS.find((m) => m.name === name)!.id;

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
    expect(stem('energising')).toBe(stem('energizing'));
    expect(stem('liking')).toBe(stem('like'));
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
    const text = 'Rate the overall performance of the scent';
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

describe('accuracy on the demo library', () => {
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
