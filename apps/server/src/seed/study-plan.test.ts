import { describe, expect, it } from 'vitest';
import { METRICS } from './catalogue.ts';
import { harmoniseToFivePoint } from './latent-model.ts';
import { generateAnswers, planStudy, type LibraryShape } from './study-plan.ts';

const shape: LibraryShape = { seed: 42, products: 8, respondents: 150, questions: 25, lastYear: 2025 };

describe('planStudy', () => {
  it('is deterministic per (seed, index)', () => {
    const a = planStudy(shape, 3);
    const b = planStudy(shape, 3);
    expect(b.metadata).toEqual(a.metadata);
    expect(b.products.map((p) => p.latent.quality)).toEqual(a.products.map((p) => p.latent.quality));
    expect(generateAnswers(b, shape.seed)).toEqual(generateAnswers(a, shape.seed));
    expect(planStudy({ ...shape, seed: 43 }, 3).metadata).not.toEqual(a.metadata);
  });

  it('builds the requested shape with known metrics and years in range', () => {
    for (let index = 0; index < 40; index++) {
      const plan = planStudy(shape, index);
      expect(plan.products).toHaveLength(8);
      expect(plan.respondents).toHaveLength(150);
      expect(plan.questions).toHaveLength(25);
      expect(plan.metadata.year).toBeGreaterThanOrEqual(2010);
      expect(plan.metadata.year).toBeLessThanOrEqual(2025);
      expect(plan.metadata.region).not.toContain('APAC');
      const ids = new Set(METRICS.map((m) => m.id));
      for (const q of plan.questions) {
        if (q.metricId !== null) expect(ids.has(q.metricId)).toBe(true);
        expect(q.scale.max).toBeGreaterThan(q.scale.min);
      }
      expect(plan.questions[0]?.role).toBe('liking');
    }
  });

  it('re-tests some fragrances in other studies under the same code, one code meaning one fragrance', () => {
    const tests = new Map<
      string,
      { study: number; name: string; refNumber: string; family: string; quality: number }[]
    >();
    for (let index = 0; index < 200; index++) {
      const plan = planStudy(shape, index);
      const codes = plan.fragrances.map((fragrance) => fragrance.code);
      expect(new Set(codes).size).toBe(codes.length);
      plan.fragrances.forEach((fragrance, slot) => {
        expect(fragrance.code).toMatch(/^[1-9]\d{5}$/);
        const list = tests.get(fragrance.code) ?? [];
        list.push({
          study: index,
          name: fragrance.name,
          refNumber: fragrance.refNumber,
          family: fragrance.family,
          quality: plan.products[slot]!.latent.quality,
        });
        tests.set(fragrance.code, list);
      });
    }
    const retested = [...tests.values()].filter((list) => list.length > 1);
    // A share of the fragrances, mostly in 2-5 studies.
    expect(retested.length).toBeGreaterThan(tests.size * 0.04);
    expect(retested.filter((list) => list.length <= 5).length).toBeGreaterThan(retested.length * 0.8);
    for (const list of retested) {
      const first = list[0]!;
      for (const test of list) {
        expect(test).toMatchObject({ name: first.name, refNumber: first.refNumber, family: first.family });
        expect(test.quality).toBe(first.quality);
      }
    }
  });

  it('generates answers on each question scale, harmonising into [1, 5]', () => {
    // Counting violations keeps the test fast: one assertion per study instead of one per answer.
    for (let index = 0; index < 20; index++) {
      const plan = planStudy(shape, index);
      const values = generateAnswers(plan, shape.seed);
      const perQuestion = plan.products.length * plan.respondents.length;
      let answered = 0;
      const problems: string[] = [];
      plan.questions.forEach((q, i) => {
        for (let k = i * perQuestion; k < (i + 1) * perQuestion; k++) {
          const v = values[k] as number;
          if (Number.isNaN(v)) continue;
          answered++;
          const h = harmoniseToFivePoint(v, q.scale.min, q.scale.max);
          const onScale = v >= q.scale.min && v <= q.scale.max && (!q.scale.integer || Number.isInteger(v));
          if (!onScale || h < 1 || h > 5) problems.push(`${q.qid}=${v}`);
        }
      });
      expect(problems.slice(0, 5)).toEqual([]);
      // Incomplete block designs rate 5 of 8 products per respondent.
      expect(answered).toBeGreaterThanOrEqual(0.6 * values.length);
    }
  });

  it('centres strength near just right and correlates purchase intention with liking', () => {
    const plan = planStudy(shape, 0);
    const values = generateAnswers(plan, shape.seed);
    const perQuestion = plan.products.length * plan.respondents.length;
    const column = (role: string) => {
      const q = plan.questions.findIndex((question) => question.role === role);
      const { min, max } = plan.questions[q]!.scale;
      return Array.from(values.subarray(q * perQuestion, (q + 1) * perQuestion)).map((v) =>
        harmoniseToFivePoint(v, min, max),
      );
    };
    const strength = column('strength').filter((v) => !Number.isNaN(v));
    const meanStrength = strength.reduce((a, b) => a + b, 0) / strength.length;
    expect(Math.abs(meanStrength - 3)).toBeLessThan(0.5);
    const liking = column('liking');
    const purchase = column('purchase_intention');
    const pairs = liking.map((l, i) => [l, purchase[i]!] as const).filter(([l, p]) => !Number.isNaN(l + p));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const mx = mean(pairs.map(([x]) => x));
    const my = mean(pairs.map(([, y]) => y));
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (const [x, y] of pairs) {
      sxy += (x - mx) * (y - my);
      sxx += (x - mx) ** 2;
      syy += (y - my) ** 2;
    }
    expect(sxy / Math.sqrt(sxx * syy)).toBeGreaterThan(0.5);
  });
});
