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
  {
    name: 'login',
    method: 'POST',
    path: '/api/auth/login',
    // $PASSWORD is replaced with the demo password of the library measured.
    body: { email: 'researcher@accord.test', password: '$PASSWORD', remember: false },
    role: null,
  },
  { name: 'fields (researcher)', method: 'GET', path: '/api/smartsearch/fields', role: 'researcher' },
  { name: 'fields (client)', method: 'GET', path: '/api/smartsearch/fields', role: 'client' },
  { name: 'users page', method: 'GET', path: '/api/users/?page=1&per_page=10', role: 'admin' },
  {
    name: 'search counts (researcher)',
    method: 'POST',
    path: '/api/smartsearch/',
    body: { query: {}, full_query: { file_type: '', search_phrase: '' } },
    role: 'researcher',
  },
  {
    name: 'search counts filtered (client)',
    method: 'POST',
    path: '/api/smartsearch/',
    body: {
      query: {
        essentials: { region: ['APAC'], category: ['Fabric Care'] },
        fragranceDetails: { family: ['Floral'] },
      },
    },
    role: 'client',
  },
  {
    name: 'search options (researcher)',
    method: 'POST',
    path: '/api/smartsearch/dropdown_options',
    body: { query: {} },
    role: 'researcher',
  },
  {
    name: 'search options filtered (admin)',
    method: 'POST',
    path: '/api/smartsearch/dropdown_options',
    body: {
      query: {
        essentials: { region: ['APAC'], category: ['Fabric Care'] },
        fragranceDetails: { family: ['Floral'], creative: true },
      },
    },
    role: 'admin',
  },
  {
    name: 'search study summaries',
    method: 'POST',
    path: '/api/smartsearch/study_summarises?page=1&per_page=25',
    body: { query: {} },
    role: 'researcher',
  },
  {
    name: 'search fragrances',
    method: 'POST',
    path: '/api/smartsearch/fragrances?page=1&per_page=25',
    body: { query: { fragranceDetails: { fragranceName: 'po' } } },
    role: 'researcher',
  },
  {
    name: 'search concepts',
    method: 'POST',
    path: '/api/smartsearch/concepts?page=1&per_page=25',
    body: { query: {} },
    role: 'admin',
  },
  {
    name: 'search files (results and reports)',
    method: 'POST',
    path: '/api/smartsearch/files/RDF_report?page=1&per_page=25',
    body: { query: {}, full_query: { search_phrase: 'report' } },
    role: 'sales',
  },
  { name: 'search library count (client)', method: 'GET', path: '/api/smartsearch/count', role: 'client' },
  {
    name: 'search export studies xlsx',
    method: 'POST',
    path: '/api/smartsearch/download_study_summarises',
    body: { q: {} },
    role: 'researcher',
  },
  {
    name: 'search export all fragrances xlsx',
    method: 'POST',
    path: '/api/smartsearch/download_fragrances',
    body: { q: {} },
    role: 'researcher',
  },
  {
    name: 'cics search_bar phrase (researcher)',
    method: 'POST',
    path: '/api/cics/search_bar/?page=1&per_page=20',
    body: { search_terms: ['"smells clean"'] },
    role: 'researcher',
  },
  {
    name: 'cics search_bar words and spelling (client)',
    method: 'POST',
    path: '/api/cics/search_bar/?page=1&per_page=20',
    body: { search_terms: ['fragrance', 'relaxng'] },
    role: 'client',
  },
  {
    name: 'cics inspect_question (researcher)',
    method: 'POST',
    path: '/api/cics/inspect_question/4/',
    body: { q: {} },
    role: 'researcher',
  },
  {
    name: 'cics inspect_question filtered (admin)',
    method: 'POST',
    path: '/api/cics/inspect_question/4/',
    body: { q: { Region_new: ['North America', 'Europe'], Gender: ['Female'], Age: [25, 54] } },
    role: 'admin',
  },
  { name: 'cics options', method: 'GET', path: '/api/cics/options', role: 'researcher' },
];
