/**
 * The endpoints `npm run bench` measures. Each feature that adds an API call adds a line here:
 * `role` is the demo user the request is signed in as (null: anonymous), `body` is sent as JSON.
 */

export type BenchRole = 'admin' | 'researcher' | 'client' | 'sales';

export interface BenchEndpoint {
  /** Row label in the results table (unique). */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the server origin, with its query string. */
  path: string;
  body?: unknown;
  role: BenchRole | null;
}

export const ENDPOINTS: BenchEndpoint[] = [
  { name: 'version', method: 'GET', path: '/api/', role: null },
  { name: 'fields (researcher)', method: 'GET', path: '/api/smartsearch/fields', role: 'researcher' },
  { name: 'fields (client)', method: 'GET', path: '/api/smartsearch/fields', role: 'client' },
  { name: 'users page', method: 'GET', path: '/api/users/?page=1&per_page=10', role: 'admin' },
];
