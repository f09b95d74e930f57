/**
 * A study search's filters in words, for the header of the files it exports: "Category: Fabric Care,
 * Fine Fragrance; Years: 2018 to 2021; ...". Headings are the filter screen's labels. The wording
 * lives in the contracts package so the screens say the same.
 */
import type { ParsedStudySearchQuery } from '@accord/contracts';

export { searchFiltersInWords, studyFiltersInWords, searchInWords } from '@accord/contracts';

/** The study filters of any search (the study search's, or the analytics screens' own). */
export type SearchFilters = Pick<
  ParsedStudySearchQuery,
  'essentials' | 'fragranceDetails' | 'conceptDetails' | 'methodology'
> & { demographics?: object | null };
