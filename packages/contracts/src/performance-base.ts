/**
 * What the performance tab and fragrance_performance.xlsx say about their base (METRICS.md section 2b,
 * issue 28 item 12): each row pools the answers of its products, so products weigh by their
 * respondents, and a product with several values of the breakdown field (a study run in several
 * regions) counts in every row of its values.
 */

/** The base of the performance table in words, for the screen and the workbook. */
export function performanceBaseNotes(noun: 'products' | 'concepts' = 'products'): string[] {
  const Noun = noun === 'concepts' ? 'Concepts' : 'Products';
  return [
    `Base: each row pools the answers of its ${noun}; "${Noun}" counts the ${noun} with an answer to a shown metric, "Base n" the answers. A ${noun.slice(0, -1)} with more respondents weighs more in its row.`,
    `A ${noun.slice(0, -1)} with several values of the field (a study run in several regions or countries) counts in each of its rows: rows may share ${noun}, so their counts may add up to more ${noun} than were searched.`,
  ];
}
