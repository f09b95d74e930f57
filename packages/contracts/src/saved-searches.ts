import { z } from 'zod';
import { numeric } from './common.ts';
import { TEXT_LIMITS } from './constants.ts';

export const SearchType = z.enum(['search', 'cics', 'analytics']);
export type SearchType = z.infer<typeof SearchType>;

export const SavedSearch = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    created_at: z.string(),
    metadata_query: z.string().meta({ description: 'JSON text of the filters.' }),
    search_type: SearchType,
  })
  .meta({ id: 'SavedSearch' });
export type SavedSearch = z.infer<typeof SavedSearch>;

export const SavedSearchQuery = z.object({ search_type: SearchType.default('search') });

export const CreateSavedSearchRequest = z
  .object({
    slug: z.string().trim().min(1, 'A search name is required').max(TEXT_LIMITS.searchName),
    metadata_query: z
      .string()
      .max(100_000)
      .refine((text) => {
        try {
          const value: unknown = JSON.parse(text);
          return typeof value === 'object' && value !== null;
        } catch {
          return false;
        }
      }, 'metadata_query must be JSON text of the filters'),
    search_type: SearchType,
  })
  .meta({ id: 'CreateSavedSearchRequest' });

export const DeleteSavedSearchRequest = z
  .object({ searchId: numeric(z.number().int().positive()) })
  .meta({ id: 'DeleteSavedSearchRequest' });

export const UserIdParam = z.object({ userId: numeric(z.number().int().positive()) });
