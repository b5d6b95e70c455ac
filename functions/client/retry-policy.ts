/**
 * When the client sends a request again, and after how long. Every route of the API is idempotent
 * (solving, grading, hinting and a seeded puzzle give the same answer twice), so a request the
 * function never answered is safe to repeat: API Gateway's 429 (the route's throttle) and its 500
 * (a throttled Lambda: the API function's reserved pool was full), 502-504 from a proxy, and a
 * fetch that got no answer. The function's own problem+json answers are final.
 */
import { type ThrottleRetry, throttleDelaySeconds } from '../contract/throttle-retry.js';

/** Backoff with full jitter and a cap, as the state machines wait out a full pool (contract/throttle-retry.ts). */
export type RetryPolicy = ThrottleRetry;

/**
 * The default: 12 retries after the first attempt, each waiting a random time below
 * 0.25 s x 2^attempt, capped at 8 s (64 s at most in all, about 32 s expected, when no
 * Retry-After says more): long enough to ride out a burst that fills the pool, short enough that
 * a dead API fails a call in about a minute.
 */
export const DEFAULT_RETRY: RetryPolicy = {
  intervalSeconds: 0.25,
  backoffRate: 2,
  maxDelaySeconds: 8,
  maxAttempts: 12,
};

/**
 * The longest Retry-After waited out by default: a minute, about the whole default backoff. API
 * Gateway sends none with its 429 and 500; a proxy or CDN in front of the API may, and may ask for hours.
 */
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;

/** Statuses worth another attempt when the answer is not the function's problem document. */
const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * Whether an answer asks for the same request again: a retried status that is not a problem
 * document (the function's own 500 internal-error is a bug, not a throttle: it is thrown).
 */
export function isRetriedAnswer(status: number, contentType: string): boolean {
  return RETRIED_STATUSES.has(status) && !/^application\/problem\+json\b/i.test(contentType);
}

/**
 * The wait a Retry-After header asks for, in ms (RFC 9110 §10.2.3: delay-seconds or an HTTP date),
 * or undefined when there is none or it cannot be read.
 */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * How long to wait before retry number `retry` (0-based): what Retry-After asks, else the policy's
 * backoff with full jitter.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfter: number | undefined,
  random: () => number,
): number {
  return retryAfter ?? throttleDelaySeconds(policy, retry, random) * 1000;
}

/** Time as the client sees it: a test gives one that records the waits and returns at once. */
export interface Clock {
  /** Milliseconds since the epoch (read Retry-After's dates against it). */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
