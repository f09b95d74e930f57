/**
 * Direction of the alternative hypothesis, as in SciPy and R: "greater" means the first sample (or the
 * sample against a known value) is larger.
 */
export type Alternative = 'two-sided' | 'greater' | 'less';

/** The three alternatives, in the order used by tests and option lists. */
export const ALTERNATIVES: readonly Alternative[] = ['two-sided', 'greater', 'less'];

/** Throws a RangeError for a value that is not one of the three alternatives (guards untyped callers). */
export function assertAlternative(alternative: string): asserts alternative is Alternative {
  if (!(ALTERNATIVES as readonly string[]).includes(alternative)) {
    throw new RangeError(`Unknown alternative "${alternative}"; expected two-sided, greater or less`);
  }
}
