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
  /**
   * For a call that queues a job: the status call that fetches its result, `{job}` standing for the
   * job id the first call answered (`jobid` or `job_id`). The measurement then ends when the caller
   * holds the result, as the page does (the job is done at its first poll when it is fast).
   */
  result?: string;
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
  { name: 'study files tree', method: 'GET', path: '/api/study/1/related-study-files/', role: 'admin' },
  {
    name: 'study file version history',
    method: 'POST',
    path: '/api/study/1/version-history/CMI-2026-00001_final_report.pdf',
    body: { foldertype: 'report' },
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
    // CICS is for the analytics roles (client and sales users get 403).
    name: 'cics search_bar words and spelling (admin)',
    method: 'POST',
    path: '/api/cics/search_bar/?page=1&per_page=20',
    body: { search_terms: ['fragrance', 'relaxng'] },
    role: 'admin',
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

// Question mapping (document 2 sections 2 to 7). Study 1 belongs to the demo client user's first client.
ENDPOINTS.push(
  { name: 'metrics catalogue', method: 'GET', path: '/api/study/metrics/', role: 'researcher' },
  { name: 'study metrics (client)', method: 'GET', path: '/api/study/metrics/1', role: 'client' },
  {
    name: 'mapping questions (researcher)',
    method: 'GET',
    path: '/api/study/1/questions/',
    role: 'researcher',
  },
  { name: 'mapping questions (client)', method: 'GET', path: '/api/study/1/questions/', role: 'client' },
);

// Advanced analytics. A metric search answers once its job is done when that takes under 3 s; each
// measurement also fetches the result (its status call), so it is the time until the page has the
// numbers; no_cache=true measures it without the result cache.
const LIKING_T2B = {
  metricType: 'Performance',
  metric: 'liking',
  aggregation: 'top_2_box',
  confidence: true,
};
/** Calculate against the rest for the first 1,000 products, liking top 2 box and mean. */
const SIGNIFICANCE_1000 = {
  data: Array.from({ length: 1000 }, (_, index) => ({ id: index + 1 })),
  calculation: 'rest',
  metrics: [
    { field: 'liking', aggregation: 'top_2_box', confidence: true },
    { field: 'liking', aggregation: 'mean', confidence: true },
  ],
};
const metricSearch = (demographics: Record<string, unknown> = {}) => ({
  q: { demographics, metrics: { rdfType: 'all', metricsList: [LIKING_T2B] } },
});
ENDPOINTS.push(
  { name: 'analytics options', method: 'GET', path: '/api/analytics/options', role: 'researcher' },
  {
    name: 'analytics dropdown options',
    method: 'POST',
    path: '/api/smartsearch/dropdown_options_analytics',
    body: { query: {}, rdf_type: 'rdf' },
    role: 'researcher',
  },
  {
    name: 'analytics metric search all fragrances (cached)',
    method: 'POST',
    path: '/api/analytics/fragrances',
    body: metricSearch(),
    role: 'researcher',
    result: '/api/analytics/fragrances/{job}',
  },
  {
    name: 'analytics metric search all fragrances (no cache)',
    method: 'POST',
    path: '/api/analytics/fragrances?no_cache=true',
    body: metricSearch(),
    role: 'researcher',
    result: '/api/analytics/fragrances/{job}',
  },
  {
    name: 'analytics metric search gender+age (no cache)',
    method: 'POST',
    path: '/api/analytics/fragrances?no_cache=true',
    body: metricSearch({ gender: ['Female'], startAge: 25, endAge: 45 }),
    role: 'researcher',
    result: '/api/analytics/fragrances/{job}',
  },
  // A filter beyond gender and age: summed from the respondent indexes over the respondents it keeps.
  {
    name: 'analytics metric search ethnicity (no cache)',
    method: 'POST',
    path: '/api/analytics/fragrances?no_cache=true',
    body: metricSearch({ ethnicity: ['East Asian'] }),
    role: 'researcher',
    result: '/api/analytics/fragrances/{job}',
  },
  // What the metrics tab fetches since it pages from the server: the first page (50 rows, the
  // summary, diagnostics and chart bins), not the whole result.
  {
    name: 'analytics metric search all fragrances, first page (no cache)',
    method: 'POST',
    path: '/api/analytics/fragrances?no_cache=true',
    body: metricSearch(),
    role: 'researcher',
    result: '/api/analytics/fragrances/{job}/page',
  },
  {
    name: 'analytics metric search all fragrances, first page (cached)',
    method: 'POST',
    path: '/api/analytics/fragrances',
    body: metricSearch(),
    role: 'researcher',
    result: '/api/analytics/fragrances/{job}/page',
  },
  {
    name: 'analytics metric search gender+age, first page (no cache)',
    method: 'POST',
    path: '/api/analytics/fragrances?no_cache=true',
    body: metricSearch({ gender: ['Female'], startAge: 25, endAge: 45 }),
    role: 'researcher',
    result: '/api/analytics/fragrances/{job}/page',
  },
  {
    name: 'analytics significance rest, 1000 products',
    method: 'POST',
    path: '/api/analytics/significance',
    body: SIGNIFICANCE_1000,
    role: 'researcher',
    result: '/api/analytics/significance/{job}',
  },
  // The same Calculate computed every time instead of read from the answers kept in memory.
  {
    name: 'analytics significance rest, 1000 products (no cache)',
    method: 'POST',
    path: '/api/analytics/significance?no_cache=true',
    body: SIGNIFICANCE_1000,
    role: 'researcher',
    result: '/api/analytics/significance/{job}',
  },
);

// Fragrance profile: study 1's first fragrance (product code 678 in the 3,000-study library).
ENDPOINTS.push(
  {
    name: 'fragrance profile',
    method: 'POST',
    path: '/api/study/1/fragrance/678',
    body: { demographics: [] },
    role: 'researcher',
  },
  {
    name: 'fragrance profile gender filter (client)',
    method: 'POST',
    path: '/api/study/1/fragrance/678',
    body: { demographics: [{ field: 'gender', filter: { type: 'equal', value: 'Female' } }] },
    role: 'client',
  },
);

// One fragrance across its tests: 466757 is tested in 6 studies of the first 200 (seed 42), two of
// them of the client user's clients (one unverified): the pooled page and its client-scoped view.
ENDPOINTS.push(
  { name: 'fragrance across tests', method: 'GET', path: '/api/fragrance/466757', role: 'researcher' },
  { name: 'fragrance across tests (client)', method: 'GET', path: '/api/fragrance/466757', role: 'client' },
);

// Tendencies: fragrance families of every fragrance (the Category Profile chart).
ENDPOINTS.push({
  name: 'analytics tendencies by family (client)',
  method: 'POST',
  path: '/api/analytics/tendencies',
  body: { q: {}, data: { return: 'percentage', groupby: 'perfume_characteristics.family' } },
  role: 'client',
});

// Top attributes of every fragrance, ranked by top 2 box.
ENDPOINTS.push({
  name: 'analytics top attributes all fragrances',
  method: 'POST',
  path: '/api/analytics/top-attributes',
  body: { q: {}, data: { order: 'best', count: 10, aggregation: 'top_2_box' } },
  role: 'researcher',
  result: '/api/analytics/top-attributes/{job}',
});

// Performance tab: every fragrance's liking pooled per client.
ENDPOINTS.push({
  name: 'analytics performance by client',
  method: 'POST',
  path: '/api/analytics/fragrances',
  body: {
    q: { metrics: { rdfType: 'all', metricsList: [{ metric: 'liking', aggregation: 'top_2_box' }] } },
    data: { category: 'metadata', field: 'client' },
  },
  role: 'researcher',
  result: '/api/analytics/fragrances/{job}',
});

// Best/Worst Testers: the best 10 % fragrances of one region by explicit (rdf) top 2 box liking, as
// the wizard hands it to Advanced Analytics.
ENDPOINTS.push({
  name: 'best/worst search 10 % explicit one region',
  method: 'POST',
  path: '/api/analytics/fragrances',
  body: {
    q: {
      essentials: { region: ['Europe'] },
      metrics: {
        rdfType: 'rdf',
        threshold: { applyThreshold: true, amount: 10, desc: true, type: 'percentage' },
        metricsList: [{ metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box' }],
      },
    },
    type: 'fragrances',
  },
  role: 'researcher',
  result: '/api/analytics/fragrances/{job}',
});

// Group Comparison: two business units, the second group's women only.
ENDPOINTS.push({
  name: 'group comparison two business units',
  method: 'POST',
  path: '/api/group-comparison',
  body: {
    group1: { essentials: { businessUnit: ['Home Care'] } },
    group2: { essentials: { businessUnit: ['Prestige'] }, demographics: { gender: ['Female'] } },
  },
  role: 'researcher',
  result: '/api/group-comparison/{job}',
});

// Category Profile: the top 5 Floral fragrances by top 2 box liking.
ENDPOINTS.push({
  name: 'category profile top fragrances',
  method: 'POST',
  path: '/api/category-profile/top-fragrances',
  body: { essentials: { category: ['Fabric Care'] }, family: 'Floral' },
  role: 'researcher',
  result: '/api/category-profile/top-fragrances/{job}',
});

// Norms: a category norm and a product's percentile in its own category norm, as a client user reads
// them (target: p95 below 100 ms at 3,000 studies with 8 concurrent clients). Product 1 belongs to
// the first client, one of the demo client user's.
ENDPOINTS.push(
  {
    name: 'norm lookup (client)',
    method: 'GET',
    path: '/api/norms?category=Fabric%20Care&metric=liking&aggregation=top_2_box',
    role: 'client',
  },
  {
    name: 'norm percentile rank (client)',
    method: 'GET',
    path: '/api/norms/rank?product_id=1&metric=liking&aggregation=top_2_box',
    role: 'client',
  },
);

// The study planner (researchers) and the drivers of liking (a client user) on the Fabric Care base:
// computed once per data version, then answered from memory (target: p95 below 500 ms at 3,000
// studies with 8 concurrent clients).
ENDPOINTS.push(
  {
    name: 'study plan (researcher)',
    method: 'GET',
    path: '/api/plan?category=Fabric%20Care&metric=liking&aggregation=mean&difference=0.3&design=sequential_monadic&products=4&correction=bonferroni',
    role: 'researcher',
  },
  {
    name: 'drivers of liking (client)',
    method: 'GET',
    path: '/api/drivers?category=Fabric%20Care',
    role: 'client',
  },
  // "How was this computed?": the recomputation from the paired answers, kept per data version too.
  {
    name: 'drivers trace, recomputed from the answers (client)',
    method: 'GET',
    path: '/api/drivers/trace?category=Fabric%20Care&attribute=fresh',
    role: 'client',
  },
);

// How was this computed?: a metric search cell (product 1, liking top 2 box, women), a group value
// over the first 200 products against the next 200, and the answers csv of the cell.
ENDPOINTS.push(
  {
    name: 'trace a metric cell (researcher)',
    method: 'POST',
    path: '/api/trace',
    body: { products: [1], metric: 'liking', aggregation: 'top_2_box', demographics: { gender: ['Female'] } },
    role: 'researcher',
  },
  {
    name: 'trace a group comparison value',
    method: 'POST',
    path: '/api/trace',
    body: {
      products: Array.from({ length: 200 }, (_, index) => index + 1),
      metric: 'liking',
      aggregation: 'mean',
      unit: 'products',
      versus: { products: Array.from({ length: 200 }, (_, index) => index + 201) },
    },
    role: 'admin',
  },
  {
    name: 'trace answers csv',
    method: 'POST',
    path: '/api/trace/answers.csv',
    body: { products: [1], metric: 'liking', aggregation: 'top_2_box' },
    role: 'researcher',
  },
);
