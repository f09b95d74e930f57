// Adjusted p-values for a family of tests (METRICS.md section 3: the pairwise comparisons of one
// question), as statsmodels `multipletests(method="holm" | "fdr_bh")`. Missing p-values (non-finite)
// keep NaN and are not counted in the family; adjusted values are capped at 1.

function finiteOrder(pValues: readonly number[]): number[] {
  return pValues
    .map((value, index) => ({ value, index }))
    .filter((entry) => Number.isFinite(entry.value))
    .sort((left, right) => left.value - right.value || left.index - right.index)
    .map((entry) => entry.index);
}

/**
 * Holm's step-down adjustment (family-wise error rate): with the m finite p-values sorted ascending,
 * adjusted p₍ᵢ₎ = max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎). Same order as the input.
 * @throws RangeError for a finite p-value outside [0, 1].
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  assertProbabilities(pValues);
  const order = finiteOrder(pValues);
  const m = order.length;
  const adjusted = pValues.map(() => Number.NaN);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * (pValues[index] ?? Number.NaN)));
    adjusted[index] = running;
  });
  return adjusted;
}

/**
 * Benjamini-Hochberg step-up adjustment (false discovery rate): with the m finite p-values sorted
 * ascending, adjusted p₍ᵢ₎ = min over j ≥ i of min(1, m·p₍ⱼ₎ / j). Same order as the input.
 * @throws RangeError for a finite p-value outside [0, 1].
 */
export function benjaminiHochbergAdjust(pValues: readonly number[]): number[] {
  assertProbabilities(pValues);
  const order = finiteOrder(pValues);
  const m = order.length;
  const adjusted = pValues.map(() => Number.NaN);
  let running = 1;
  for (let rank = m - 1; rank >= 0; rank--) {
    const index = order[rank] ?? 0;
    running = Math.min(running, (m * (pValues[index] ?? Number.NaN)) / (rank + 1));
    adjusted[index] = running;
  }
  return adjusted;
}

function assertProbabilities(pValues: readonly number[]): void {
  const bad = pValues.find((value) => Number.isFinite(value) && (value < 0 || value > 1));
  if (bad !== undefined) throw new RangeError(`A p-value must lie in [0, 1] (got ${bad})`);
}
