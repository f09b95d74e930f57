/**
 * Slide decks of the analytics screens: native, editable PowerPoint charts of what a screen shows,
 * a title slide and, on every slide, the filters, bases and test in words.
 */
import { z } from 'zod';
import { MetricPageQuery } from './analytics-pages.ts';

export const PPTX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

export const METRICS_DECK_FILE_NAME = 'fragrance_metrics.pptx';
export const PERFORMANCE_DECK_FILE_NAME = 'fragrance_performance.pptx';
export const ATTRIBUTES_DECK_FILE_NAME = 'fragrance_attributes.pptx';
export const TENDENCIES_DECK_FILE_NAME = 'fragrance_tendencies.pptx';
export const FRAGRANCE_DECK_FILE_NAME = 'fragrance_tests.pptx';
export const NORM_DECK_FILE_NAME = 'norm.pptx';
export const RANKING_DECK_FILE_NAME = 'ranking.pptx';

/** Bars a chart slide holds at most; longer lists continue on the next slide. */
export const DECK_BARS_PER_SLIDE = 25;

/**
 * GET /analytics/fragrances/pptx/{jobId}: the rows the metrics table shows (its search text, mark
 * filter, sort and page), or with `selected` the selected rows in the table's order.
 */
export const MetricsDeckQuery = MetricPageQuery.extend({
  selected: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({ description: 'The selected rows (up to the largest page) instead of the page shown.' }),
});
export type MetricsDeckQuery = z.input<typeof MetricsDeckQuery>;
export type ParsedMetricsDeckQuery = z.output<typeof MetricsDeckQuery>;
