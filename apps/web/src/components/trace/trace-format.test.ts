import { describe, expect, it } from 'vitest';
import { outcomeText, pValueText, traceValue } from './trace-format.ts';

describe('trace numbers in words', () => {
  it('writes values as the tables do', () => {
    expect(traceValue('mean', 4.155)).toBe('4.16');
    expect(traceValue('variance', 1)).toBe('1.00');
    expect(traceValue('top_2_box', 0.625)).toBe('63%');
    expect(traceValue('hi_yes', 0)).toBe('0%');
    expect(traceValue('mean', null)).toBe('-');
    expect(traceValue('mean', Number.NaN)).toBe('-');
  });

  it('writes p-values with 4 significant digits, tiny ones as a bound', () => {
    expect(pValueText(0.012345)).toBe('p = 0.01235');
    expect(pValueText(0.5)).toBe('p = 0.5');
    expect(pValueText(0.00009)).toBe('p < 0.0001');
    expect(pValueText(null)).toBe('Not testable');
  });

  it('names the outcome of a test', () => {
    const base = { test: 'welch-t', description: '', p_value: 0.003, reference: 3 };
    expect(outcomeText({ ...base, level: 0.01, direction: 'mt' })).toBe('Higher, significant at 99 %');
    expect(outcomeText({ ...base, level: 0.1, direction: 'let' })).toBe('Lower, significant at 90 %');
    expect(outcomeText({ ...base, level: null, direction: null })).toBe('Not significant');
  });
});
