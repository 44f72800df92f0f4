/** Business constants of spec 000 section 9 and spec 001 section 9. */
export const PRODUCT_ID = 22;
export const API_BASE = '/api/v0.1';
export const SESSION_HEADER = 'WeAppAuthorization';
export const SESSION_TTL_MS = 7_200_000;
export const HTTP_TIMEOUT_MS = 180_000;
export const PATIENT360_TIMEOUT_MS = 60_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;
export const STORAGE_PREFIX = 'fygo__';
export const HEADER_HEIGHT = 48;
export const SIDER_WIDTH = 256;
export const SIDER_COLLAPSED_WIDTH = 80;
export const NOTICE_POPOVER_WIDTH = 300;
export const AUTO_HIDE_HEADER_THRESHOLD = 300;
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_DESCRIPTION_COLUMNS = 3;
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DATE_FORMAT = 'YYYY-MM-DD';
export const ACTION_COLOR = 'rgb(76,132,255)';
// Red as hex: antd's theme parser reads no colour names and turned 'red' into black.
export const ERROR_COLOR = '#FF0000';
export const DEFAULT_PRIMARY_COLOR = '#1890FF';
/** The eight preset theme colours of the settings drawer (Ant Design Pro's set). */
export const PRESET_COLORS = [
  '#1890FF',
  '#F5222D',
  '#FA541C',
  '#FAAD14',
  '#13C2C2',
  '#52C41A',
  '#2F54EB',
  '#722ED1',
] as const;
/**
 * Password guesses (sign-in, old password) are counted per user name and client address: after
 * LOGIN_MAX_FAILURES wrong ones in a row, that address waits LOGIN_SLOWDOWN_BASE_MS, doubled
 * after each further wrong guess up to LOGIN_SLOWDOWN_MAX_MS. Failures are forgotten
 * LOGIN_FAILURE_MEMORY_MS after the last guess or wait.
 */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_SLOWDOWN_BASE_MS = 30_000;
export const LOGIN_SLOWDOWN_MAX_MS = 15 * 60_000;
export const LOGIN_FAILURE_MEMORY_MS = 15 * 60_000;
/** Longest user name a sign-in accepts (user names themselves are at most 64, see admin). */
export const LOGIN_USER_NAME_MAX = 100;
/** Longest password a sign-in accepts (the policy allows at most 32 code points). */
export const LOGIN_PASSWORD_MAX = 200;
/** The address parameter that carries a hand-off code (its name is the spec's). */
export const HANDOFF_PARAM = 'SessionKey';
/**
 * Free-access links carry their key in the fragment (`#key=…`), which the browser never sends to
 * a server or proxy, so the key stays out of every request line and log.
 */
export const FREE_KEY_PARAM = 'key';

export const GENDER_CODES = { 0: 'unknown', 1: 'male', 2: 'female', 3: 'other' } as const;
export type GenderCode = keyof typeof GENDER_CODES;
export const SOLUTION_CATEGORY_CODES = {
  0: 'outpatient',
  1: 'admission',
  2: 'surgery',
  3: 'discharge',
} as const;
export type SolutionCategoryCode = keyof typeof SOLUTION_CATEGORY_CODES;

/** The actions a menu function can carry (spec 000 section 6). */
export const FUNCTION_ACTIONS = [
  'add',
  'delete',
  'edit',
  'query',
  'get',
  'enable',
  'disable',
  'import',
  'export',
] as const;
export type FunctionAction = (typeof FUNCTION_ACTIONS)[number];
