import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The demo library leaves about one study in twenty not verified, and the analytics, norms and the
 * planner read verified studies only. Journeys that need a category whole verify its pending studies
 * as an admin does (the study details edit) and set them back afterwards for the journeys that follow.
 */
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The ids of the not verified studies of a category, optionally of one region. */
export async function unverifiedStudies(
  request: APIRequestContext,
  admin: string,
  category: string,
  region?: string,
): Promise<number[]> {
  const response = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(admin),
    data: { query: { essentials: { verified: false } } },
  });
  expect(response.status(), await response.text()).toBe(200);
  const rows = (await response.json()) as { id: number; category: string | null; region: string[] }[];
  return rows
    .filter((row) => row.category === category)
    .filter((row) => region === undefined || row.region.includes(region))
    .map((row) => row.id);
}

/** Sets a study verified or not, as an admin's edit of its details does. */
export async function setVerified(
  request: APIRequestContext,
  admin: string,
  id: number,
  verified: boolean,
): Promise<void> {
  const response = await request.put(`/api/study/${id}`, {
    headers: auth(admin),
    data: { type: 'study', study: { verified }, oldData: { verified: !verified } },
  });
  expect(response.status(), await response.text()).toBe(200);
}
