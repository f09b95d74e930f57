/** Query keys of the data shared across the app (features keep their own factories). */
export const sharedKeys = {
  version: ['version'] as const,
  fields: ['smartsearch', 'fields'] as const,
  helpUrl: ['help-url'] as const,
};
