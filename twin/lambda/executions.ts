/**
 * Invocations as Lambda runs them: each in an execution environment (a worker thread loading the
 * deployed bundle) that is ended when the invocation passes the function's timeout, whatever it
 * is doing; no more at once than the function's pool (its reserved concurrency: past it an
 * invocation is throttled, Lambda.TooManyRequestsException, without running); asynchronous ones
 * (S3 events) retried twice on a function error, and on a throttle as Lambda retries it (1 s
 * apart, doubling to 5 minutes, for up to 6 hours), then kept as the failed-events queue would
 * keep them: one JSON record per event under `.local/failed-events/`, in the shape of Lambda's
 * on-failure destination record. As Lambda does, an environment that answered (or threw) is kept
 * warm and given the next invocation of the same function and settings, with its module state and
 * its compiled code; one that timed out or crashed is discarded, so the next starts cold.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import {
  LAMBDA_ASYNC_MAX_EVENT_AGE_HOURS,
  LAMBDA_ASYNC_THROTTLE_RETRY_SECONDS,
  LAMBDA_MAX_ASYNC_PAYLOAD_BYTES,
} from '../../functions/contract/aws-quotas.js';
import { DEPLOYED_BUNDLE } from './deployed-handler.js';
import {
  type Invocation,
  type RuntimeReply,
  type RuntimeRequest,
  startExecutionEnvironment,
  throttledInvocation,
} from './runtime.js';
import { filesConcurrency } from '../stack-limits.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FAILED_EVENTS_DIR = path.join(root, '.local', 'failed-events');

export type { Invocation } from './runtime.js';

export interface InvocationOptions {
  /** The function's timeout; the execution is ended there. */
  timeoutMs: number;
  bundle?: string;
  functionName?: string;
  /** Where the execution's stdout goes (its logs): inherited, or stderr (npm run invoke keeps stdout for results). */
  logsTo?: 'stdout' | 'stderr';
  /** Environment variables of this execution over the process's (a range runs on one thread). */
  env?: Record<string, string>;
  /** The function's pool, executions at once (0 = no limit); by default the files function's as deployed. */
  concurrency?: number;
}

/** Lambda keeps an idle environment for minutes; the twin for this long, to free its memory sooner. */
const KEEP_WARM_MS = 60_000;

interface Environment {
  worker: Worker;
  /** Ends the environment if no invocation comes before it fires. */
  expiry?: NodeJS.Timeout;
}

/** Idle environments by function and settings (bundle, name, logs, the whole environment). */
const idle = new Map<string, Environment[]>();

function environmentFor(key: string, options: InvocationOptions, env: NodeJS.ProcessEnv): Environment {
  const warm = idle.get(key)?.pop();
  if (warm) {
    clearTimeout(warm.expiry);
    warm.worker.ref();
    return warm;
  }
  const worker = startExecutionEnvironment(
    {
      functionName: options.functionName ?? FILES_FUNCTION_NAME,
      ...(options.bundle ? { bundle: options.bundle } : {}),
    },
    { stdout: options.logsTo === 'stderr', env },
  );
  if (options.logsTo === 'stderr') worker.stdout.pipe(process.stderr);
  return { worker };
}

function keepWarm(key: string, environment: Environment): void {
  // An idle environment never keeps the process alive (Lambda freezes it; here it just waits).
  environment.worker.unref();
  const list = idle.get(key) ?? [];
  list.push(environment);
  idle.set(key, list);
  environment.expiry = setTimeout(() => {
    const at = list.indexOf(environment);
    if (at >= 0) list.splice(at, 1);
    void environment.worker.terminate();
  }, KEEP_WARM_MS);
  environment.expiry.unref();
}

/** Invocations running now, by function name: what the pool counts. */
const running = new Map<string, number>();

const FILES_FUNCTION_NAME = 'sudoku-files-local';

/**
 * One invocation in an execution environment, ended at the timeout as Lambda ends it; throttled at
 * once, without running, when the function's pool is full.
 */
export function invokeFunction(event: unknown, options: InvocationOptions): Promise<Invocation> {
  const requestId = randomUUID();
  const name = options.functionName ?? FILES_FUNCTION_NAME;
  const limit = options.concurrency ?? filesConcurrency();
  const busy = running.get(name) ?? 0;
  if (limit > 0 && busy >= limit)
    return Promise.resolve(throttledInvocation(requestId, `Rate Exceeded: ${name} has ${limit} executions, all busy`));
  running.set(name, busy + 1);
  return runInvocation(event, options, requestId).finally(() => running.set(name, (running.get(name) ?? 1) - 1));
}

function runInvocation(event: unknown, options: InvocationOptions, requestId: string): Promise<Invocation> {
  // Lambda sets the initialization type; Powertools reads it to tell a cold start from a warm one.
  const env = { ...process.env, AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand', ...options.env };
  const key = JSON.stringify([options.bundle ?? DEPLOYED_BUNDLE, options.functionName, options.logsTo, env]);
  const environment = environmentFor(key, options, env);
  const { worker } = environment;
  return new Promise((resolve) => {
    const deadline = Date.now() + options.timeoutMs;
    let settled = false;
    const settle = (invocation: Invocation, reuse: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reuse) keepWarm(key, environment);
      else void worker.terminate();
      resolve(invocation);
    };
    const timer = setTimeout(
      () =>
        settle(
          {
            ok: false,
            requestId,
            errorType: 'Sandbox.Timedout',
            errorMessage: `Task timed out after ${(options.timeoutMs / 1000).toFixed(2)} seconds`,
            timedOut: true,
          },
          false,
        ),
      options.timeoutMs,
    );
    const onMessage = (reply: RuntimeReply): void =>
      settle(
        reply.ok
          ? { ok: true, requestId, result: reply.result }
          : {
              ok: false,
              requestId,
              errorType: reply.errorType,
              errorMessage: reply.errorMessage,
              timedOut: false,
              ...(reply.errorResult === undefined ? {} : { errorResult: reply.errorResult }),
            },
        true,
      );
    const onError = (error: Error): void =>
      settle(
        { ok: false, requestId, errorType: 'Runtime.ExitError', errorMessage: error.message, timedOut: false },
        false,
      );
    const onExit = (code: number): void =>
      settle(
        { ok: false, requestId, errorType: 'Runtime.ExitError', errorMessage: `exited with ${code}`, timedOut: false },
        false,
      );
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({ event, requestId, deadline } satisfies RuntimeRequest);
  });
}

/** Lambda's on-failure destination record, as the failed-events queue receives it. */
export interface FailedEventRecord {
  version: '1.0';
  timestamp: string;
  requestContext: {
    requestId: string;
    functionArn: string;
    condition: 'RetriesExhausted' | 'EventAgeExceeded';
    approximateInvokeCount: number;
  };
  requestPayload: unknown;
  responseContext: { statusCode: 200; executedVersion: '$LATEST'; functionError: 'Unhandled' };
  responsePayload: { errorType: string; errorMessage: string };
}

export interface AsyncInvocationOptions extends InvocationOptions {
  /** Lambda retries a failed asynchronous invocation twice. */
  retries?: number;
  /** Lambda waits about a minute, then two; the twin waits this, doubled each time (default 1 s). */
  retryDelayMs?: number;
  /** A throttled event's first wait, doubled each time up to 300 times it (Lambda: 1 s to 5 minutes); tests shorten it. */
  throttleRetryMs?: number;
  /** How long a throttled event is retried before it is dropped to the failed-events queue (Lambda: 6 hours). */
  maxEventAgeMs?: number;
  failedEventsDir?: string;
}

/**
 * An asynchronous invocation (an S3 event): retried twice when it fails or times out, and for as
 * long as the maximum event age while it is throttled, then recorded as the failed-events queue
 * would hold it. Resolves with the last invocation, the attempts (throttled ones included) and how
 * many were throttled, and, if it failed for good, where its record was written.
 */
export async function invokeFunctionAsync(
  event: unknown,
  options: AsyncInvocationOptions,
): Promise<{ invocation: Invocation; attempts: number; throttled: number; failedEventFile?: string }> {
  // Lambda refuses an Event invocation past its payload quota (413 RequestEntityTooLargeException):
  // nothing runs, nothing is retried, and no failure destination ever sees it.
  const bytes = Buffer.byteLength(JSON.stringify(event), 'utf8');
  if (bytes > LAMBDA_MAX_ASYNC_PAYLOAD_BYTES)
    return {
      invocation: {
        ok: false,
        requestId: randomUUID(),
        errorType: 'RequestEntityTooLargeException',
        errorMessage: `${bytes} byte payload is too large for the Event invocation type (limit ${LAMBDA_MAX_ASYNC_PAYLOAD_BYTES} bytes)`,
        timedOut: false,
      },
      attempts: 0,
      throttled: 0,
    };
  const retries = options.retries ?? 2;
  const firstThrottleWait = options.throttleRetryMs ?? LAMBDA_ASYNC_THROTTLE_RETRY_SECONDS.first * 1000;
  const longestThrottleWait =
    (firstThrottleWait * LAMBDA_ASYNC_THROTTLE_RETRY_SECONDS.max) / LAMBDA_ASYNC_THROTTLE_RETRY_SECONDS.first;
  const maxAge = options.maxEventAgeMs ?? LAMBDA_ASYNC_MAX_EVENT_AGE_HOURS * 3_600_000;
  const queuedAt = Date.now();
  let invocation: Invocation | undefined;
  let attempts = 0;
  let throttled = 0;
  let expired = false;
  for (let failures = 0; failures <= retries; ) {
    // A retry after a function error waits as Lambda does (a throttle has waited already).
    if (invocation && !invocation.ok && !invocation.throttled)
      await delay((options.retryDelayMs ?? 1000) * 2 ** (failures - 1));
    invocation = await invokeFunction(event, options);
    attempts++;
    if (invocation.ok) return { invocation, attempts, throttled };
    if (invocation.throttled) {
      // Lambda keeps a throttled event in its queue and tries again, further apart each time, until
      // the event is too old; a throttle is not one of the two retries.
      const wait = Math.min(longestThrottleWait, firstThrottleWait * 2 ** throttled);
      throttled++;
      if (Date.now() + wait - queuedAt > maxAge) {
        expired = true;
        break;
      }
      await delay(wait);
      continue;
    }
    failures++;
  }
  const failed = invocation as Extract<Invocation, { ok: false }>;
  const record: FailedEventRecord = {
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: failed.requestId,
      functionArn: `arn:aws:lambda:us-east-1:123456789012:function:${options.functionName ?? FILES_FUNCTION_NAME}:$LATEST`,
      condition: expired ? 'EventAgeExceeded' : 'RetriesExhausted',
      approximateInvokeCount: attempts,
    },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: { errorType: failed.errorType, errorMessage: failed.errorMessage },
  };
  const dir = options.failedEventsDir ?? FAILED_EVENTS_DIR;
  mkdirSync(dir, { recursive: true });
  const failedEventFile = path.join(dir, `${record.timestamp.replace(/[:.]/g, '-')}-${failed.requestId}.json`);
  writeFileSync(failedEventFile, `${JSON.stringify(record, null, 2)}\n`);
  return { invocation: failed, attempts, throttled, failedEventFile };
}

/** Ends every idle environment (a command that is done; they would otherwise wait out KEEP_WARM_MS). */
export async function endWarmEnvironments(): Promise<void> {
  const all = [...idle.values()].flat();
  idle.clear();
  await Promise.all(
    all.map((environment) => {
      clearTimeout(environment.expiry);
      return environment.worker.terminate();
    }),
  );
}
