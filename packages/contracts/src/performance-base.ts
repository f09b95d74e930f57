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

/**
 * The heading of a yes/no (CATA) metric in the performance breakdown: its share "% selected" (top
 * boxes and the mean, which is 1 + 4 × that share), or "% not selected" for a bottom box; null for
 * the variance and the neutral share, which a yes/no answer does not have.
 */
export function yesNoHeading(aggregation: string, label: string): string | null {
  if (aggregation === 'top_box' || aggregation === 'top_2_box' || aggregation === 'mean')
    return `% selected ${label}`;
  if (aggregation === 'bottom_box' || aggregation === 'bottom_2_box') return `% not selected ${label}`;
  return null;
}

/**
 * The aggregation label of a yes/no (CATA) column of the metric search, its pages, charts, workbook
 * and decks: "% selected" for the top boxes and the mean, "% not selected" for the bottom boxes;
 * null for the variance and the neutral share, which a yes/no answer does not have (no value).
 */
export function yesNoAggregationLabel(aggregation: string): string | null {
  const heading = yesNoHeading(aggregation, '');
  return heading === null ? null : heading.trim();
}
