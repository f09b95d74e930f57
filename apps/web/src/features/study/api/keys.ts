/** Query keys of the study page; everything about one study lives under `detail(id)`. */
export const studyKeys = {
  all: ['study'] as const,
  detail: (id: number) => [...studyKeys.all, id] as const,
  details: (id: number) => [...studyKeys.detail(id), 'details'] as const,
  history: (id: number) => [...studyKeys.detail(id), 'history'] as const,
  files: (id: number) => [...studyKeys.detail(id), 'files'] as const,
};
