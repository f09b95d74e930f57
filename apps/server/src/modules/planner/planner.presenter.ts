/**
 * A plan as a report workbook in the house style (lib/report-workbook.ts): the header names the base,
 * the design and the levels; the table holds the estimates from the base and the consumers needed,
 * the action standard plan under it, then the power curve.
 */
import { PLAN_DESIGN_NAMES, type PlanResponse } from '@accord/contracts';
import type { ReportHeader, ReportRow, ReportTable } from '../../lib/report-workbook.ts';

/** The workbook of a plan with status "available" and a plan. */
export function planReport(
  plan: PlanResponse,
  who: { author: string; date: Date },
): { header: ReportHeader; table: ReportTable } {
  const share = plan.aggregation.share;
  const measure = `${plan.metric.label}, ${plan.aggregation.label}`;
  const estimates = plan.estimates!;
  const answer = plan.plan!;
  const difference = share ? `${plan.difference} points` : `${plan.difference} on the 5-point mean`;
  const rows: ReportRow[] = [
    { cells: ['Studies in the base', plan.base_studies], kind: 'count' },
    { cells: ['Clients in the base', plan.base_clients], kind: 'count' },
    {
      cells: [`${plan.base.kind === 'concept' ? 'Concepts' : 'Fragrances'} in the base`, plan.base_products],
      kind: 'count',
    },
    { cells: ['Answers of the base', estimates.answers], kind: 'count' },
    share
      ? { cells: ['Share of the base', estimates.share], kind: 'share1' }
      : {
          cells: ['Standard deviation of one answer (pooled within products)', estimates.sd],
          kind: 'decimal',
        },
    {
      cells: ["Correlation of a consumer's answers to two products", estimates.correlation],
      kind: 'decimal',
    },
    {
      cells: ['Complete-block studies behind the correlation', estimates.correlation_studies],
      kind: 'count',
    },
    { cells: [`Test: ${answer.test}`, null], kind: 'text', groupStart: true },
    { cells: ['Effect size', answer.effect_size], kind: 'decimal' },
    { cells: ['Pairs of products', answer.comparisons], kind: 'count' },
    { cells: ['Alpha per pair', answer.alpha_per_comparison], kind: 'p' },
    ...(answer.per_product === null
      ? []
      : [{ cells: ['Consumers per product', answer.per_product], kind: 'count' } as ReportRow]),
    { cells: ['Consumers in all', answer.total], kind: 'count', emphasis: true },
  ];
  const standard = plan.action_standard;
  const more: NonNullable<ReportTable['more']>[number][] = [];
  if (standard) {
    more.push({
      title: "Against the action standard: to show a fragrance beats the category's top quartile",
      columns: [
        { header: 'Statistic', kind: 'text', width: 52 },
        { header: 'Value', kind: 'decimal', width: 14 },
      ],
      rows: [
        { cells: ['P75 of the base', standard.p75], kind: share ? 'share1' : 'mean' },
        { cells: [`Test: ${standard.plan.test}`, null], kind: 'text' },
        { cells: ['Alpha per product', standard.plan.alpha_per_comparison], kind: 'p' },
        ...(standard.plan.per_product === null
          ? []
          : [{ cells: ['Consumers per product', standard.plan.per_product], kind: 'count' } as ReportRow]),
        { cells: ['Consumers in all', standard.plan.total], kind: 'count', emphasis: true },
      ],
    });
  }
  more.push({
    title: `Power curve: the smallest difference detectable with ${Math.round(plan.power * 100)} % power`,
    columns: [
      {
        header: plan.design === 'monadic' ? 'Consumers per product' : 'Consumers in all',
        kind: 'count',
        width: 52,
      },
      { header: share ? 'Difference (points)' : 'Difference (5-point mean)', kind: 'decimal', width: 14 },
    ],
    rows: plan.curve.map((point) => [
      { value: point.consumers, kind: 'count' },
      {
        value: share ? Number(point.difference.toFixed(1)) : point.difference,
        kind: share ? 'decimal' : 'mean',
      },
    ]),
  });
  return {
    header: {
      title: `Study plan: ${measure}`,
      source: [
        { label: 'Base', value: plan.base.description },
        { label: 'Metric', value: measure },
        { label: 'Design', value: `${PLAN_DESIGN_NAMES[plan.design]}, ${plan.products} products` },
        {
          label: 'Plan',
          value: `a difference of ${difference}, alpha ${plan.alpha} (two-sided), power ${Math.round(plan.power * 100)} %${
            plan.correction === 'bonferroni' ? ', Bonferroni across the pairs of products' : ''
          }`,
        },
      ],
      ...who,
      harmonised: true,
      notes: [answer.words, ...(standard ? [standard.plan.words] : [])],
    },
    table: {
      columns: [
        { header: 'Statistic', kind: 'text', width: 52 },
        { header: 'Value', kind: 'decimal', width: 14 },
      ],
      rows,
      footnotes: plan.notes,
      more,
    },
  };
}
