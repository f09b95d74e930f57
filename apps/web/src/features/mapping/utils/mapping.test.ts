import type { MappingQuestion, MetricOption } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  confidenceLabel,
  formatRange,
  metricOptions,
  metricsUsedInFile,
  pageCount,
  pageOf,
  sortedValueNames,
  suggestionReasons,
  valuePreview,
  visibleQuestions,
} from './mapping.ts';

const question = (qid: string, metric: string | null, validated = false): MappingQuestion => ({
  id: Number(qid.slice(1)),
  qid,
  text: `Question ${qid}`,
  question_type: 'numerical',
  domain: { type: 'numerical', min: 1, max: 9, values: [], value: null },
  metric: metric ? { name: metric, label: metric } : null,
  suggested_metric: null,
  suggestion: null,
  metric_validated: validated,
  results_id: 1,
  filename: 'results.csv',
  path: 'results/results.csv',
});

describe('mapping utils', () => {
  it('formats domains', () => {
    expect(formatRange({ type: 'numerical', min: 0, max: 10, values: [], value: null })).toBe('0 to 10');
    const names = sortedValueNames({
      type: 'categorical',
      min: 1,
      max: 4,
      values: [
        { name: 'Night', value: 4 },
        { name: 'Daytime', value: 2 },
        { name: 'Morning', value: 1 },
      ],
      value: null,
    });
    expect(names).toEqual(['Daytime', 'Morning', 'Night']);
    expect(valuePreview(names)).toEqual({ shown: ['Daytime', 'Morning'], more: true });
    expect(valuePreview(['A', 'B'])).toEqual({ shown: ['A', 'B'], more: false });
  });

  it('hides validated questions unless all are shown, and pages by 25', () => {
    const questions = Array.from({ length: 30 }, (_, i) => question(`Q${i + 1}`, null, i < 3));
    expect(visibleQuestions(questions, false)).toHaveLength(27);
    expect(visibleQuestions(questions, true)).toHaveLength(30);
    expect(pageCount(30)).toBe(2);
    expect(pageCount(0)).toBe(1);
    expect(pageOf(questions, 2).map((q) => q.qid)).toEqual(['Q26', 'Q27', 'Q28', 'Q29', 'Q30']);
  });

  it('disables a metric another question of the file uses', () => {
    const catalogue: MetricOption[] = [
      { name: 'liking', label: 'Overall Liking', metric_type: 'Performance', kind: 'hedonic' },
      { name: 'clean', label: 'Clean', metric_type: 'Attribute', kind: 'hedonic' },
    ];
    const used = metricsUsedInFile([question('Q1', 'liking'), question('Q2', null)]);
    expect(metricOptions(catalogue, used, 'Q2')).toEqual([
      {
        group: 'Performance',
        items: [{ value: 'liking', label: 'Overall Liking (used by Q1)', disabled: true }],
      },
      { group: 'Attribute', items: [{ value: 'clean', label: 'Clean', disabled: false }] },
    ]);
    expect(metricOptions(catalogue, used, 'Q1')[0]!.items[0]).toMatchObject({ disabled: false });
  });
});

describe('suggestion explanation', () => {
  it('says how sure in words and why, strongest reason first', () => {
    const detail = {
      confidence: 'medium' as const,
      score: 0.9,
      reasons: [
        {
          kind: 'words' as const,
          weight: 0.9,
          words: ['tranquil'],
          term: 'tranquil',
          source: 'wordnet-synonym' as const,
          via: 'calm',
        },
        {
          kind: 'words' as const,
          weight: 1,
          words: ['at', 'ease'],
          term: 'at ease',
          source: 'catalogue' as const,
          via: null,
        },
        {
          kind: 'words' as const,
          weight: 0.75,
          words: ['velvety'],
          term: 'velvety',
          source: 'wordnet-related' as const,
          via: 'soft',
        },
        { kind: 'example' as const, weight: 0.42, text: 'It calms me down.', count: 3 },
        { kind: 'example' as const, weight: 1, text: 'Relaxing', count: 1 },
        {
          kind: 'scale' as const,
          weight: 0.8,
          labels: ['Dislike extremely', 'Dislike very much', 'Like extremely'],
        },
        { kind: 'scale' as const, weight: 0.8, labels: ['Definitely would buy'] },
      ],
    };
    expect(confidenceLabel(detail)).toBe('Medium confidence');
    expect(confidenceLabel({ ...detail, confidence: 'high' })).toBe('High confidence');
    expect(suggestionReasons(detail)).toEqual([
      'Words “tranquil” (a synonym of “calm” in WordNet)',
      'Words “at ease”',
      'Words “velvety” (related to “soft” in WordNet)',
      'Like the validated question “It calms me down.” (42 % alike, validated 3 times)',
      'Like the validated question “Relaxing” (100 % alike)',
      'Scale labels “Dislike extremely” to “Like extremely”',
      'Scale labels “Definitely would buy”',
    ]);
  });
});
