/**
 * How a state machine's Lambda task waits out a full files pool (Lambda.TooManyRequestsException):
 * exponential backoff with full jitter, capped. The stack's Retry rules (infra/constructs/
 * state-machine-parts.ts) and the twin's runners (twin/stepfunctions/throttle-retry.ts) read these.
 */
import { SFN_MAX_HISTORY_EVENTS } from './aws-quotas.js';

/** The error Step Functions names a Lambda task throttled by its function's pool. */
export const THROTTLED_ERROR = 'Lambda.TooManyRequestsException';

export interface ThrottleRetry {
  readonly intervalSeconds: number;
  readonly backoffRate: number;
  /** The longest wait between two attempts (Step Functions' MaxDelaySeconds). */
  readonly maxDelaySeconds: number;
  /** Attempts after the first (Step Functions' MaxAttempts). */
  readonly maxAttempts: number;
}

/**
 * A batch or sweep item: the pool holds both runs by construction (infra/settings.ts), so a throttle
 * here is another function of the account taking unreserved concurrency; a few minutes, then the
 * item counts failed against the run's tolerated percentage.
 */
export const MAP_ITEM_THROTTLE_RETRY: ThrottleRetry = {
  intervalSeconds: 2,
  backoffRate: 2,
  maxDelaySeconds: 60,
  maxAttempts: 8,
};

/**
 * A range of a large file: the pool holds one large file's map at full width; a second large file
 * at once (two uploads, or a batch run handing over several) waits for ranges of the first to end.
 * One range that fails fails its whole file, so a range waits for the pool about as long as a
 * large file runs: up to 1,000 attempts at most 5 minutes apart (about 40 hours expected with full
 * jitter, 83 at most), well inside the machine's 7 days. Each attempt adds about three events to
 * the range's own execution history: 3,000 of its 25,000.
 */
export const RANGE_THROTTLE_RETRY: ThrottleRetry = {
  intervalSeconds: 2,
  backoffRate: 2,
  maxDelaySeconds: 300,
  maxAttempts: 1000,
};

/** History events one throttled attempt adds to an execution (TaskScheduled, TaskStarted, TaskFailed). */
export const EVENTS_PER_ATTEMPT = 3;

/** True when every attempt of `retry` fits in one execution's history with room to spare (half of it). */
export function fitsHistory(retry: ThrottleRetry): boolean {
  return (retry.maxAttempts + 1) * EVENTS_PER_ATTEMPT <= SFN_MAX_HISTORY_EVENTS / 2;
}

/** The wait before attempt `attempt + 1` (0-based retries), with full jitter: random in [0, cap). */
export function throttleDelaySeconds(
  retry: ThrottleRetry,
  attempt: number,
  random: () => number = Math.random,
): number {
  const cap = Math.min(retry.maxDelaySeconds, retry.intervalSeconds * retry.backoffRate ** attempt);
  return random() * cap;
}
