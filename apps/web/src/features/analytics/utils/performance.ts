/**
 * Pure helpers of the performance tab (document 3 section 2.1): breakdown labels. The rows' order
 * (sortPerformance) is shared with the download and lives in @accord/contracts.
 */
import { BREAKDOWN_FIELD_LABELS, BREAKDOWN_FIELDS } from '@accord/contracts';

export const METADATA_TYPES = [
  { value: 'metadata', label: 'Study metadata' },
  { value: 'fragrance', label: 'Fragrance' },
] as const;

export function breakdownLabel(field: string): string {
  return BREAKDOWN_FIELD_LABELS[field] ?? field;
}

export function breakdownOptions(category: 'metadata' | 'fragrance'): { value: string; label: string }[] {
  return BREAKDOWN_FIELDS[category].map((field) => ({ value: field, label: breakdownLabel(field) }));
}
