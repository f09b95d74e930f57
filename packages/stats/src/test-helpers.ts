import { expect } from 'vitest';

/** Asserts |actual − expected| ≤ relative·|expected| (or ≤ relative when expected is 0). */
export function expectRelative(actual: number, expected: number, relative = 1e-12): void {
  expect(Number.isNaN(actual), `expected ${expected}, got NaN`).toBe(false);
  const allowed = expected === 0 ? relative : relative * Math.abs(expected);
  expect(Math.abs(actual - expected), `got ${actual}, expected ${expected}`).toBeLessThanOrEqual(allowed);
}
