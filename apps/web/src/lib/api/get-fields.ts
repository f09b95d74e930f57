import { FieldDefinitionsResponse, type FieldOption } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../api-client.ts';
import { sharedKeys } from './keys.ts';

/** GET /api/smartsearch/fields: the field definitions that feed every dropdown. */
export function getFields(
  signal?: AbortSignal,
  options: { allowUnauthorized?: boolean } = {},
): Promise<FieldDefinitionsResponse> {
  return apiJson('/smartsearch/fields', FieldDefinitionsResponse, {
    signal,
    allowUnauthorized: options.allowUnauthorized,
  });
}

/** How long the field definitions are reused before they are asked for again. */
export const FIELDS_STALE_MS = 5 * 60_000;

export function useFieldsQuery(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sharedKeys.fields,
    queryFn: ({ signal }) => getFields(signal),
    staleTime: FIELDS_STALE_MS,
    enabled: options.enabled ?? true,
  });
}

/** The options of one metadata field (e.g. "client"), or none when it is unknown. */
export function metadataOptions(fields: FieldDefinitionsResponse | undefined, field: string): FieldOption[] {
  return fields?.metadata.find((definition) => definition.field === field)?.options ?? [];
}
