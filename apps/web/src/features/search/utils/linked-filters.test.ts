import { describe, expect, it } from 'vitest';
import { defaultFilters, readLinkedFilters } from './filters.ts';

describe('readLinkedFilters', () => {
  it('uses a sound link whole', () => {
    const linked = readLinkedFilters(
      JSON.stringify({ essentials: { cmiNumber: 'CMI-2024', region: ['Europe'] } }),
    );
    expect(linked.problems).toEqual([]);
    expect(linked.filters.essentials.cmiNumber).toBe('CMI-2024');
    expect(linked.filters.essentials.region).toEqual(['Europe']);
  });

  it('leaves out a 300-character filter, says so in words, and keeps the other filters', () => {
    const linked = readLinkedFilters(
      JSON.stringify({
        essentials: { cmiNumber: 'x'.repeat(300), region: ['Europe'] },
        fragranceDetails: { family: ['y'.repeat(250)] },
      }),
    );
    expect(linked.problems).toEqual([
      'CMI # is 300 characters long, longer than the 200 a filter may be, so it was left out.',
      'Family is 250 characters long, longer than the 200 a filter may be, so it was left out.',
    ]);
    expect(linked.filters.essentials.cmiNumber).toBe(defaultFilters().essentials.cmiNumber);
    expect(linked.filters.fragranceDetails.family).toEqual([]);
    expect(linked.filters.essentials.region).toEqual(['Europe']);
  });

  it('says when the link cannot be read at all, and opens without filters', () => {
    const linked = readLinkedFilters('{"essentials":');
    expect(linked.problems).toEqual([
      'The filters of this link could not be read, so the search opens without them.',
    ]);
    expect(linked.filters).toEqual(defaultFilters());
    expect(readLinkedFilters(null)).toEqual({ filters: defaultFilters(), problems: [] });
  });
});
