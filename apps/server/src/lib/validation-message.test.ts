import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueInWords } from './validation-message.ts';

/** The first issue of a failed parse, as the Fastify validator hands it on. */
function firstIssue(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  const { code, path, message, ...params } = result.error.issues[0]!;
  return { keyword: code, path: path.map(String), message, params };
}

describe('issueInWords', () => {
  const query = z.strictObject({
    essentials: z.strictObject({
      cmiNumber: z.string().max(200).nullish(),
      client: z.array(z.string().min(1, 'Filter values must not be empty')).max(2).nullish(),
      startYear: z.number().int().min(1900).nullish(),
    }),
  });

  it('names a too long text by its label, with the limit, and never the path', () => {
    const message = issueInWords(firstIssue(query, { essentials: { cmiNumber: 'x'.repeat(201) } }));
    expect(message).toBe('CMI # must be at most 200 characters long.');
  });

  it('words lists, numbers, types and unknown keys', () => {
    expect(issueInWords(firstIssue(query, { essentials: { client: ['a', 'b', 'c'] } }))).toBe(
      'Client may hold at most 2 values.',
    );
    expect(issueInWords(firstIssue(query, { essentials: { startYear: 1800 } }))).toBe(
      'Start year must be at least 1900.',
    );
    expect(issueInWords(firstIssue(query, { essentials: { cmiNumber: 5 } }))).toBe('CMI # must be a text.');
    expect(issueInWords(firstIssue(query, { essentials: { colour: 'red' } }))).toBe(
      'Unknown field in essentials: colour.',
    );
    expect(issueInWords(firstIssue(z.object({ per_page: z.number() }), {}))).toBe('per_page is required.');
  });

  it("keeps a schema's own message after the field's name", () => {
    expect(issueInWords(firstIssue(query, { essentials: { client: [''] } }))).toBe(
      'Client: Filter values must not be empty',
    );
    const reset = z.object({ email: z.string().email('Please enter a valid e-mail address') });
    expect(issueInWords(firstIssue(reset, { email: 'b'.repeat(254) }))).toBe(
      'Email: Please enter a valid e-mail address',
    );
  });

  it('describes a union by the branch that came closest', () => {
    const condition = z.array(
      z.discriminatedUnion('field', [
        z.object({ field: z.literal('gender'), value: z.string().min(1) }),
        z.object({ field: z.literal('age'), from: z.number() }),
      ]),
    );
    expect(issueInWords(firstIssue(condition, [{ field: 'gender', value: '' }]))).toBe(
      'value must not be empty.',
    );
  });
});
