/**
 * Slide decks of the analytics screens: native, editable PowerPoint charts of what a screen shows,
 * a title slide and, on every slide, the filters, bases and test in words.
 */
import { z } from 'zod';
import { MetricPageQuery } from './analytics-pages.ts';
import { EssentialsFilter } from './search.ts';

export const PPTX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

export const METRICS_DECK_FILE_NAME = 'fragrance_metrics.pptx';
export const PERFORMANCE_DECK_FILE_NAME = 'fragrance_performance.pptx';
export const ATTRIBUTES_DECK_FILE_NAME = 'fragrance_attributes.pptx';
export const TENDENCIES_DECK_FILE_NAME = 'fragrance_tendencies.pptx';
export const FRAGRANCE_DECK_FILE_NAME = 'fragrance_tests.pptx';
export const NORM_DECK_FILE_NAME = 'norm.pptx';
export const RANKING_DECK_FILE_NAME = 'ranking.pptx';
export const CATEGORY_PROFILE_DECK_FILE_NAME = 'category_profile.pptx';
export const GROUP_COMPARISON_DECK_FILE_NAME = 'group_comparison.pptx';

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

/**
 * POST /category-profile/pptx: the category profile as it is shown, its families under the study
 * filters searched and, once a family was chosen, its finished top fragrances job.
 */
export const CategoryProfileDeckRequest = z
  .strictObject({
    essentials: EssentialsFilter.prefault({}).meta({
      description: 'The study filters the families were counted under (as POST /analytics/tendencies).',
    }),
    top: z.string().uuid('Not a job id').nullish().meta({
      description: 'A finished top fragrances job of yours (POST /category-profile/top-fragrances).',
    }),
  })
  .meta({ id: 'CategoryProfileDeckRequest' });
export type CategoryProfileDeckRequest = z.input<typeof CategoryProfileDeckRequest>;
