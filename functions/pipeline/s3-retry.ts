/**
 * Retries of one S3 call, on top of the SDK's own: a step that makes hundreds of calls (the
 * finish of a file solved in ranges reads every range's tally and answers) fails whole if any
 * one call fails after the SDK's three attempts, and the SDK's retry quota runs dry under a
 * burst of 503 SlowDown. Each call is retried here on its own, with capped exponential backoff
 * and full jitter (AWS's advice for SlowDown), so faults the ranges survive slow the step down
 * instead of failing it. Only answers that can pass are retried: 5xx, 429, 408, timeouts and
 * broken connections; a 4xx (412 above all) is an answer, and is thrown at once.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface S3RetrySettings {
  /** Calls in all, the first included. */
  attempts: number;
  /** The first wait's cap; each later one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Eight calls of up to three SDK attempts each: at 20% of requests answered 503, a call then fails
 * once in 0.2^24 (never, over a file's thousands of calls). The waits add up to about 25 s at
 * most, well inside the finish step's invocation.
 */
export const S3_RETRY: S3RetrySettings = { attempts: 8, baseDelayMs: 200, maxDelayMs: 8_000 };

/** Node's codes for a connection that broke or never answered. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE',
]);
const TRANSIENT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'SlowDown', 'InternalError', 'ServiceUnavailable']);

/** Whether `error` can pass on its own: S3 busy or failing, or the connection lost (not a refusal). */
export function isRetryableS3Error(error: unknown): boolean {
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  if (!e || typeof e !== 'object') return false;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 400) return status >= 500 || status === 429 || status === 408;
  if (TRANSIENT_NAMES.has(e.name ?? '') || NETWORK_CODES.has(e.code ?? '')) return true;
  // A body cut or reset mid-way surfaces as a bare Error from the socket, without a status (the
  // pipeline's own errors are named, and a key in their message must not make them retried).
  return e.name === 'Error' && /socket hang up|aborted|premature close|ECONNRESET|timed? ?out/i.test(e.message ?? '');
}

/**
 * Runs `call` until it succeeds, it throws an error that cannot pass, or `settings.attempts` calls
 * have failed (the last error is thrown). `call` must be whole: a GET that reads its body does so
 * inside it, so a body cut mid-way is retried too.
 */
export async function retryS3<T>(call: () => Promise<T>, settings: S3RetrySettings = S3_RETRY): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= settings.attempts || !isRetryableS3Error(error)) throw error;
      const cap = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
      await delay(Math.random() * cap);
    }
  }
}
