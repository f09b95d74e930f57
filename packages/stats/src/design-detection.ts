// Reads the design of a product test from who rated what (METRICS.md section 3), before any test is
// chosen: the design sets the default of "paired" and decides between the paired, the intra-block and
// the independent analyses.

/** Designs, in the order they are tried. */
export type DesignKind = 'independent' | 'complete_block' | 'balanced_incomplete_block' | 'incomplete_block';

/** Result of {@link designDetection}. */
export interface DesignDetection {
  design: DesignKind;
  /** Distinct products. */
  products: number;
  /** Distinct respondents. */
  respondents: number;
}

/** Plain-language names of the designs, as results and legends print them. */
export const DESIGN_LABELS: Record<DesignKind, string> = {
  independent: 'independent groups (each respondent rated one product)',
  complete_block: 'complete block (every respondent rated every product)',
  balanced_incomplete_block: 'balanced incomplete block (each respondent rated some of the products)',
  incomplete_block: 'incomplete block (respondents rated different or missing sets of products)',
};

/**
 * The design of the answers `respondents[i]` gave about `products[i]` (one row per answer), the first
 * that applies: independent (every respondent has exactly one row), complete block (every respondent
 * rated every product exactly once), balanced incomplete block (every respondent rated the same number
 * r of distinct products once each, 2 ≤ r < k, every product by the same number of respondents and
 * every pair of products together by the same number of respondents), otherwise incomplete block.
 * No rows at all read as independent with 0 products and 0 respondents.
 * @throws RangeError when the arrays differ in length.
 */
export function designDetection(
  respondents: readonly (string | number)[],
  products: readonly string[],
): DesignDetection {
  if (respondents.length !== products.length) {
    throw new RangeError(
      `Design detection needs one product per answer (got ${respondents.length} respondents and ${products.length} products)`,
    );
  }
  const productIndex = new Map<string, number>();
  for (const product of products)
    if (!productIndex.has(product)) productIndex.set(product, productIndex.size);
  const k = productIndex.size;
  // Rows per respondent, as product indices in answer order.
  const rated = new Map<string | number, number[]>();
  respondents.forEach((respondent, i) => {
    const list = rated.get(respondent) ?? [];
    list.push(productIndex.get(products[i] as string) ?? 0);
    rated.set(respondent, list);
  });
  const result = (design: DesignKind): DesignDetection => ({ design, products: k, respondents: rated.size });
  const blocks = [...rated.values()];
  if (blocks.every((block) => block.length === 1)) return result('independent');
  const distinct = blocks.map((block) => new Set(block));
  const once = blocks.every((block, i) => block.length === distinct[i]?.size);
  if (once && blocks.every((block) => block.length === k)) return result('complete_block');
  const r = blocks[0]?.length ?? 0;
  if (!once || r < 2 || r >= k || blocks.some((block) => block.length !== r))
    return result('incomplete_block');
  const replicates = new Array<number>(k).fill(0);
  const together = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const block of blocks) {
    for (const a of block) {
      replicates[a] = (replicates[a] ?? 0) + 1;
      for (const b of block)
        if (a < b) (together[a] as number[])[b] = ((together[a] as number[])[b] ?? 0) + 1;
    }
  }
  const lambda = together[0]?.[1];
  const balanced =
    replicates.every((count) => count === replicates[0]) &&
    together.every((row, a) => row.every((count, b) => b <= a || count === lambda));
  return result(balanced ? 'balanced_incomplete_block' : 'incomplete_block');
}
