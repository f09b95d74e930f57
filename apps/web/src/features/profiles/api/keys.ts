import type { DemographicCondition } from '@accord/contracts';

export type ProfileKind = 'fragrance' | 'concept';

/** Query keys of the profile pages. */
export const profileKeys = {
  all: ['profiles'] as const,
  profile: (kind: ProfileKind, studyId: number, code: string, demographics: DemographicCondition[]) =>
    [...profileKeys.all, kind, studyId, code, demographics] as const,
  demographicOptions: (studyId: number) => [...profileKeys.all, 'demographic-options', studyId] as const,
};
