/** Files under this prefix are solved by the scheduled batch run: `batch/<path>` -> `solved/<path>`. */
export const BATCH_PREFIX = 'batch/';
/** Run reports (Step Functions' result writer in AWS, `npm run batch` locally). Never listed by a run. */
export const RUN_REPORTS_PREFIX = 'reports/runs/';

/**
 * Invocations (groups of keys) in flight at once. Mirrors the stack's `batchMaxConcurrency`
 * context default (test/batch checks they agree), so a local run has the shape of a map run.
 */
export const DEFAULT_MAX_CONCURRENCY = 20;
/** Keys handed to one invocation. Mirrors the stack's `batchItemsPerInvocation` (the item batcher). */
export const DEFAULT_ITEMS_PER_INVOCATION = 10;
/**
 * Files of one invocation processed at once. Solving is CPU-bound on the function's one vCPU, but
 * each small file spends most of its time on S3 round trips (HEADs, GET, PUTs); a few in flight
 * hide that latency while the buffered upload parts stay far below the function's memory.
 */
export const DEFAULT_FILES_PER_INVOCATION_IN_FLIGHT = 4;

/**
 * Longest error message kept per failed file in an invocation's result. The result becomes the
 * child execution's output (Step Functions caps it at 256 KiB) and the thrown error's message its
 * `Cause` (32 KiB); ten capped messages stay far below both.
 */
export const MAX_ERROR_MESSAGE_CHARS = 500;
