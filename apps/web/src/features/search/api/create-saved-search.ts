export {
  createSavedSearch,
  useCreateSavedSearchMutation,
  type CreateSavedSearchInput,
} from '../../../lib/api/saved-searches.ts';
