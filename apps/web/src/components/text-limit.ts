/** How close to its limit a text input starts to show how much room is left. */
const HINT_FROM = 20;

/**
 * The maxlength of a text input and its hint: the input stops at the length its request schema takes
 * (so the server never refuses it), and near the limit the hint says how much is used.
 */
export function textLimit(value: string, max: number): { maxLength: number; description?: string } {
  if (value.length < max - HINT_FROM) return { maxLength: max };
  return {
    maxLength: max,
    description:
      value.length >= max
        ? `Limit reached: at most ${max} characters.`
        : `${value.length} of ${max} characters.`,
  };
}
