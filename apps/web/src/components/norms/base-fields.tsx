/**
 * A norm base chosen in the address (category, region, product type, methodology, years, kind), as
 * the norms, the study planner and the drivers of liking choose it, and the controls that choose it.
 * The norms call of the options (GET /api/norms/options) fills the lists.
 */
import type { NormOptionsResponse } from '@accord/contracts';
import { SegmentedControl, Select, SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { NormBaseChoice } from './norms-api.ts';

/** The address's choices: the base (null without a category), any text and year, and a setter. */
export function useAddressChoices() {
  const [params, setParams] = useSearchParams();
  const text = (key: string) => params.get(key) || null;
  const year = (key: string) => {
    const value = Number(params.get(key));
    return params.get(key) && Number.isInteger(value) ? value : null;
  };
  const kind: 'fragrance' | 'concept' = text('kind') === 'concept' ? 'concept' : 'fragrance';
  const category = text('category');
  const base: NormBaseChoice | null = category
    ? {
        category,
        region: text('region'),
        product_type: text('product_type'),
        methodology: text('methodology'),
        year_from: year('year_from'),
        year_to: year('year_to'),
        kind,
      }
    : null;
  const set = (changes: Record<string, string | number | null>) => {
    // From the address as it is now, not as it was at the last render: two changes made before the
    // screen renders again (a quick hand, a busy machine) both stay, the second one no longer puts
    // back what the first one changed.
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next, { replace: true });
  };
  return { base, kind, text, set };
}

/**
 * The base's controls: products, category (required), region, product type, methodology, years;
 * `afterKind` stands between the products and the category (the norms' metric and aggregation).
 */
export function BaseFields({
  options,
  choices,
  afterKind,
}: {
  options: NormOptionsResponse | undefined;
  choices: ReturnType<typeof useAddressChoices>;
  afterKind?: ReactNode;
}) {
  const { base, kind, text, set } = choices;
  const years = options?.years
    ? Array.from({ length: options.years.max - options.years.min + 1 }, (_, index) =>
        String(options.years!.min + index),
      )
    : [];
  const productTypes = (options?.product_types ?? [])
    .filter((entry) => !base || entry.category === base.category)
    .map((entry) => entry.value);
  return (
    <>
      <SegmentedControl
        aria-label="Products"
        value={kind}
        onChange={(value) => set({ kind: value === 'concept' ? 'concept' : null })}
        data={[
          { value: 'fragrance', label: 'Fragrances' },
          { value: 'concept', label: 'Concepts' },
        ]}
      />
      {afterKind}
      <Select
        label="Category"
        required
        placeholder="Choose a category"
        data={options?.categories ?? []}
        value={base?.category ?? null}
        searchable
        onChange={(value) => set({ category: value, product_type: null })}
      />
      <Select
        label="Region"
        placeholder="Any"
        clearable
        data={options?.regions ?? []}
        value={text('region')}
        onChange={(value) => set({ region: value })}
      />
      <Select
        label="Product type"
        placeholder="Any"
        clearable
        searchable
        data={[...new Set(productTypes)]}
        value={text('product_type')}
        onChange={(value) => set({ product_type: value })}
      />
      <Select
        label="Methodology"
        placeholder="Any"
        clearable
        data={options?.methodologies ?? []}
        value={text('methodology')}
        onChange={(value) => set({ methodology: value })}
      />
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label="From year"
          placeholder="Any"
          clearable
          data={years}
          value={text('year_from')}
          onChange={(value) => set({ year_from: value })}
        />
        <Select
          label="To year"
          placeholder="Any"
          clearable
          data={years.filter((year) => !text('year_from') || year >= text('year_from')!)}
          value={text('year_to')}
          onChange={(value) => set({ year_to: value })}
        />
      </SimpleGrid>
    </>
  );
}
