import type { FragrancePooled, FragranceResponse, FragranceTest } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  agreementWords,
  formatInterval,
  formatMean,
  formatShare,
  groupLabel,
  groupMeans,
  intervalsOf,
  poolingState,
  poolSentence,
  yearSpan,
} from './fragrance-format.ts';

const test = (studyId: number, year: number, pooled = true): FragranceTest => ({
  study_id: studyId,
  c_mi_number: `CMI-${studyId}`,
  project_name: 'Project',
  client: 'Client',
  year,
  region: [],
  market: null,
  methodology: null,
  category: null,
  product_type: null,
  prod: '101',
  name: 'Rose',
  verified: pooled,
  pooled,
  not_pooled_reason: pooled ? null : 'Not verified: listed, not pooled.',
  base: 100,
  scores: {},
});

const response = (tests: FragranceTest[]): FragranceResponse => ({
  code: '123456',
  name: 'Rose',
  family: null,
  subfamily: null,
  perfumer_name: null,
  tests,
  pooling_group: null,
  pooling_groups: [],
  pool: 'group',
  pool_label: 'One category and methodology',
  pool_caution: null,
  pooled: [],
  by_market: [],
  by_year: [],
});

describe('fragrance page wording', () => {
  it('says in words whether the tests agree, from I²', () => {
    expect(agreementWords(0)?.verdict).toBe('Tests agree');
    expect(agreementWords(0.249)?.verdict).toBe('Tests agree');
    expect(agreementWords(0.25)?.verdict).toBe('Tests differ somewhat');
    expect(agreementWords(0.74)?.verdict).toBe('Tests differ somewhat');
    expect(agreementWords(0.75)?.verdict).toBe('Tests differ');
    expect(agreementWords(null)).toBeNull();
  });

  it('pools nothing with one verified study, and counts studies once', () => {
    expect(poolingState(response([test(1, 2020), test(1, 2020), test(2, 2021, false)]))).toEqual({
      studies: 1,
      message: 'One study tested this fragrance: there is nothing to pool yet.',
    });
    expect(poolingState(response([test(1, 2020), test(2, 2024)])).message).toBeNull();
    expect(yearSpan(response([test(1, 2024), test(2, 2016)]))).toBe('2016-2024');
    expect(yearSpan(response([test(1, 2021)]))).toBe('2021');
  });

  it('formats means, shares, intervals and chart points', () => {
    expect(formatMean(3.456)).toBe('3.46');
    expect(formatMean(null)).toBe('-');
    expect(formatShare(0.625)).toBe('63%');
    expect(formatInterval(3.1, 3.789)).toBe('3.10 to 3.79');
    expect(formatInterval(null, 3.789)).toBe('-');
    const pooled = {
      ci_low: 3.3,
      ci_high: 3.6,
      hk_ci_low: 3.2,
      hk_ci_high: 3.7,
      pi_low: null,
      pi_high: null,
    } as FragrancePooled;
    expect(intervalsOf(pooled)).toEqual({
      hksj: '3.20 to 3.70',
      prediction: 'needs 3 studies',
      normal: '3.30 to 3.60',
    });
    expect(intervalsOf({ ...pooled, pi_low: 2.9, pi_high: 4.01 }).prediction).toBe('2.90 to 4.01');
    expect(groupLabel({ category: 'Fabric Care', methodology: null, studies: 2 })).toBe(
      'Fabric Care · No methodology',
    );
    expect(
      groupMeans(
        [
          {
            key: 'France',
            tests: 1,
            scores: {
              liking: { mean: 3.456, sd: 1, top_2_box: 0.5, just_right: 0.2, bottom_2_box: 0.1, n: 9 },
            },
          },
          { key: 'Spain', tests: 1, scores: {} },
        ],
        'liking',
      ),
    ).toEqual([3.46, null]);
  });

  it('names the tests pooled: one group by default, every methodology of its category, or every test', () => {
    const group = { category: 'Fabric Care', methodology: 'Home use', studies: 2 };
    const base = { ...response([test(1, 2020), test(2, 2021), test(3, 2022, false)]), pooling_group: group };
    expect(poolSentence(base)).toBe(
      'Pooled: the verified tests of one category and methodology, Fabric Care · Home use (2 studies). Tests of another category or methodology are listed below, not pooled.',
    );
    expect(poolSentence({ ...base, pool: 'category' })).toBe(
      'Pooled: the verified tests of every methodology of Fabric Care (2 studies). Tests of another category are listed below, not pooled.',
    );
    expect(poolSentence({ ...base, pool: 'all' })).toBe(
      'Pooled: every verified test, of every category and methodology (2 studies).',
    );
    expect(poolSentence(response([test(1, 2020)]))).toBeNull();
  });
});
