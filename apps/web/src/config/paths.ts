/**
 * Every route of the app in one place (document 1 section 2, document 2 section 2, document 3
 * section 2). `route` is the pattern the router matches (React Router ignores a trailing slash, so
 * /users/7/ and /users/7 both match); `href` builds the link the app navigates to; `title` is the page
 * title before the " | Accord" suffix.
 */

type Id = number | string;

export const paths = {
  root: { route: '/', href: () => '/' },
  home: { route: '/home', title: 'Home', href: () => '/home/' },
  login: {
    route: '/login',
    title: 'Login',
    href: (options?: { expired?: boolean }) => (options?.expired ? '/login?expired=true' : '/login'),
  },
  reset: {
    route: '/login/reset',
    title: 'Reset Password',
    href: (options?: { expired?: boolean }) =>
      options?.expired ? '/login/reset?expired=true' : '/login/reset',
  },
  resetWithToken: {
    route: '/login/reset/:token',
    title: 'Reset Password',
    href: (token: string) => `/login/reset/${encodeURIComponent(token)}`,
  },
  search: { route: '/search', title: 'Search for Study', href: () => '/search' },
  topworst: { route: '/topworst', title: 'Best/Worst Testers', href: () => '/topworst' },
  fragranceAttributes: {
    route: '/fragrance-profile',
    title: 'Fragrance Profile',
    href: () => '/fragrance-profile',
  },
  categoryProfile: { route: '/category-profile', title: 'Category Profile', href: () => '/category-profile' },
  groupComparison: { route: '/group-comparison', title: 'Group Comparison', href: () => '/group-comparison' },
  analytics: { route: '/analytics', title: 'Advanced Analytics', href: () => '/analytics' },
  fragranceProfile: {
    route: '/analytics/profile/:id/:code',
    title: 'Fragrance Profile',
    href: (id: Id, code: string) => `/analytics/profile/${id}/${encodeURIComponent(code)}`,
  },
  conceptProfile: {
    route: '/analytics/concept/:id/:code',
    title: 'Concept Profile',
    href: (id: Id, code: string) => `/analytics/concept/${id}/${encodeURIComponent(code)}`,
  },
  fragrance: {
    route: '/fragrance/:code',
    title: 'Fragrance across tests',
    href: (code: string) => `/fragrance/${encodeURIComponent(code)}`,
  },
  cics: { route: '/cics', title: 'CICS', href: () => '/cics' },
  norms: {
    route: '/norms',
    title: 'Norms',
    /** With a metric, aggregation and base (query parameters of GET /api/norms) to open them. */
    href: (query?: Record<string, string | number | null | undefined>) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query ?? {}))
        if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
      const text = params.toString();
      return text ? `/norms?${text}` : '/norms';
    },
  },
  plan: {
    route: '/plan',
    title: 'Study Planner',
    /** With a base and plan (query parameters of GET /api/plan) to open them. */
    href: (query?: Record<string, string | number | null | undefined>) => withQuery('/plan', query),
  },
  drivers: {
    route: '/drivers',
    title: 'Drivers of Liking',
    /** With a base (query parameters of GET /api/drivers) to open it. */
    href: (query?: Record<string, string | number | null | undefined>) => withQuery('/drivers', query),
  },
  studyDetails: { route: '/study/:id', title: 'Study Details', href: (id: Id) => `/study/${id}/` },
  studyMapping: {
    route: '/study/:id/mapping',
    title: 'Mapping to questions',
    href: (id: Id) => `/study/${id}/mapping/`,
  },
  studyStatistics: {
    route: '/study/:id/statistics',
    title: 'Study Statistics',
    href: (id: Id) => `/study/${id}/statistics`,
  },
  studyStructure: {
    route: '/study/:id/structure',
    title: 'Study Files',
    href: (id: Id) => `/study/${id}/structure/`,
  },
  studiesUpload: { route: '/studies-upload', title: 'Studies Upload', href: () => '/studies-upload' },
  studiesUploadDetails: {
    route: '/studies-upload/:id',
    title: 'Verify Studies',
    href: (id: Id) => `/studies-upload/${id}`,
  },
  statisticsGenerator: {
    route: '/statistics-generator',
    title: 'Statistics Generator',
    href: () => '/statistics-generator',
  },
  rdfUpload: { route: '/rdf_upload', title: 'Statistic Generator', href: () => '/rdf_upload' },
  rdfUploadId: {
    route: '/rdf_upload/:id',
    title: 'Statistic Generator',
    href: (id: Id) => `/rdf_upload/${id}`,
  },
  rdfSearch: { route: '/rdf_search', title: 'Find Study', href: () => '/rdf_search' },
  adminPanel: { route: '/admin', title: 'Site settings', href: () => '/admin' },
  userList: { route: '/users', title: 'User list', href: () => '/users' },
  addUser: { route: '/users/add', title: 'Add user', href: () => '/users/add' },
  userPage: { route: '/users/:id', title: 'User', href: (id: Id) => `/users/${id}/` },
  editUser: { route: '/users/:id/edit', title: 'Edit user', href: (id: Id) => `/users/${id}/edit/` },
} as const;

/** Routes that need no sign-in (document 1 section 6). */
export const PUBLIC_ROUTES = [paths.login.route, paths.reset.route, paths.resetWithToken.route] as const;

/** A screen's address with the given query parameters (empty ones left out). */
function withQuery(path: string, query?: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
