import { describe, expect, it } from 'vitest';
import { operationIdOf } from './operation-id.ts';

describe('operationIdOf', () => {
  it('names an operation by its method and path words, parameters as By<Name>', () => {
    expect(operationIdOf('GET', '/api/users/:userId/searches/')).toBe('getUsersByUserIdSearches');
    expect(operationIdOf('POST', '/api/smartsearch/study_summarises')).toBe('postSmartsearchStudySummarises');
    expect(operationIdOf('GET', '/api/rdf/download_templates/{folder_name}/{file}')).toBe(
      'getRdfDownloadTemplatesByFolderNameByFile',
    );
    expect(operationIdOf('PUT', '/api/fileprocess/fileprocess/:id/replace_file')).toBe(
      'putFileprocessFileprocessByIdReplaceFile',
    );
  });

  it('names the root of the API', () => {
    expect(operationIdOf('GET', '/api/')).toBe('getRoot');
  });
});
