import { SearchFileRow } from '@accord/contracts';
import { fetchResultPage, useResultPageQuery, type ResultQueryOptions } from './result-page.ts';
import type { ResultPageParams, ResultTab } from './keys.ts';

export type FileResultTab = Exclude<ResultTab, 'summaries' | 'fragrances' | 'concepts'>;

/** POST /api/smartsearch/files/{fileType}?page=&per_page= (RDF_report: results and reports). */
export function getSearchFiles(fileType: FileResultTab, params: ResultPageParams, signal?: AbortSignal) {
  return fetchResultPage(`/smartsearch/files/${fileType}`, SearchFileRow, params, signal);
}

export function useSearchFilesQuery(
  fileType: FileResultTab,
  params: ResultPageParams | null,
  options: ResultQueryOptions,
) {
  return useResultPageQuery(
    fileType,
    params,
    (page, signal) => getSearchFiles(fileType, page, signal),
    options,
  );
}
