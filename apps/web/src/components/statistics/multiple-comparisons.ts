import {
  MULTIPLE_COMPARISONS,
  MULTIPLE_COMPARISON_LABELS,
  type MultipleComparisons,
  type StatisticsTestType,
} from '@accord/contracts';

/** Tukey HSD compares means (parametric tests) and is two-sided (two-tailed test types only). */
export function tukeyAllowed(parametric: boolean, testTypes: readonly StatisticsTestType[]): boolean {
  return parametric && testTypes.every((type) => type.startsWith('two_'));
}

/** The multiple comparisons choices of the wizard and the study statistics page (Tukey only where allowed). */
export function multipleComparisonOptions(
  parametric: boolean,
  testTypes: readonly StatisticsTestType[],
): { value: MultipleComparisons; label: string; disabled?: boolean }[] {
  const tukey = tukeyAllowed(parametric, testTypes);
  return MULTIPLE_COMPARISONS.map((value) => ({
    value,
    label: MULTIPLE_COMPARISON_LABELS[value],
    ...(value === 'tukey_hsd' && !tukey ? { disabled: true } : {}),
  }));
}
