import { describe, expect, it } from 'vitest';
import { CicsInspectRequest, isPhraseTerm, parseQuestionText, termText } from './cics.ts';

describe('parseQuestionText', () => {
  it('keeps double-quoted phrases whole and splits the rest on spaces', () => {
    expect(parseQuestionText('"smells clean"  fresh   long lasting')).toEqual([
      '"smells clean"',
      'fresh',
      'long',
      'lasting',
    ]);
    expect(parseQuestionText('fresh "every  day use" "clean"')).toEqual([
      'fresh',
      '"every day use"',
      '"clean"',
    ]);
  });

  it('drops empty phrases and blank text, and runs an unclosed quote to the end', () => {
    expect(parseQuestionText('   ')).toEqual([]);
    expect(parseQuestionText('"" fresh')).toEqual(['fresh']);
    expect(parseQuestionText('fresh "smells clean')).toEqual(['fresh', '"smells clean"']);
  });

  it('tells phrases from words', () => {
    expect(isPhraseTerm('"clean"')).toBe(true);
    expect(isPhraseTerm('smells clean')).toBe(true);
    expect(isPhraseTerm('clean')).toBe(false);
    expect(termText('"smells clean"')).toBe('smells clean');
  });
});

describe('CicsInspectRequest', () => {
  it('takes the age limits in order and refuses unknown filters', () => {
    expect(CicsInspectRequest.parse({ q: { Age: [18, 40] } }).q.Age).toEqual([18, 40]);
    expect(CicsInspectRequest.safeParse({ q: { Age: [40, 18] } }).success).toBe(false);
    expect(CicsInspectRequest.safeParse({ q: { Age: [0, 100] } }).success).toBe(false);
    expect(CicsInspectRequest.safeParse({ q: { City: ['Paris'] } }).success).toBe(false);
    expect(CicsInspectRequest.parse({}).q).toEqual({});
  });
});
