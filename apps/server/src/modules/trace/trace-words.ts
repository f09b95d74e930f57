/**
 * The trace in words: the original scale and its harmonisation (METRICS.md section 1), the rule of an
 * aggregation, the respondent filters, and the csv cells of the answers download.
 */
import {
  TRACE_MESSAGES,
  type Aggregation,
  type AnalyticsDemographicsFilter,
  type DemographicCondition,
} from '@accord/contracts';

/** A number as the trace writes it: integers plainly, others with up to 4 decimals. */
const plain = (value: number) => (Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4))));

/** The original scale, e.g. "1 to 9 (9 points)"; binary scales and continuous scores named as such. */
export function scaleWords(min: number | null, max: number | null, questionType: string): string {
  if (questionType === 'eeg') return 'Continuous EEG score';
  if (min === null || max === null) return 'No scale recorded';
  if (max - min === 1) return `${plain(min)} or ${plain(max)} (yes/no)`;
  const points = Number.isInteger(min) && Number.isInteger(max) ? ` (${max - min + 1} points)` : '';
  return `${plain(min)} to ${plain(max)}${points}`;
}

/** The transformation of an answer v to the common 5-point scale. */
export function harmonisationWords(min: number | null, max: number | null, questionType: string): string {
  if (questionType === 'eeg') return 'Not harmonised: the EEG score is used as it is.';
  if (min === null || max === null || !(max > min)) return 'Not harmonised: the question has no scale.';
  if (min === 1 && max === 5) return 'Already on the 5-point scale: h = v.';
  const shift = min === 0 ? 'v' : min < 0 ? `(v + ${plain(-min)})` : `(v − ${plain(min)})`;
  const formula = `h = 1 + 4 × ${shift} / ${plain(max - min)}`;
  return max - min === 1 ? `${formula}: ${plain(min)} becomes 1, ${plain(max)} becomes 5.` : `${formula}.`;
}

const BOX_RULES: Partial<Record<Aggregation, string>> = {
  top_box: 'h ≥ 4.5',
  top_2_box: 'h ≥ 3.5',
  just_right: '2.5 < h < 3.5',
  bottom_2_box: 'h ≤ 2.5',
  bottom_box: 'h ≤ 1.5',
  hi_yes: 'a fast "yes" (h ≥ 4.5)',
  irt_yes: 'a "yes" (h ≥ 3.5)',
  irt_no: 'a "no" (h ≤ 2.5)',
  hi_no: 'a fast "no" (h ≤ 1.5)',
};

/** How an aggregation is computed, for answers pooled or for product scores averaged. */
export function ruleWords(aggregation: Aggregation, unit: 'answers' | 'products', yesNo = false): string {
  const over = unit === 'answers' ? 'the answers counted' : 'each product’s answers';
  let rule: string;
  // A yes/no (CATA) answer is a share selected or not selected, never a mean (METRICS.md section 3).
  if (yesNo)
    rule =
      aggregation === 'bottom_box' || aggregation === 'bottom_2_box'
        ? `Share of ${over} not selecting it (% not selected; no is harmonised to 1)`
        : `Share of ${over} selecting it (% selected; yes is harmonised to 5)`;
  else if (aggregation === 'mean') rule = `Arithmetic mean of the harmonised answers h over ${over}`;
  else if (aggregation === 'eeg_mean') rule = `Arithmetic mean of the EEG scores over ${over}`;
  else if (aggregation === 'variance')
    rule = `Sample variance (n − 1) of the harmonised answers over ${over}`;
  else rule = `Share of ${over} with ${BOX_RULES[aggregation] ?? aggregation}`;
  return unit === 'answers'
    ? `${rule}.`
    : `${rule}, giving one score per product; the value is the mean of the product scores (each product counts once).`;
}

const FIELD_LABELS = {
  gender: 'Gender',
  ethnicity: 'Ethnicity',
  socialClass: 'Social class',
  social_class: 'Social class',
  bumo: 'Brand used most often',
} as const;

/** The respondent filters in words, one line each; a single line saying none when there are none. */
export function filterWords(
  demographics: AnalyticsDemographicsFilter,
  conditions: readonly DemographicCondition[],
): string[] {
  const lines: string[] = [];
  for (const key of ['gender', 'ethnicity', 'socialClass', 'bumo'] as const) {
    const values = [...new Set(demographics[key] ?? [])];
    if (values.length > 0) lines.push(`${FIELD_LABELS[key]}: ${values.join(' or ')}`);
  }
  const { startAge, endAge } = demographics;
  if (startAge != null && endAge != null) lines.push(`Age: ${startAge} to ${endAge}`);
  else if (startAge != null) lines.push(`Age: ${startAge} or older`);
  else if (endAge != null) lines.push(`Age: ${endAge} or younger`);
  for (const condition of conditions) {
    if (condition.field === 'age') lines.push(`Age: ${condition.filter.from} to ${condition.filter.to}`);
    else lines.push(`${FIELD_LABELS[condition.field]}: ${condition.filter.value}`);
  }
  return lines.length > 0 ? lines : [TRACE_MESSAGES.noFilters];
}

/**
 * A csv cell (RFC 4180): quoted when it holds a separator, quote or line break; a text starting with
 * =, +, - or @ gets a leading apostrophe so spreadsheets do not run it as a formula.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One csv line with its CRLF ending. */
export const csvLine = (cells: readonly (string | number)[]) => `${cells.map(csvCell).join(',')}\r\n`;
