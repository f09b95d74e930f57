/**
 * A shown norm as a report workbook in the house style (lib/report-workbook.ts): the header block
 * names the base in words and the rule it meets, the table holds the counts, the mean and the
 * percentiles (typed: shares in %, means with 2 decimals, counts as integers), the histogram under it.
 */
import { NORM_RULE, type NormResponse } from '@accord/contracts';
import type { CellKind, ReportHeader, ReportTable } from '../../lib/report-workbook.ts';

/** How the norm's scores read: shares in % (one decimal), variances with 3 decimals, means with 2. */
function scoreKind(norm: NormResponse): CellKind {
  if (norm.aggregation.share) return 'share1';
  return norm.aggregation.value === 'variance' ? 'decimal' : 'mean';
}

/** A bin's edge as the screen writes scores: shares in %, other scores with 2 decimals. */
function binEdge(norm: NormResponse, value: number): string {
  return norm.aggregation.share ? `${(value * 100).toFixed(1)}%` : value.toFixed(2);
}

/** The workbook of a norm with status "available". */
export function normReport(
  norm: NormResponse,
  who: { author: string; date: Date },
): { header: ReportHeader; table: ReportTable } {
  const kind = scoreKind(norm);
  const measure = `${norm.metric.label}, ${norm.aggregation.label}`;
  const plural = norm.base.kind === 'concept' ? 'Concepts' : 'Fragrances';
  return {
    header: {
      title: `Norm: ${measure}`,
      source: [
        { label: 'Base', value: norm.base.description },
        { label: 'Metric', value: measure },
        {
          label: 'Scores',
          value: `one per ${norm.base.kind}, as the metric search computes it; percentiles by linear interpolation`,
        },
        {
          label: 'Privacy',
          value: `an anonymous aggregate of the library, shown when its base holds at least ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients`,
        },
      ],
      ...who,
      harmonised: true,
    },
    table: {
      columns: [
        { header: 'Statistic', kind: 'text', width: 34 },
        { header: 'Value', kind, width: 12 },
      ],
      rows: [
        { cells: [`${plural} (n)`, norm.products], kind: 'count' },
        { cells: ['Studies', norm.studies], kind: 'count' },
        { cells: ['Clients', norm.clients], kind: 'count' },
        ['Mean', norm.mean],
        ...norm.lines.map((line) => [line.label, line.value]),
      ],
      footnotes: [
        `${plural} without a score on the metric are not in the base.`,
        'Action standards: the score a product must reach to be in the top quartile or the top decile of the base.',
      ],
      // The bins under the same two columns (the sheet's widths are the main table's).
      more: [
        {
          title: 'Distribution',
          columns: [
            { header: 'Scores', kind: 'text', width: 34 },
            { header: plural, kind: 'count', width: 12 },
          ],
          rows: norm.histogram.map((bin, index) => [
            `${binEdge(norm, bin.from)} to ${index === norm.histogram.length - 1 ? '' : 'under '}${binEdge(norm, bin.to)}`,
            bin.count,
          ]),
        },
      ],
    },
  };
}
