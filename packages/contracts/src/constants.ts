/**
 * Constants, role mapping and user-facing texts of the specification (documents 1 to 3). Both apps
 * import them from here so that the words a user reads are written once.
 */

export const PRODUCT_NAME = 'Accord';
export const COMPANY_NAME = 'Accord Research';

export const ROLE_ADMIN = 1;
export const ROLE_RESEARCHER = 2;
export const ROLE_CLIENT = 3;
export const ROLE_SALES = 4;

export interface Permissions {
  isAdmin: boolean;
  allowDownload: boolean;
  canAccessAnalytics: boolean;
  /** Admins may change the help url. */
  canModifyHelpUrl: boolean;
  /** Admins may administer users. */
  canModifyUsers: boolean;
}

/** Document 1 section 4: role to permission mapping. */
export function permissionsForRole(roleId: number | null | undefined): Permissions {
  const isAdmin = roleId === ROLE_ADMIN;
  return {
    isAdmin,
    allowDownload: roleId === ROLE_ADMIN || roleId === ROLE_RESEARCHER || roleId === ROLE_SALES,
    canAccessAnalytics: roleId === ROLE_ADMIN || roleId === ROLE_RESEARCHER,
    canModifyHelpUrl: isAdmin,
    canModifyUsers: isAdmin,
  };
}

/** Roles whose study access is limited to their clients. */
export function isClientScopedRole(roleId: number): boolean {
  return roleId === ROLE_CLIENT || roleId === ROLE_SALES;
}

export const LOGIN_TIMEOUT_MS = 5000;
export const UNSUPPORTED_BROWSER_ALERT_MS = 3000;
export const PASSWORD_INACTIVITY_DAYS = 30;
export const PASSWORD_MIN_LENGTH = 8;
/** Failed sign-ins (and reset-mail requests) one account may have in a window, and the window. */
export const ACCOUNT_ATTEMPT_LIMIT = 10;
export const ACCOUNT_ATTEMPT_WINDOW_MINUTES = 15;
/** A session without remember-me ends this long after sign-in, however active it is. */
export const SESSION_MAX_HOURS = 12;
export const TOKEN_REFRESH_INTERVAL_MS = 60_000;
export const REMEMBER_ME_DEFAULT = true;
export const USER_PAGE_SIZES = [10, 25, 50, 100] as const;
export const USER_PAGE_SIZE_DEFAULT = 10;
export const USER_SEARCH_DEBOUNCE_MS = 800;
export const PAGINATION_CONDENSE_FROM = 11;
export const ALERT_ERROR_MS = 5000;
export const ALERT_CONFIRM_MS = 3000;
export const DEFAULT_THRESHOLD_AMOUNT = 10;
export const DEFAULT_VERIFIED = true;
export const LOCALE = 'en-GB';

export const JOB_STATUSES = ['SUCCESS', 'FAILURE', 'REVOKED'] as const;
export const FILE_PROCESS_STATUSES = [
  'UPLOADED',
  'UNPACKED',
  'VALIDATED',
  'INJECTED',
  'ERRORED',
  'SUCCEED',
] as const;
export const UPLOAD_JOB_STATUSES = ['queued', 'started', 'failed', 'finished'] as const;
export const STUDY_FILE_TYPES = ['report', 'questionnaire', 'protocol', 'RDF', 'screener'] as const;
export type StudyFileType = (typeof STUDY_FILE_TYPES)[number];

/** Minimum supported browser versions (document 1 section 4): the version must be above these. */
export const SUPPORTED_BROWSER_MINIMUMS = {
  ie: 9,
  chrome: 50,
  firefox: 53,
  edge: 14,
  safari: 9.1,
  opera: 37,
} as const;

/** Document 1 section 8 (and messages shared by documents 2 and 3). */
export const MESSAGES = {
  somethingWentWrongTitle: 'Something went wrong!',
  somethingWentWrongBody: 'Please contact the provider and include the traceback below.',
  loginUnauthorized: 'Error signing in: provided username or password is incorrect.',
  loginFailure: 'Something went wrong, please try again later.',
  loginTooSlow: 'Whoops, it seems the server is taking too long to respond...',
  resetRequested: 'A message with the password reset link was sent to the provided e-mail address.',
  resetExpired: 'You have not logged in for 30 days. You must change your password for security reasons.',
  passwordsDoNotMatch: 'Passwords does not match',
  unsupportedBrowser: 'Your browser is not supported!',
  editFailure: 'Something went wrong, please try again later.',
  downloadFailure: 'There was an issue with downloading your file.',
  logoutConfirm: 'Are you sure you want to log out?',
  userRemovalTitle: 'Confirm user removal',
  userRemovalBody: (name: string) => `Are you sure you want to remove user "${name}"?`,
  loaderFirst: `Initializing ${PRODUCT_NAME}, please wait.`,
  loaderNext: 'Please wait a moment.',
  harmonisedFootnote: 'All scores and metrics have been harmonized to a common 5 point scale',
  tooManyLogins: 'Too many sign-in attempts. Please wait a minute and try again.',
  accountThrottled: (minutes: number) =>
    `Too many attempts for this account. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  sessionEnded: 'Your session has ended. Please sign in again.',
  forbidden: 'You do not have permission to do this.',
  notFound: 'Not found.',
  resetTokenInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
} as const;

/** Choosing APAC selects these three sub-regions; APAC's option count is the sum of theirs. */
export const APAC_SUBREGIONS: readonly string[] = ['South Asia', 'South East Asia', 'North Asia'];

/**
 * The longest text each kind of input takes: the request schemas refuse longer ones (400), and the
 * web app's inputs stop at the same length (maxlength) so that a user never meets that refusal.
 */
export const TEXT_LIMITS = {
  /** A free-text search filter (CMI #, project name, fragrance name ...). */
  filterText: 200,
  /** One word or quoted phrase of the CICS question text. */
  cicsTerm: 200,
  /** The name of a saved search. */
  searchName: 200,
  /** The study name of the statistics generator. */
  studyName: 200,
  /** The search box of the user list. */
  userSearch: 200,
  /** The help url of the site settings. */
  helpUrl: 2048,
  /** An e-mail address (RFC 5321). */
  email: 254,
  /** A user's first or last name. */
  personName: 100,
  /** A password. */
  password: 1024,
  /** A text field of a study (project name, base, objective ...). */
  studyText: 2000,
  /** A fragrance or concept code of a study (the product code of its results file). */
  productCode: 100,
  /** The substance of a mapped question. */
  questionText: 2000,
  /** The constant value of a mapped question. */
  constantValue: 500,
} as const;
