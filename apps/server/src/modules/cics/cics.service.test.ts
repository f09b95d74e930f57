import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from './cics.repository.ts';
import { queryTerms, questionStatistics } from './cics.service.ts';

const question = (overrides: Partial<QuestionRecord>): QuestionRecord => ({
  id: 1,
  qid: 'Q1',
  text: 'Question',
  question_type: 'numerical',
  scale_min: 1,
  scale_max: 5,
  labels: [],
  study_id: 1,
  c_mi_number: 'CMI-1',
  project_name: 'Project',
  client: 'Client',
  year: 2020,
  study_region: [],
  ...overrides,
});

describe('queryTerms', () => {
  it('keeps phrases and words once, without blanks', () => {
    expect(queryTerms(['"smells clean"', 'Fresh', 'fresh', '  ', '""', 'long lasting'])).toEqual([
      { text: 'smells clean', phrase: true },
      { text: 'Fresh', phrase: false },
      { text: 'long lasting', phrase: true },
    ]);
  });
});

describe('questionStatistics', () => {
  it('reads a binary (CATA) question as 1 or 5: no neutral share (null), top box is the selected share', () => {
    const stats = questionStatistics(
      question({
        question_type: 'binary',
        scale_min: 0,
        scale_max: 1,
        labels: [
          { name: 'Not selected', value: 0 },
          { name: 'Selected', value: 1 },
        ],
      }),
      [
        { value: 0, count: 3 },
        { value: 1, count: 1 },
      ],
      4,
    );
    expect(stats.kind).toBe('scaled');
    expect(stats.binary_scale).toBe(true);
    expect(stats.statistics).toMatchObject({
      n: 4,
      mean: 2,
      top_box: 0.25,
      just_right: null,
      bottom_box: 0.75,
    });
    expect(stats.statistics.Answers).toEqual({ 'Not selected': 3, Selected: 1 });
  });

  it('reads a strength (JAR) question on its scale and flags it', () => {
    const stats = questionStatistics(question({ question_type: 'jar' }), [{ value: 3, count: 2 }], 2);
    expect(stats.strength).toBe(true);
    expect(stats.statistics).toMatchObject({ n: 2, mean: 3, just_right: 1, top_2_box: 0 });
  });

  it('keeps an EEG score continuous: its own mean and five bands, no boxes', () => {
    const stats = questionStatistics(
      question({ question_type: 'eeg', scale_min: 0, scale_max: 1 }),
      [
        { value: 0.1, count: 1 },
        { value: 0.5, count: 2 },
        { value: 1, count: 1 },
      ],
      4,
    );
    expect(stats.kind).toBe('continuous');
    expect(stats.statistics.mean).toBeCloseTo(0.525, 9);
    expect(stats.statistics.top_box).toBeNull();
    expect(stats.answers.map((answer) => answer.count)).toEqual([1, 0, 2, 0, 1]);
    expect(stats.answers[0]!.label).toBe('0.00–0.20');
  });

  it('counts answers outside the labels under their own value', () => {
    const stats = questionStatistics(
      question({ labels: [{ name: 'Low', value: 1 }] }),
      [
        { value: 1, count: 1 },
        { value: 4, count: 1 },
      ],
      2,
    );
    expect(stats.answers.map((answer) => [answer.label, answer.count])).toEqual([
      ['Low', 1],
      ['4', 1],
    ]);
  });
});
