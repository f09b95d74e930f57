import { describe, expect, it } from 'vitest';
import { breakdownOptions } from './performance.ts';

describe('performance helpers', () => {
  it('labels the breakdown fields', () => {
    expect(breakdownOptions('metadata')[0]).toEqual({ value: 'client', label: 'Client' });
    expect(breakdownOptions('fragrance').map((option) => option.label)).toContain('Perfumer Name');
  });
});
