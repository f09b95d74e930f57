/**
 * A typed client of the API for the journeys' set-up steps: paths, bodies and answers come from the
 * types that openapi-typescript generates from the published OpenAPI document (api-types.ts, made by
 * `npm run openapi`), so a journey that calls the API the way the document does not will not compile.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import type { paths } from './api-types.ts';

type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type PostOperation<P extends keyof paths> = NonNullable<paths[P]['post']>;

/** The paths that take a POST. */
export type PostPath = {
  [P in keyof paths]: [paths[P]['post']] extends [undefined] ? never : P;
}[keyof paths];
/** The JSON body a POST of the path takes. */
export type PostBody<P extends PostPath> = JsonOf<NonNullable<PostOperation<P>['requestBody']>>;
/** The JSON answer (200) of a POST of the path. */
export type PostAnswer<P extends PostPath> = PostOperation<P>['responses'] extends { 200: infer Ok }
  ? JsonOf<Ok>
  : never;

/** POSTs a JSON body as the token's user and answers the 200 answer's JSON, typed by the document. */
export async function postJson<P extends PostPath>(
  request: APIRequestContext,
  token: string,
  path: P,
  body: PostBody<P>,
  query: Record<string, string | number> = {},
): Promise<PostAnswer<P>> {
  const response = await request.post(path, {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
    params: query,
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as PostAnswer<P>;
}
