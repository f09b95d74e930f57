export { deleteSavedSearch, useDeleteSavedSearchMutation } from '../../../lib/api/saved-searches.ts';
