/**
 * Norms calls (METRICS.md section 5), shared by the norms screen and the norm buttons beside product
 * scores elsewhere: the options of the screen, a norm, a product's percentile rank, the workbook.
 */
import {
  MESSAGES,
  NORM_DECK_FILE_NAME,
  NORMS_FILE_NAME,
  NormOptionsResponse,
  NormRankResponse,
  NormResponse,
  type Aggregation,
} from '@accord/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { showAlert } from '../../lib/alerts.ts';
import { apiFetch, apiJson } from '../../lib/api-client.ts';
import { saveBlob } from '../../lib/save-blob.ts';

/** A norm base as the screen and the buttons hold it (null: not narrowed). */
export interface NormBaseChoice {
  category: string;
  region: string | null;
  product_type: string | null;
  methodology: string | null;
  year_from: number | null;
  year_to: number | null;
  kind: 'fragrance' | 'concept';
}

/** A metric and aggregation a norm is read for. */
export interface NormMeasure {
  metric: string;
  aggregation: Aggregation;
}

/** How a product is named: by id (search results) or by study and code (a profile's address). */
export type NormProduct =
  | { id: number; kind: 'fragrance' | 'concept' }
  | { studyId: number; code: string; kind: 'fragrance' | 'concept' };

export const normKeys = {
  all: ['norms'] as const,
  options: () => [...normKeys.all, 'options'] as const,
  norm: (base: NormBaseChoice, measure: NormMeasure) => [...normKeys.all, 'norm', base, measure] as const,
  rank: (product: NormProduct, measure: NormMeasure, base: NormBaseChoice | null) =>
    [...normKeys.all, 'rank', product, measure, base] as const,
};

const baseQuery = (base: NormBaseChoice) => ({ ...base });

/** GET /api/norms/options: metrics with their aggregations, the base's filter values. */
export function useNormOptions() {
  return useQuery({
    queryKey: normKeys.options(),
    queryFn: ({ signal }) => apiJson('/norms/options', NormOptionsResponse, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** GET /api/norms: the norm of a base (null: nothing chosen yet). */
export function useNorm(base: NormBaseChoice | null, measure: NormMeasure | null) {
  return useQuery({
    queryKey: normKeys.norm(base!, measure!),
    queryFn: ({ signal }) =>
      apiJson('/norms', NormResponse, {
        query: { ...baseQuery(base!), metric: measure!.metric, aggregation: measure!.aggregation },
        signal,
      }),
    enabled: base !== null && measure !== null,
  });
}

/** GET /api/norms/rank: the product's percentile in its own category norm, or in the base given. */
export function useNormRank(
  product: NormProduct,
  measure: NormMeasure | null,
  base: NormBaseChoice | null,
  enabled: boolean,
) {
  return useQuery({
    queryKey: normKeys.rank(product, measure!, base),
    queryFn: ({ signal }) =>
      apiJson('/norms/rank', NormRankResponse, {
        query: {
          ...('id' in product
            ? { product_id: product.id }
            : { study_id: product.studyId, code: product.code, kind: product.kind }),
          // A chosen base is read for products of the product's own kind.
          ...(base ? { ...baseQuery(base), kind: product.kind } : {}),
          metric: measure!.metric,
          aggregation: measure!.aggregation,
        },
        signal,
        handledStatuses: [400, 404],
      }),
    enabled: enabled && measure !== null,
    retry: false,
  });
}

/** GET /api/norms/xlsx: the norm as norm.xlsx. */
export function useDownloadNorm() {
  return useMutation({
    mutationFn: async ({ base, measure }: { base: NormBaseChoice; measure: NormMeasure }) => {
      const response = await apiFetch('/norms/xlsx', {
        query: { ...baseQuery(base), metric: measure.metric, aggregation: measure.aggregation },
        handledStatuses: [400, 403, 404],
      });
      saveBlob(await response.blob(), NORMS_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}

/** GET /api/norms/pptx: the norm as norm.pptx. */
export function useDownloadNormDeck() {
  return useMutation({
    mutationFn: async ({ base, measure }: { base: NormBaseChoice; measure: NormMeasure }) => {
      const response = await apiFetch('/norms/pptx', {
        query: { ...baseQuery(base), metric: measure.metric, aggregation: measure.aggregation },
        handledStatuses: [400, 403, 404],
      });
      saveBlob(await response.blob(), NORM_DECK_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
