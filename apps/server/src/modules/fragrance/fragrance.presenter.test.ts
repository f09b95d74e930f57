import { fragranceSentence, FRAGRANCE_MESSAGES } from '@accord/contracts';
import { derSimonianLaird, metaHksj } from '@accord/stats';
import { describe, expect, it } from 'vitest';
import type { Sums } from '../analytics/analytics-metrics.ts';
import { addByMetric, fragranceResponse, pooledOf, scoreOf, type ScoredTest } from './fragrance.presenter.ts';
import type { FragranceTestRecord } from './fragrance.repository.ts';

/** Sufficient statistics of harmonised answers. */
function sumsOf(values: number[]): Sums {
  return {
    n: values.length,
    sum: values.reduce((a, b) => a + b, 0),
    sumSq: values.reduce((a, b) => a + b * b, 0),
    nTopBox: values.filter((v) => v >= 4.5).length,
    nTop2Box: values.filter((v) => v >= 3.5).length,
    nJustRight: values.filter((v) => v > 2.5 && v < 3.5).length,
    nBottom2Box: values.filter((v) => v <= 2.5).length,
    nBottomBox: values.filter((v) => v <= 1.5).length,
  };
}

const liking = {
  id: 1,
  name: 'liking' as const,
  label: 'Liking',
  metricType: 'Performance',
  kind: 'hedonic' as const,
};
const strength = {
  id: 3,
  name: 'strength' as const,
  label: 'Strength',
  metricType: 'Performance',
  kind: 'jar' as const,
};

function record(studyId: number, overrides: Partial<FragranceTestRecord> = {}): FragranceTestRecord {
  return {
    productId: studyId * 10,
    studyId,
    cMiNumber: `CMI-${studyId}`,
    projectName: `Project ${studyId}`,
    client: 'Client',
    year: 2020 + studyId,
    region: ['Europe'],
    market: 'France',
    methodology: 'Home use',
    category: 'Fabric Care',
    productType: 'Liquid',
    prod: '101',
    name: 'Rose Dawn',
    family: 'Floral',
    subfamily: 'Rose',
    perfumerName: null,
    verified: true,
    createdAt: new Date(0),
    ...overrides,
  };
}

describe('scoreOf', () => {
  it('gives the mean, the sample sd, top 2 box and just right of the answers', () => {
    const score = scoreOf(sumsOf([1, 3, 4, 5]), 'hedonic');
    expect(score.mean).toBe(3.25);
    expect(score.sd).toBeCloseTo(Math.sqrt(((1 - 3.25) ** 2 + 0.25 ** 2 + 0.75 ** 2 + 1.75 ** 2) / 3), 12);
    expect(score).toMatchObject({ top_2_box: 0.5, just_right: 0.25, n: 4 });
  });
});

describe('pooledOf', () => {
  it('pools the study means with variance sd²/n by DerSimonian-Laird', () => {
    const studies = [
      [1, 2, 3, 4, 5],
      [3, 4, 4, 5, 5, 5],
      [2, 2, 3, 3],
    ];
    const pooled = pooledOf(
      liking,
      studies.map((values) => ({ liking: sumsOf(values) })),
    );
    const expected = derSimonianLaird(
      studies.map((values) => {
        const score = scoreOf(sumsOf(values), 'hedonic');
        return { mean: score.mean!, sd: score.sd!, n: values.length };
      }),
    );
    expect(pooled).toMatchObject({ metric: 'liking', label: 'Liking', k: 3 });
    expect(pooled.estimate).toBeCloseTo(expected.estimate, 12);
    expect(pooled.ci_low).toBeCloseTo(expected.ciLow, 12);
    expect(pooled.i2).toBeCloseTo(expected.i2, 12);
    expect(pooled.tau2).toBeGreaterThan(0);
    // The interval shown: Hartung-Knapp-Sidik-Jonkman, and Higgins' prediction interval from 3 studies.
    const hksj = metaHksj(
      studies.map((values) => {
        const score = scoreOf(sumsOf(values), 'hedonic');
        return { mean: score.mean!, sd: score.sd!, n: values.length };
      }),
    );
    expect(pooled.hk_ci_low).toBeCloseTo(hksj.hkCiLow, 12);
    expect(pooled.hk_ci_high).toBeCloseTo(hksj.hkCiHigh, 12);
    expect(pooled.pi_low).toBeCloseTo(hksj.piLow, 12);
    expect(pooled.pi_high).toBeCloseTo(hksj.piHigh, 12);
    expect(pooled.pi_high! - pooled.pi_low!).toBeGreaterThan(pooled.hk_ci_high! - pooled.hk_ci_low!);
  });

  it('has no prediction interval from two studies', () => {
    const two = pooledOf(liking, [{ liking: sumsOf([1, 2, 4, 5]) }, { liking: sumsOf([3, 4, 4, 5]) }]);
    expect(two.k).toBe(2);
    expect(two.hk_ci_low).not.toBeNull();
    expect(two.pi_low).toBeNull();
    expect(two.pi_high).toBeNull();
  });

  it('pools nothing with one study, and leaves out studies without a spread', () => {
    const one = pooledOf(liking, [{ liking: sumsOf([1, 4, 5]) }, { liking: sumsOf([3, 3, 3]) }, {}]);
    expect(one).toMatchObject({
      k: 1,
      estimate: null,
      ci_low: null,
      ci_high: null,
      i2: null,
      tau2: null,
      q: null,
    });
  });
});

describe('fragranceResponse', () => {
  it('pools verified studies once each, and groups them by market and year', () => {
    const tests: ScoredTest[] = [
      { record: record(3, { market: 'Brazil' }), sums: { liking: sumsOf([4, 5, 5]) } },
      { record: record(2, { verified: false }), sums: { liking: sumsOf([1, 1, 2]) } },
      { record: record(1), sums: { liking: sumsOf([2, 3, 4]), strength: sumsOf([3, 3, 4]) } },
      { record: { ...record(1), productId: 11, prod: '102' }, sums: { liking: sumsOf([3, 5]) } },
    ];
    const found = fragranceResponse('123456', tests, [liking, strength]);
    expect(found).toMatchObject({ code: '123456', name: 'Rose Dawn', family: 'Floral' });
    expect(found.pooling_group).toEqual({ category: 'Fabric Care', methodology: 'Home use', studies: 2 });
    expect(found.tests.map((test) => [test.study_id, test.pooled, test.base])).toEqual([
      [3, true, 3],
      [2, false, 3],
      [1, true, 3],
      [1, true, 2],
    ]);
    const pooledLiking = found.pooled.find((entry) => entry.metric === 'liking')!;
    expect(pooledLiking.k).toBe(2);
    const study1 = addByMetric([tests[2]!.sums, tests[3]!.sums]).liking!;
    expect(study1.n).toBe(5);
    // Strength is never pooled as a mean; its shares stay per test.
    expect(found.pooled.map((entry) => entry.metric)).toEqual(['liking']);
    expect(found.tests[2]!.scores.strength).toMatchObject({
      just_right: 2 / 3,
      top_2_box: 1 / 3,
      bottom_2_box: 0,
    });
    expect(found.by_market.map((group) => [group.key, group.tests])).toEqual([
      ['Brazil', 1],
      ['France', 1],
    ]);
    expect(found.by_market[1]!.scores.liking!.n).toBe(5);
    expect(found.by_year.map((group) => group.key)).toEqual(['2021', '2023']);
  });
});

describe('pooling within one category and methodology', () => {
  const tests: ScoredTest[] = [
    { record: record(5, { category: 'Hair Care' }), sums: { liking: sumsOf([4, 5, 5, 3]) } },
    { record: record(4, { market: 'Brazil' }), sums: { liking: sumsOf([4, 5, 3, 4]) } },
    { record: record(3, { market: 'Spain' }), sums: { liking: sumsOf([2, 3, 4, 4]) } },
    { record: record(2, { verified: false }), sums: { liking: sumsOf([1, 1, 2]) } },
    { record: record(1), sums: { liking: sumsOf([2, 3, 4, 5]) } },
  ];

  it('pools the group with the most verified studies by default and says why the others are not', () => {
    const found = fragranceResponse('123456', tests, [liking, strength]);
    expect(found.pooling_groups).toEqual([
      { category: 'Fabric Care', methodology: 'Home use', studies: 3 },
      { category: 'Hair Care', methodology: 'Home use', studies: 1 },
    ]);
    expect(found.pooled[0]!.k).toBe(3);
    expect(found.tests.map((test) => test.not_pooled_reason)).toEqual([
      FRAGRANCE_MESSAGES.otherGroup,
      null,
      null,
      FRAGRANCE_MESSAGES.notPooled,
      null,
    ]);
    expect(found.by_market.reduce((acc, group) => acc + group.tests, 0)).toBe(3);
    expect(fragranceSentence(found)).toMatch(
      /^Across 3 tests in 3 markets, liking is \d\.\d \(\d\.\d-\d\.\d\); the tests (agree|differ)/,
    );
  });

  it('pools another group when it is chosen', () => {
    const found = fragranceResponse('123456', tests, [liking], {
      category: 'Hair Care',
      methodology: 'Home use',
      studies: 1,
    });
    expect(found.tests.filter((test) => test.pooled).map((test) => test.study_id)).toEqual([5]);
    expect(found.pooled[0]).toMatchObject({ k: 1, estimate: null, hk_ci_low: null });
    expect(fragranceSentence(found)).toBeNull();
  });
});
