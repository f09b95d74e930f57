/** Query keys of question mapping; everything about one study lives under `study(id)`. */
export const mappingKeys = {
  all: ['mapping'] as const,
  catalogue: () => [...mappingKeys.all, 'metrics'] as const,
  study: (id: number) => [...mappingKeys.all, 'study', id] as const,
  questions: (id: number) => [...mappingKeys.study(id), 'questions'] as const,
  studyMetrics: (id: number) => [...mappingKeys.study(id), 'metrics'] as const,
};
