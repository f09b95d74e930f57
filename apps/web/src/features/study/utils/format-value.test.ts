import { describe, expect, it } from 'vitest';
import { EMPTY_VALUE, formatValue } from './format-value.ts';

describe('formatValue', () => {
  it.each([
    [null, EMPTY_VALUE],
    [undefined, EMPTY_VALUE],
    ['', EMPTY_VALUE],
    ['No Tag', EMPTY_VALUE],
    [[], EMPTY_VALUE],
    [['No Tag', ''], EMPTY_VALUE],
    [['APAC', 'No Tag', 'EMEA'], 'APAC, EMEA'],
    ['Hair Care', 'Hair Care'],
    [0, '0'],
    [12.5, '12.5'],
    [true, 'Yes'],
    [false, 'No'],
  ])('%j shows %j', (value, expected) => {
    expect(formatValue(value)).toBe(expected);
  });
});
