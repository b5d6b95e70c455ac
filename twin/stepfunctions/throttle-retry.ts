/**
 * A state machine's Lambda task waiting out a full pool, as the stack's Retry rule on
 * Lambda.TooManyRequestsException does (functions/contract/throttle-retry.ts): the batch runner
 * (batch-run.ts) wraps its invoke path in it, so a throttled item is tried again with the same
 * backoff, full jitter and attempts, and only then fails as Step Functions would fail it. (The
 * large-file machine needs no wrapper: asl-run.ts runs the Retry rules of its deployed definition.)
 */
import { setTimeout as delay } from 'node:timers/promises';
import { type ThrottleRetry, throttleDelaySeconds } from '../../functions/contract/throttle-retry.js';

export interface ThrottleRetryOptions {
  /** Multiplies every wait (tests shorten them; 1 = as deployed). */
  scale?: number;
  /** Told of each throttled attempt. */
  onThrottled?: () => void;
}

/**
 * Calls `attempt` until it is not throttled or `retry.maxAttempts` retries are spent; the last
 * outcome is returned either way (a throttle past the retries is the task's error then).
 */
export async function whileThrottled<T>(
  attempt: () => Promise<T>,
  isThrottled: (outcome: T) => boolean,
  retry: ThrottleRetry,
  options: ThrottleRetryOptions = {},
): Promise<T> {
  for (let retried = 0; ; retried++) {
    const outcome = await attempt();
    if (!isThrottled(outcome) || retried >= retry.maxAttempts) return outcome;
    options.onThrottled?.();
    await delay(throttleDelaySeconds(retry, retried) * 1000 * (options.scale ?? 1));
  }
}
