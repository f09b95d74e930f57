/** Side chart labels over 28 characters are cut to 25 plus an ellipsis (document 3 section 9). */
export function sideChartLabel(text: string): string {
  return text.length > 28 ? `${text.slice(0, 25)}…` : text;
}

/** Other chart labels over 18 characters are cut to 15 plus '...'. */
export function chartLabel(text: string): string {
  return text.length > 18 ? `${text.slice(0, 15)}...` : text;
}
