/**
 * The facts both sides of the project share, written once: the bucket's key layout, the batch
 * modes, the names logs and metrics go under, and the defaults of the settings the function
 * mirrors. Pure data and tiny pure functions only: infra/ imports this file, so it must never
 * import anything that solves or touches AWS at run time.
 */

import { createHash } from 'node:crypto';
import { S3_MAX_KEY_BYTES, S3_MAX_USER_METADATA_BYTES } from './aws-quotas.js';
import { ERROR_NAMES } from './error-names.js';
import { ENV } from './environment.js';

// The bucket's key layout. Inputs and outputs never share a prefix, so nothing the function
// writes can trigger it again; and every prefix the service writes holds one kind of object, so no
// two source keys ever answer at the same key (`outputKeysFor` is injective).
export const prefixes = {
  /** Uploads here trigger the function through an S3 notification. */
  incoming: 'incoming/',
  /** Files here are solved by the scheduled batch run. */
  batch: 'batch/',
  /** Answers to incoming/ files, at the same path as their source. Never a trigger prefix. */
  solved: 'solved/',
  /** One JSON report per incoming/ file: `reports/<path>.json`. Never a trigger prefix. */
  reports: 'reports/',
  /** Answers to batch/ files, at the same path as their source (apart from incoming/'s, which may share the path). */
  batchSolved: 'batch-solved/',
  /** One JSON report per batch/ file: `batch-reports/<path>.json`. */
  batchReports: 'batch-reports/',
  /**
   * Answers and reports whose natural key would pass S3's 1,024 bytes, named by the SHA-256 of the
   * whole source key (so incoming/x and batch/x never meet): `long-keys/<sha256>.json` (the report,
   * which names its source) and `long-keys/<sha256>.solved<ext>` (the answer, when its own key is too long).
   */
  longKeys: 'long-keys/',
  /** Step Functions' own result files of each batch run; the function is denied writing here. */
  runReports: 'run-reports/',
  /**
   * Work objects of files solved in ranges (functions/contract/large-files.ts): each range's
   * answers until they are copied into the output, removed when the file is done (and by the
   * bucket's lifecycle rule, if a job dies). Never a trigger prefix.
   */
  staging: 'staging/',
} as const;

/** The prefixes a source is accepted from: an S3 event's (incoming/) and the batch run's (batch/). */
export type SourcePrefix = typeof prefixes.incoming | typeof prefixes.batch;

/** Where each source prefix answers: its own output and report prefixes, shared with no other. */
export const ANSWER_PREFIXES: Readonly<Record<SourcePrefix, { solved: string; reports: string }>> = {
  [prefixes.incoming]: { solved: prefixes.solved, reports: prefixes.reports },
  [prefixes.batch]: { solved: prefixes.batchSolved, reports: prefixes.batchReports },
};

/** Every prefix the files function writes answers under (its grants, the lifecycle rules and the docs read this). */
export const OUTPUT_PREFIXES: readonly string[] = [
  prefixes.solved,
  prefixes.reports,
  prefixes.batchSolved,
  prefixes.batchReports,
  prefixes.longKeys,
];

/** Step Functions' own result files of each batch run (the function never writes there). */
export const RUN_REPORTS_PREFIX = prefixes.runReports;

/** Object metadata on outputs and reports naming the source version they answer (x-amz-meta-source-etag). */
export const SOURCE_ETAG_METADATA = 'source-etag';
/** Object metadata naming the source key (`sourceKeyMetadata`): which file an output or a report answers. */
export const SOURCE_KEY_METADATA = 'source-key';

/**
 * The value of SOURCE_KEY_METADATA for a source key: the key URL-encoded (metadata travels as HTTP
 * headers: ASCII only) while that takes at most half of S3's 2 KB of user-defined metadata, else
 * `sha256:<hex of the key>`. URL-encoding triples a multi-byte character, so a long non-ASCII key
 * (up to ~3 KB encoded) would make S3 refuse the write with MetadataTooLarge, every retry alike.
 * The report's body names the key in full either way.
 */
export function sourceKeyMetadata(sourceKey: string): string {
  const encoded = encodeURIComponent(sourceKey);
  if (encoded.length <= S3_MAX_USER_METADATA_BYTES / 2) return encoded;
  return `sha256:${createHash('sha256').update(sourceKey).digest('hex')}`;
}
/** The metadata an output or a report carries: the source version (`eTag`) and the source key it answers. */
export function answerMetadata(sourceKey: string, eTag: string): Record<string, string> {
  return { [SOURCE_ETAG_METADATA]: eTag, [SOURCE_KEY_METADATA]: sourceKeyMetadata(sourceKey) };
}
/**
 * Object metadata on a source file (x-amz-meta-grade: true, `aws s3 cp --metadata grade=true`)
 * asking for every unique row to be graded: a level histogram in the report, level and score
 * columns in a .csv. Opt-in: grading costs 8-12x the solving (docs/files.md).
 */
export const GRADE_METADATA = 'grade';
/** Object metadata on reports: the outcome (`solved` or `rejected`), so one HEAD tells whether a version was already handled. */
export const REPORT_OUTCOME_METADATA = 'outcome';

/** Where the answer and the report of one source file go. */
export interface OutputKeys {
  outputKey: string;
  reportKey: string;
}

/**
 * `incoming/<path>` -> `solved/<path>` and `reports/<path>.json`; `batch/<path>` ->
 * `batch-solved/<path>` and `batch-reports/<path>.json`; undefined for a key outside `sourcePrefix`
 * or the prefix itself. A key that would pass S3's 1,024 bytes (a report adds 4 bytes to an
 * incoming/ key, a batch answer 7 and its report 12) goes under `long-keys/` instead, named by the
 * SHA-256 of the whole source key, so no file is retried forever for want of a place to say what
 * became of it. Injective: the answer prefixes are the source's own, and a long-key name carries
 * the source prefix inside its hash.
 */
export function outputKeysFor(sourceKey: string, sourcePrefix: SourcePrefix): OutputKeys | undefined {
  if (!sourceKey.startsWith(sourcePrefix) || sourceKey.length === sourcePrefix.length) return undefined;
  const path = sourceKey.slice(sourcePrefix.length);
  const answers = ANSWER_PREFIXES[sourcePrefix];
  const outputKey = `${answers.solved}${path}`;
  const reportKey = `${answers.reports}${path}.json`;
  const hashed = () => `${prefixes.longKeys}${createHash('sha256').update(sourceKey).digest('hex')}`;
  return {
    outputKey: utf8Bytes(outputKey) <= S3_MAX_KEY_BYTES ? outputKey : `${hashed()}.solved${extensionOf(path)}`,
    reportKey: utf8Bytes(reportKey) <= S3_MAX_KEY_BYTES ? reportKey : `${hashed()}.json`,
  };
}

/** The file's extensions (`.txt`, `.csv.gz`), kept on a hashed answer so it still opens as what it is. */
function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /(\.[0-9A-Za-z]{1,8}){1,2}$/.exec(name)?.[0] ?? '';
}

/** Whether a trigger takes a key, and if so where its answer and report go. */
export type SourceKeyVerdict = ({ ok: true } & OutputKeys) | { ok: false; reason: 'folder' | 'outside-prefix' };

/**
 * Which keys a trigger accepts, for every trigger (S3 events and map items): a file under
 * `sourcePrefix`, never the prefix itself or a key outside it (outputs must never land where they
 * are read from), and never a folder marker (`dir/`, zero bytes, made by a console or a sync
 * tool: not a file). An accepted key comes with its output keys (`outputKeysFor`).
 */
export function acceptSourceKey(sourceKey: string, sourcePrefix: SourcePrefix): SourceKeyVerdict {
  const keys = outputKeysFor(sourceKey, sourcePrefix);
  if (!keys) return { ok: false, reason: 'outside-prefix' };
  if (sourceKey.endsWith('/')) return { ok: false, reason: 'folder' };
  return { ok: true, ...keys };
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A scheduled run: `batch` solves the files under batch/; `sweep` solves incoming/ files whose S3 event was lost. */
export type RunMode = 'batch' | 'sweep';

/** The prefix each run mode lists and accepts keys from. */
export const RUN_MODE_PREFIX: Readonly<Record<RunMode, SourcePrefix>> = {
  batch: prefixes.batch,
  sweep: prefixes.incoming,
};

/**
 * The Distributed Map state of each run mode, also its map-run label: the stack names the states
 * so, and the local runner names them the same in its ARNs.
 */
export const MAP_STATE_NAMES: Readonly<Record<RunMode, string>> = { batch: 'BatchFiles', sweep: 'SweepIncoming' };

export function isRunMode(value: unknown): value is RunMode {
  return value === 'batch' || value === 'sweep';
}

/** Used when POWERTOOLS_SERVICE_NAME is not set (locally, in tests); the Sudoku stack sets this same name in AWS (another SudokuService: SERVICE_NAME-<its name prefix>). */
export const SERVICE_NAME = 'sudoku';
/** CloudWatch metrics namespace, the stack's and the local default. */
export const METRICS_NAMESPACE = 'Sudoku';

/** Metric names, so the stack's dashboards and alarms use the same strings the function emits. */
export const METRIC = {
  boardsSolved: 'BoardsSolved',
  boardsFailed: 'BoardsFailed',
  solveTime: 'SolveTime',
  /** Bucket files answered (output and report written), rejected as not puzzles (report only), and failed (retried). */
  filesSolved: 'FilesSolved',
  filesRejected: 'FilesRejected',
  filesFailed: 'FilesFailed',
} as const;

/**
 * Defaults of the batch-run settings that both the stack (the Distributed Map) and a local run
 * (`npm run batch`) use, so a local run has the shape of a map run.
 */
export const RUN_DEFAULTS = {
  /** Invocations (groups of keys) in flight at once: the map's MaxConcurrency. */
  maxConcurrency: 20,
  /** Keys handed to one invocation: the map's item batcher. */
  itemsPerInvocation: 10,
} as const;

/**
 * How the batch run retries a map item (one invocation with a group of files) that threw
 * BatchItemsFailedError because some of its files failed: files already solved are skipped by
 * their ETag on the retry, so only the failed ones are done again. The stack's Retry rule and
 * `npm run batch` both read this. `retries` counts the attempts after the first (Step Functions'
 * MaxAttempts).
 */
export const MAP_ITEM_RETRY = {
  error: ERROR_NAMES.batchItemsFailed,
  retries: 2,
  intervalSeconds: 10,
  backoffRate: 2,
} as const;

/**
 * CORS, as browsers on other origins need it. The stack configures API Gateway with these values
 * and the function answers the preflights API Gateway passes on with the same ones, so both
 * always agree. The allowed origins are a setting (`corsOrigins`), handed to the function in
 * the environment variable `originsEnv` as a comma-separated list; without it (locally, in tests) any origin may call.
 */
export const CORS = {
  defaultOrigins: ['*'],
  originsEnv: ENV.corsOrigins,
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  /** content-type for JSON and text bodies; the rest are what a SigV4-signed (IAM mode) call sends. */
  allowHeaders: ['content-type', 'authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256'],
  /** Response headers a browser script may read beyond the safelisted ones: the text/plain counts and the request id. */
  exposeHeaders: ['x-sudoku-solved', 'x-sudoku-failed', 'apigw-requestid'],
  maxAgeSeconds: 86_400,
} as const;

/**
 * The two functions the stack deploys from the one bundle: `api` answers the HTTP API; `files`
 * handles S3 events and map items. Neither is told which it is: the events it gets say.
 */
export type FunctionPurpose = 'api' | 'files';

/**
 * Default timeouts of the two functions, so the local twin gives each kind of invocation the time
 * AWS gives it. The API's is short on purpose (it bounds the API's concurrency and cost: see
 * docs/infra.md); a file may take Lambda's maximum.
 */
export const FUNCTION_TIMEOUT_DEFAULTS: Readonly<Record<FunctionPurpose, number>> = { api: 5, files: 900 };

/** The function's environment variable that says on how many threads a file is solved (functions/parallel reads it). */
export const SOLVER_THREADS_ENV = ENV.solverThreads;

/** Lambda's memory that buys one full vCPU; CPU grows in proportion, up to 6 vCPUs at 10,240 MB. */
export const MB_PER_VCPU = 1769;

/**
 * Threads for a function of `memoryMb`: its vCPUs, rounded (3,008 MB, 1.7 vCPUs, gains from a
 * second thread; 2,048 MB does not), at least 1 and at most 6. Set explicitly because at 1,769 MB
 * the sandbox may still show two CPUs to `os.availableParallelism()` while paying for one.
 */
export function solverThreadsForMemory(memoryMb: number): number {
  return Math.max(1, Math.min(6, Math.round(memoryMb / MB_PER_VCPU)));
}
