export { getSavedSearches, useSavedSearchesQuery } from '../../../lib/api/saved-searches.ts';
