// Deployer-facing settings: every knob of the service, read from CDK context (`npx cdk deploy -c key=value`,
// or a `context` entry added to cdk.json) by the Sudoku stack, or given as the SudokuService construct's props, with
// a default chosen on purpose, written here and only here. Values are checked here, once, the same way and
// with the same messages for both, so a typo fails the synth with a clear message instead of deploying
// something surprising.
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { API_WORST_CASE_MS } from '../functions/contract/api-capacity.js';
import { type ApiRouteName, routeKey } from '../functions/contract/api-routes.js';
import {
  LAMBDA_MIN_UNRESERVED_CONCURRENCY,
  LAMBDA_SQS_MAX_CONCURRENCY,
  S3_MAX_KEY_BYTES,
  SFN_MAP_MAX_CONCURRENCY,
  SFN_MAX_STATE_BYTES,
} from '../functions/contract/aws-quotas.js';
import {
  BATCH_ENVELOPE_BYTES,
  MAX_ITEM_ENTRY_BYTES,
  MAX_ITEMS_PER_BATCH,
  MAX_RESULT_ENTRY_BYTES,
} from '../functions/contract/batch-limits.js';
import { LARGE_FILE_DEFAULTS } from '../functions/contract/large-files.js';
import { CORS, FUNCTION_TIMEOUT_DEFAULTS, RUN_DEFAULTS } from '../functions/contract/service-layout.js';

export type ApiAuth = 'none' | 'iam';
/** How uploads under incoming/ reach the files function (see docs/infra.md, "How uploads reach the function"). */
export type S3EventRoute = 'notification' | 'eventbridge' | 'sqs';

export interface Settings {
  /** API function memory (MB). 1769 MB is exactly one vCPU; one request's solving runs on one thread. */
  readonly apiMemoryMb: number;
  /** API function timeout (s): the longest request, bounded by API Gateway's 30 s integration limit. */
  readonly apiTimeoutSeconds: number;
  /** Concurrency reserved for the API function (its ceiling, and a pool nothing else can take); 0 = none. */
  readonly apiReservedConcurrency: number;
  /** Steady-state rate (requests/s) of the route that solves, POST /solve; derived from the API function's pool when unset. */
  readonly apiRateLimit: number;
  /** Burst (requests) of POST /solve; derived from the API function's pool when unset. */
  readonly apiBurstLimit: number;
  /**
   * Steady rate (requests/s) of POST /grade, POST /hint and GET /puzzle (docs/grading.md), each
   * with a burst of half its rate (at least 1). Every request/s of theirs holds W of the pool that
   * POST /solve's derived throttle then leaves out; small by default, so POST /solve keeps 104/s (100 with apiAuth=iam).
   */
  readonly apiGradeRateLimit: number;
  readonly apiHintRateLimit: number;
  readonly apiPuzzleRateLimit: number;
  /** `none` (public, throttled) or `iam` (SigV4-signed callers only). */
  readonly apiAuth: ApiAuth;
  /**
   * Files function memory (MB): 1769 MB per vCPU, up to 6 vCPUs at 10240 MB; files are solved on as
   * many threads as it buys (SOLVER_THREADS, set from this by the function construct).
   */
  readonly filesMemoryMb: number;
  /** Files function timeout (s). One invocation streams one whole file (or a map item's files); Lambda's maximum is 900. */
  readonly filesTimeoutSeconds: number;
  /** Concurrency reserved for the files function (S3 events and map items); 0 = none. */
  readonly filesReservedConcurrency: number;
  /**
   * Of the account's unreserved concurrency, how many executions this stack's unreserved functions
   * (a reservation of 0) may keep busy together: the pool their throttle and map widths are sized
   * from instead (both at 0: split as the default reservations are). `npm run deploy` reads the
   * account's and checks it; other functions of the account share the same unreserved pool.
   */
  readonly unreservedConcurrencyShare: number;
  /**
   * Executions of the files pool kept for S3 events (the `sqs` route's event-source maximum
   * concurrency; the other routes' events throttled past it are retried by Lambda for 6 hours);
   * derived from the pool when unset (filesPoolShares).
   */
  readonly filesEventConcurrency: number;
  /**
   * Origins whose browser scripts may call the API (CORS): `*` for any, or a list such as
   * `-c corsOrigins=https://app.example.com,https://admin.example.com`.
   */
  readonly corsOrigins: readonly string[];
  /** Days after which `incoming/` and `batch/` objects expire. */
  readonly inputExpirationDays: number;
  /** Days after which `solved/` and `reports/` objects expire. */
  readonly outputExpirationDays: number;
  /** Retention (days) of every log group of the stack. */
  readonly logRetentionDays: number;
  /** Log every state machine event with its data (`true`), or only errors (`false`: the default, far cheaper). */
  readonly batchLogAll: boolean;
  /** Address that alarm notifications are emailed to (a subscription to confirm); empty = topic only. */
  readonly alarmEmail: string;
  /** Keep the bucket (and its objects) when the stack is deleted. */
  readonly retainBucket: boolean;
  /** EventBridge Scheduler expression for the batch run. */
  readonly batchSchedule: string;
  /** EventBridge Scheduler expression for the sweep of `incoming/` files that have no output. */
  readonly sweepSchedule: string;
  /** IANA time zone the schedule expressions are read in. */
  readonly batchScheduleTimezone: string;
  /**
   * Largest number of function invocations the Distributed Map runs at once, in a batch run and in a
   * sweep each (they may overlap); derived from the files pool when unset (filesPoolShares).
   */
  readonly batchMaxConcurrency: number;
  /** Object keys handed to one function invocation by the Distributed Map. */
  readonly batchItemsPerInvocation: number;
  /** Percentage of failed items the batch run tolerates before it fails as a whole. */
  readonly batchToleratedFailurePercent: number;
  /**
   * Ranges of one large file solved at once (the large-file maps' MaxConcurrency); derived from the
   * files function's pool when unset: what S3 events and the two runs leave (filesPoolShares).
   */
  readonly largeFileMaxConcurrency: number;
  /**
   * How uploads reach the files function: `notification` (the bucket's S3 event notification),
   * `eventbridge` (the bucket's EventBridge events and a rule), or `sqs` (notifications into a queue
   * the function polls). Exactly one route: two would solve each upload twice at once.
   */
  readonly s3Events: S3EventRoute;
}

/**
 * Sized for a public endpoint in an account with Lambda's default 1,000 concurrent executions:
 * 100 + 80 reserved leave 820 for everything else. The files pool holds, by construction, its S3
 * events (10), a batch run and a sweep at once (20 each) and one large file's ranges (30).
 * Accounts whose quota is below 280 (new accounts can start lower) cannot reserve this much:
 * `npm run deploy` says what fits there (see docs/infra.md).
 */
export const defaults: Settings = {
  apiMemoryMb: 1769,
  apiTimeoutSeconds: FUNCTION_TIMEOUT_DEFAULTS.api,
  apiReservedConcurrency: 100,
  // What derivedThrottle(100, 'none') gives (a test holds them equal): with W = 0.5 s, POST /solve
  // holds 26 + 104/s x 0.5 s = 78 executions and the other routes 21.5: 99.5 in flight at most.
  apiRateLimit: 104,
  apiBurstLimit: 26,
  apiGradeRateLimit: 1,
  apiHintRateLimit: 2,
  apiPuzzleRateLimit: 1,
  apiAuth: 'none',
  filesMemoryMb: 1769,
  filesTimeoutSeconds: FUNCTION_TIMEOUT_DEFAULTS.files,
  filesReservedConcurrency: 80,
  unreservedConcurrencyShare: LAMBDA_MIN_UNRESERVED_CONCURRENCY,
  filesEventConcurrency: 10,
  corsOrigins: CORS.defaultOrigins,
  inputExpirationDays: 30,
  outputExpirationDays: 90,
  logRetentionDays: 30,
  batchLogAll: false,
  alarmEmail: '',
  retainBucket: true,
  batchSchedule: 'cron(0 3 * * ? *)',
  sweepSchedule: 'cron(0 4 * * ? *)',
  batchScheduleTimezone: 'UTC',
  batchMaxConcurrency: RUN_DEFAULTS.maxConcurrency,
  batchItemsPerInvocation: RUN_DEFAULTS.itemsPerInvocation,
  batchToleratedFailurePercent: 5,
  // What filesPoolShares(80) gives (a test holds them equal): 80 - 10 - 2 x 20.
  largeFileMaxConcurrency: 30,
  s3Events: 'notification',
};

/** Settings that were split in two; naming them now fails the synth rather than being silently ignored. */
const replacedKeys: Record<string, string> = {
  memoryMb: 'apiMemoryMb and filesMemoryMb',
  timeoutSeconds: 'apiTimeoutSeconds and filesTimeoutSeconds',
};

/** One route's token bucket: steady rate (requests/s) and burst (the bucket's size). */
export interface RouteThrottle {
  readonly rate: number;
  readonly burst: number;
}

/** The route that solves: it gets the pool, less what the small buckets of the other routes hold. */
export const SOLVE_ROUTE = routeKey('solve');

/** The toolkit's routes and the settings that give their rates. */
const TOOLKIT_RATE_KEYS = {
  grade: 'apiGradeRateLimit',
  hint: 'apiHintRateLimit',
  puzzle: 'apiPuzzleRateLimit',
} as const satisfies Partial<Record<ApiRouteName, keyof Settings>>;
type ToolkitRoute = keyof typeof TOOLKIT_RATE_KEYS;

/** What the small routes' buckets depend on: the mode (iam adds a preflight route) and the toolkit's rates. */
export type SmallRouteSettings = Pick<Settings, 'apiAuth' | (typeof TOOLKIT_RATE_KEYS)[ToolkitRoute]>;

/**
 * The fixed small bucket of every other route of the contract but POST /solve, by route name (so
 * a route added to contract/api-routes.ts without a bucket does not compile).
 */
const FIXED_BUCKETS: Readonly<Record<Exclude<ApiRouteName, 'solve' | ToolkitRoute>, RouteThrottle>> = {
  page: { rate: 5, burst: 5 },
  health: { rate: 2, burst: 2 },
  openapi: { rate: 2, burst: 2 },
};

/** With `apiAuth=iam`, browsers' unsigned CORS preflights get a route of their own (infra/constructs/http-api.ts). */
export const PREFLIGHT_ROUTE = 'OPTIONS /{proxy+}';

/** `$default`'s bucket (and iam mode's preflight route's). */
const DEFAULT_ROUTE_BUCKET: RouteThrottle = { rate: 2, burst: 2 };

/** A toolkit route's bucket: its rate, and half of it as burst (1 and 2 requests/s give a burst of 1). */
function toolkitBucket(rate: number): RouteThrottle {
  return { rate, burst: Math.max(1, Math.floor(rate / 2)) };
}

/**
 * Every route but POST /solve that reaches the API function, each with a small bucket of its own
 * (API Gateway applies a stage's route throttle to each route separately: docs/infra.md). `GET /`
 * is the web page, loaded once per visit; the toolkit's routes have the rates the settings give;
 * `$default` is every other path or method (the function's 404/405, and CORS preflights in the
 * public mode); with `apiAuth=iam`, browsers' unsigned preflights get a route of their own
 * (infra/constructs/http-api.ts).
 */
export function smallRouteThrottles(s: SmallRouteSettings): Record<string, RouteThrottle> {
  const throttles: Record<string, RouteThrottle> = {};
  for (const name of Object.keys(FIXED_BUCKETS) as (keyof typeof FIXED_BUCKETS)[])
    throttles[routeKey(name)] = FIXED_BUCKETS[name];
  for (const name of Object.keys(TOOLKIT_RATE_KEYS) as ToolkitRoute[])
    throttles[routeKey(name)] = toolkitBucket(s[TOOLKIT_RATE_KEYS[name]]);
  throttles.$default = DEFAULT_ROUTE_BUCKET;
  if (s.apiAuth === 'iam') throttles[PREFLIGHT_ROUTE] = DEFAULT_ROUTE_BUCKET;
  return throttles;
}

/**
 * Executions a route's bucket can keep busy at once, in thousandths (integers, so the check is
 * exact): a full burst, plus what the steady rate admits while the first of them still run, for
 * the longest a request can run, W (Little's law gives the steady part, rate x duration; the burst
 * comes on top).
 */
function inFlightMilli({ rate, burst }: RouteThrottle): number {
  return burst * 1000 + rate * API_WORST_CASE_MS;
}

/** The most executions the stage can keep busy at once: every route's bucket full and its rate flowing. */
export function peakInFlight(throttles: Readonly<Record<string, RouteThrottle>>): number {
  return Object.values(throttles).reduce((sum, t) => sum + inFlightMilli(t), 0) / 1000;
}

/**
 * The POST /solve throttle that keeps the API function inside its pool. Each request holds an
 * execution for at most W (API_WORST_CASE_MS, measured: the per-request solving budget makes it
 * so), so the routes together keep at most sum(burst + rate x W) executions busy. The small routes
 * take their share; of the rest, two thirds go to the steady rate and one third to the burst, so a
 * sustained load is what the pool serves best. `pool` is the API function's (functionPools): its
 * reservation, or its part of unreservedConcurrencyShare.
 */
export function derivedThrottle(pool: number, small: SmallRouteSettings): RouteThrottle {
  const leftMilli = pool * 1000 - peakInFlight(smallRouteThrottles(small)) * 1000;
  const twoThirds = Math.floor((2 * leftMilli) / (3 * API_WORST_CASE_MS));
  const rate = Math.max(1, Math.min(twoThirds, Math.floor((leftMilli - 1000) / API_WORST_CASE_MS)));
  return { rate, burst: Math.max(1, Math.floor((leftMilli - rate * API_WORST_CASE_MS) / 1000)) };
}

/** Every route's bucket, as the stage sets them (RouteSettings) and the local twin applies them. */
export function apiRouteThrottles(
  s: Pick<Settings, 'apiRateLimit' | 'apiBurstLimit'> & SmallRouteSettings,
): Record<string, RouteThrottle> {
  return { [SOLVE_ROUTE]: { rate: s.apiRateLimit, burst: s.apiBurstLimit }, ...smallRouteThrottles(s) };
}

/** How the default files pool is shared (defaults above): the proportions filesPoolShares keeps. */
const DEFAULT_FILES_SHARES = { pool: 80, events: 10, batch: RUN_DEFAULTS.maxConcurrency } as const;

/** The files pool's parts: S3 events, each of the two runs (batch and sweep), one large file's ranges. */
export interface FilesPoolShares {
  readonly events: number;
  readonly batch: number;
  readonly largeFile: number;
}

/**
 * The smallest files pool that holds every source of demand: the SQS event source's smallest
 * maximum concurrency, one item for each run, one range.
 */
export const MIN_FILES_POOL = LAMBDA_SQS_MAX_CONCURRENCY.min + 2 + 1;

/**
 * The files pool's parts when unset, in the default's proportions: S3 events an eighth (at least
 * the SQS event source's minimum, 2), each run a quarter, and one large file what is left, up to
 * the contract's width. Parts `set` by hand are kept, and the large file gets what they leave.
 * Unset, always sums to at most `pool` (for a pool of at least MIN_FILES_POOL).
 */
export function filesPoolShares(pool: number, set: Partial<Omit<FilesPoolShares, 'largeFile'>> = {}): FilesPoolShares {
  const events =
    set.events ??
    Math.max(
      LAMBDA_SQS_MAX_CONCURRENCY.min,
      Math.floor((pool * DEFAULT_FILES_SHARES.events) / DEFAULT_FILES_SHARES.pool),
    );
  const batch = set.batch ?? Math.max(1, Math.floor((pool * DEFAULT_FILES_SHARES.batch) / DEFAULT_FILES_SHARES.pool));
  const largeFile = Math.max(1, Math.min(LARGE_FILE_DEFAULTS.maxConcurrency, pool - events - 2 * batch));
  return { events, batch, largeFile };
}

/**
 * Executions each function can keep busy: its reservation, or, at 0, its part of
 * unreservedConcurrencyShare (all of it when the other function is reserved; both at 0, split as
 * the default reservations are, 100 : 80).
 */
export function functionPools(
  s: Pick<Settings, 'apiReservedConcurrency' | 'filesReservedConcurrency' | 'unreservedConcurrencyShare'>,
): { api: number; files: number } {
  const share = s.unreservedConcurrencyShare;
  if (s.apiReservedConcurrency > 0 && s.filesReservedConcurrency > 0)
    return { api: s.apiReservedConcurrency, files: s.filesReservedConcurrency };
  if (s.apiReservedConcurrency > 0) return { api: s.apiReservedConcurrency, files: share };
  if (s.filesReservedConcurrency > 0) return { api: share, files: s.filesReservedConcurrency };
  const api = Math.floor(
    (share * defaults.apiReservedConcurrency) / (defaults.apiReservedConcurrency + defaults.filesReservedConcurrency),
  );
  return { api, files: share - api };
}

/**
 * What keeps the files pool busy at once: the executions kept for S3 events, a batch run and a
 * sweep (a run may still go at the other's hour: each may take a day), and one large file's ranges.
 * A second large file at once waits, throttled, for ranges of the first to end (RANGE_THROTTLE_RETRY).
 */
export function filesDemand(
  s: Pick<Settings, 'filesEventConcurrency' | 'batchMaxConcurrency' | 'largeFileMaxConcurrency'>,
): number {
  return s.filesEventConcurrency + 2 * s.batchMaxConcurrency + s.largeFileMaxConcurrency;
}

/**
 * Where raw setting values come from: CDK context (strings from `-c key=value`, JSON values from
 * cdk.json) or the construct's props. `undefined` means unset: the default applies.
 */
export type SettingSource = (key: string) => unknown;

/** Context values arrive as strings from `-c key=value` and as JSON values from cdk.json. */
function integer(source: SettingSource, key: keyof Settings, fallback: number, min: number, max: number): number {
  const raw: unknown = source(key);
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`context "${key}" must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * Files per batch-map invocation, at most what one child's 256 KiB holds with S3's longest keys
 * (functions/contract/batch-limits.ts): past it a child fails with States.DataLimitExceeded, which
 * no catch sees, and its files fail on every run.
 */
function batchItemsPerInvocation(source: SettingSource): number {
  const value = integer(
    source,
    'batchItemsPerInvocation',
    defaults.batchItemsPerInvocation,
    1,
    Number.MAX_SAFE_INTEGER,
  );
  if (value > MAX_ITEMS_PER_BATCH) {
    const entry = Math.max(MAX_ITEM_ENTRY_BYTES, MAX_RESULT_ENTRY_BYTES);
    throw new Error(
      `context "batchItemsPerInvocation" (${value}) must be at most ${MAX_ITEMS_PER_BATCH}: each file of a batch ` +
        `takes up to ${MAX_ITEM_ENTRY_BYTES} bytes of the child's input and ${MAX_RESULT_ENTRY_BYTES} of its result ` +
        `with ${S3_MAX_KEY_BYTES}-byte keys, and Step Functions fails a child past ${SFN_MAX_STATE_BYTES} bytes ` +
        `(States.DataLimitExceeded, which no catch sees): ${MAX_ITEMS_PER_BATCH} x ${entry} + ${BATCH_ENVELOPE_BYTES} fits`,
    );
  }
  return value;
}

function boolean(source: SettingSource, key: keyof Settings, fallback: boolean): boolean {
  const raw: unknown = source(key);
  if (raw === undefined) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`context "${key}" must be true or false, got ${JSON.stringify(raw)}`);
}

function text(source: SettingSource, key: keyof Settings, fallback: string, pattern: RegExp): string {
  const raw: unknown = source(key);
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !pattern.test(raw)) {
    throw new Error(`context "${key}" must match ${pattern}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** `*`, or origins as browsers send them (scheme://host[:port], no path), from a comma-separated string or a JSON array. */
function origins(source: SettingSource, key: keyof Settings, fallback: readonly string[]): readonly string[] {
  const raw: unknown = source(key);
  if (raw === undefined) return fallback;
  const list = typeof raw === 'string' ? raw.split(',').map((o) => o.trim()) : raw;
  const origin = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((o) => typeof o === 'string' && (o === '*' || origin.test(o))) ||
    (list.includes('*') && list.length > 1)
  ) {
    throw new Error(
      `context "${key}" must be * or a comma-separated list of origins like https://app.example.com, got ${JSON.stringify(raw)}`,
    );
  }
  return list as string[];
}

/** CloudWatch Logs accepts only some retention periods (1, 3, 5, 7, 14, 30, 60, 90, ... days). */
function retention(source: SettingSource, fallback: number): number {
  const value = integer(source, 'logRetentionDays', fallback, 1, 3653);
  const allowed = Object.values(RetentionDays).filter(
    (v): v is number => typeof v === 'number' && v !== RetentionDays.INFINITE,
  );
  if (!allowed.includes(value)) {
    throw new Error(`context "logRetentionDays" must be one of ${allowed.join(', ')}, got ${value}`);
  }
  return value;
}

function email(source: SettingSource, key: keyof Settings, fallback: string): string {
  const raw: unknown = source(key);
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw)) {
    throw new Error(`context "${key}" must be an email address, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** Reads every setting from the context of `node` (usually the App), falling back to `defaults`. */
export function readSettings(node: Node): Settings {
  for (const [old, replacement] of Object.entries(replacedKeys)) {
    if (node.tryGetContext(old) !== undefined) {
      throw new Error(`context "${old}" is now two settings, ${replacement} (one per function); set those instead`);
    }
  }
  return resolveSettings((key) => node.tryGetContext(key));
}

/**
 * Every setting from `source` (context, or the construct's props), each checked, the unset ones
 * derived or defaulted, then the ones that must agree checked together (checkConcurrency).
 */
export function resolveSettings(source: SettingSource): Settings {
  const apiTimeoutSeconds = integer(source, 'apiTimeoutSeconds', defaults.apiTimeoutSeconds, 3, 29);
  const apiReservedConcurrency = integer(source, 'apiReservedConcurrency', defaults.apiReservedConcurrency, 0, 10000);
  const apiAuth = text(source, 'apiAuth', defaults.apiAuth, /^(none|iam)$/) as ApiAuth;
  const small: SmallRouteSettings = {
    apiAuth,
    apiGradeRateLimit: integer(source, 'apiGradeRateLimit', defaults.apiGradeRateLimit, 1, 10000),
    apiHintRateLimit: integer(source, 'apiHintRateLimit', defaults.apiHintRateLimit, 1, 10000),
    apiPuzzleRateLimit: integer(source, 'apiPuzzleRateLimit', defaults.apiPuzzleRateLimit, 1, 10000),
  };
  const filesReservedConcurrency = integer(
    source,
    'filesReservedConcurrency',
    defaults.filesReservedConcurrency,
    0,
    10000,
  );
  const unreservedConcurrencyShare = integer(
    source,
    'unreservedConcurrencyShare',
    defaults.unreservedConcurrencyShare,
    1,
    100000,
  );
  const pools = functionPools({ apiReservedConcurrency, filesReservedConcurrency, unreservedConcurrencyShare });
  const throttle = derivedThrottle(pools.api, small);
  const s3Events = text(source, 's3Events', defaults.s3Events, /^(notification|eventbridge|sqs)$/) as S3EventRoute;
  const derived = filesPoolShares(pools.files);
  const events = integer(
    source,
    'filesEventConcurrency',
    derived.events,
    s3Events === 'sqs' ? LAMBDA_SQS_MAX_CONCURRENCY.min : 1,
    LAMBDA_SQS_MAX_CONCURRENCY.max,
  );
  const batch = integer(source, 'batchMaxConcurrency', derived.batch, 1, SFN_MAP_MAX_CONCURRENCY);
  const shares = filesPoolShares(pools.files, { events, batch });
  const settings: Settings = {
    apiMemoryMb: integer(source, 'apiMemoryMb', defaults.apiMemoryMb, 128, 10240),
    apiTimeoutSeconds,
    apiReservedConcurrency,
    apiRateLimit: integer(source, 'apiRateLimit', throttle.rate, 1, 10000),
    apiBurstLimit: integer(source, 'apiBurstLimit', throttle.burst, 1, 5000),
    ...small,
    filesMemoryMb: integer(source, 'filesMemoryMb', defaults.filesMemoryMb, 128, 10240),
    filesTimeoutSeconds: integer(source, 'filesTimeoutSeconds', defaults.filesTimeoutSeconds, 30, 900),
    filesReservedConcurrency,
    unreservedConcurrencyShare,
    filesEventConcurrency: events,
    corsOrigins: origins(source, 'corsOrigins', defaults.corsOrigins),
    inputExpirationDays: integer(source, 'inputExpirationDays', defaults.inputExpirationDays, 1, 3650),
    outputExpirationDays: integer(source, 'outputExpirationDays', defaults.outputExpirationDays, 1, 3650),
    logRetentionDays: retention(source, defaults.logRetentionDays),
    batchLogAll: boolean(source, 'batchLogAll', defaults.batchLogAll),
    alarmEmail: email(source, 'alarmEmail', defaults.alarmEmail),
    retainBucket: boolean(source, 'retainBucket', defaults.retainBucket),
    batchSchedule: text(source, 'batchSchedule', defaults.batchSchedule, /^(cron|rate|at)\(.+\)$/),
    sweepSchedule: text(source, 'sweepSchedule', defaults.sweepSchedule, /^(cron|rate|at)\(.+\)$/),
    batchScheduleTimezone: text(source, 'batchScheduleTimezone', defaults.batchScheduleTimezone, /^[A-Za-z_+\-/0-9]+$/),
    batchMaxConcurrency: batch,
    batchItemsPerInvocation: batchItemsPerInvocation(source),
    batchToleratedFailurePercent: integer(
      source,
      'batchToleratedFailurePercent',
      defaults.batchToleratedFailurePercent,
      0,
      100,
    ),
    largeFileMaxConcurrency: integer(source, 'largeFileMaxConcurrency', shares.largeFile, 1, SFN_MAP_MAX_CONCURRENCY),
    s3Events,
  };
  checkConcurrency(settings);
  return settings;
}

const TOOLKIT_HINT =
  ', with apiGradeRateLimit/apiHintRateLimit/apiPuzzleRateLimit as set: lower them, or raise apiReservedConcurrency';

/** Which setting gives a function its pool, for the messages: its reservation or the shared part. */
function poolName(reserved: number, key: string): string {
  return reserved > 0 ? key : 'its part of unreservedConcurrencyShare';
}

/**
 * The settings that must agree with each other. The stage's route throttles together must not
 * admit more requests than the API function's pool can run at once (burst + rate x W summed over
 * the routes), or the excess is throttled by Lambda and the client gets a 5xx instead of API
 * Gateway's 429; the files function's concurrent demand (filesDemand) must fit its pool. A pool is
 * the reservation, or without one the function's part of unreservedConcurrencyShare
 * (functionPools), so a small account's stack is held to what it can run too.
 */
export function checkConcurrency(s: Settings): void {
  const pools = functionPools(s);
  const apiPool = poolName(s.apiReservedConcurrency, 'apiReservedConcurrency');
  const small = peakInFlight(smallRouteThrottles(s));
  const smallest = small + peakInFlight({ [SOLVE_ROUTE]: { rate: 1, burst: 1 } });
  if (pools.api < smallest) {
    throw new Error(
      (s.apiReservedConcurrency > 0
        ? `context "apiReservedConcurrency" (${s.apiReservedConcurrency}) must be 0 (no reservation) or at least `
        : `the API function's part of context "unreservedConcurrencyShare" (${pools.api} of ${s.unreservedConcurrencyShare}) must be at least `) +
        `${Math.ceil(smallest)}: the small routes' buckets keep up to ${small} executions busy, and the smallest ` +
        `POST /solve throttle (1 request/s for W = ${API_WORST_CASE_MS / 1000} s, plus a burst of 1) ` +
        `${smallest - small} more` +
        (small > peakInFlight(smallRouteThrottles({ ...defaults, apiAuth: s.apiAuth })) ? TOOLKIT_HINT : ''),
    );
  }
  const peak = peakInFlight(apiRouteThrottles(s));
  if (peak > pools.api) {
    const fit = derivedThrottle(pools.api, s);
    throw new Error(
      `context "apiRateLimit"/"apiBurstLimit": burst ${s.apiBurstLimit} + rate ${s.apiRateLimit}/s x ` +
        `W ${API_WORST_CASE_MS / 1000} s on POST /solve, plus ${small} for the other routes, = ${peak} requests ` +
        `in flight, more than ${apiPool} ${pools.api}; lower them ` +
        `(e.g. rate ${fit.rate}, burst ${fit.burst}), or raise ${s.apiReservedConcurrency > 0 ? 'apiReservedConcurrency' : 'unreservedConcurrencyShare'}`,
    );
  }
  const demand = filesDemand(s);
  if (demand > pools.files) {
    throw new Error(
      `the files function's concurrent demand, filesEventConcurrency ${s.filesEventConcurrency} + a batch run ` +
        `${s.batchMaxConcurrency} + a sweep ${s.batchMaxConcurrency} (batchMaxConcurrency, twice: a run may still go ` +
        `at the other's hour) + one large file's ranges ${s.largeFileMaxConcurrency} (largeFileMaxConcurrency) = ` +
        `${demand}, exceeds ${poolName(s.filesReservedConcurrency, 'filesReservedConcurrency')} ${pools.files}; ` +
        `lower them, or raise ${s.filesReservedConcurrency > 0 ? 'filesReservedConcurrency' : 'unreservedConcurrencyShare'} ` +
        `(unset, they are derived from the pool: at least ${MIN_FILES_POOL})`,
    );
  }
}
