import { describe, expect, it } from 'vitest';
import { mixSeed, mulberry32, Rng } from './prng.ts';

describe('mulberry32', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const take = (seed: number) => {
      const next = mulberry32(seed);
      return Array.from({ length: 5 }, () => next());
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
  });

  it('stays in [0, 1) with a mean near one half', () => {
    const next = mulberry32(7);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = next();
      if (!(x >= 0 && x < 1)) outside++;
      sum += x;
    }
    expect(outside).toBe(0);
    expect(sum / 100_000).toBeCloseTo(0.5, 2);
  });
});

describe('mixSeed', () => {
  it('is deterministic and separates neighbouring inputs', () => {
    expect(mixSeed(42, 1)).toBe(mixSeed(42, 1));
    expect(mixSeed(42, 1)).not.toBe(mixSeed(42, 2));
    expect(mixSeed(42, 1)).not.toBe(mixSeed(43, 1));
  });
});

describe('Rng', () => {
  it('draws integers in the closed range and normals with the asked moments', () => {
    const rng = new Rng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(rng.int(1, 5));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
    const draws = Array.from({ length: 50_000 }, () => rng.normal(2, 3));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    const sd = Math.sqrt(draws.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws.length - 1));
    expect(mean).toBeCloseTo(2, 1);
    expect(sd).toBeCloseTo(3, 1);
  });

  it('samples distinct elements and respects weights', () => {
    const rng = new Rng(3);
    const sample = rng.sample([1, 2, 3, 4, 5, 6], 4);
    expect(new Set(sample).size).toBe(4);
    let heavy = 0;
    for (let i = 0; i < 10_000; i++) if (rng.weighted(['a', 'b'], [9, 1]) === 'a') heavy++;
    expect(heavy / 10_000).toBeGreaterThan(0.87);
    expect(heavy / 10_000).toBeLessThan(0.93);
  });
});
