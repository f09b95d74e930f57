import { describe, expect, it } from 'vitest';
import { textLimit } from './text-limit.ts';

describe('textLimit', () => {
  it('always sets the maxlength and hints only near the limit', () => {
    expect(textLimit('CMI-2024', 200)).toEqual({ maxLength: 200 });
    expect(textLimit('x'.repeat(185), 200)).toEqual({
      maxLength: 200,
      description: '185 of 200 characters.',
    });
    expect(textLimit('x'.repeat(200), 200)).toEqual({
      maxLength: 200,
      description: 'Limit reached: at most 200 characters.',
    });
  });
});
