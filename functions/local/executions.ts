/**
 * Invocations as Lambda runs them: each in an execution of its own (a worker thread loading
 * the deployed bundle) that is ended when it passes the function's timeout, whatever it is doing;
 * asynchronous ones (S3 events) retried twice, then kept as the failed-events queue would keep
 * them: one JSON record per event under `.local/failed-events/`, in the shape of Lambda's
 * on-failure destination record.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DEPLOYED_BUNDLE } from './deployed-handler.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FAILED_EVENTS_DIR = path.join(root, '.local', 'failed-events');

/** The execution: loads the bundle (Lambda's init), runs one invocation, answers and exits. */
const EXECUTION = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const deadline = Date.now() + workerData.timeoutMs;
const name = workerData.functionName;
const context = { callbackWaitsForEmptyEventLoop: true, functionName: name, functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:' + name, memoryLimitInMB: '1769',
  awsRequestId: workerData.requestId, logGroupName: '/aws/lambda/' + name, logStreamName: 'local/[$LATEST]' + randomUUID(),
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()), done() {}, fail() {}, succeed() {} };
import(workerData.bundle)
  .then((m) => m.handler(workerData.event, context))
  .then((result) => parentPort.postMessage({ ok: true, result }))
  .catch((error) => parentPort.postMessage({ ok: false, errorType: (error && error.name) || 'Error', errorMessage: String((error && error.message) || error),
    errorResult: error && typeof error.result === 'object' ? error.result : undefined }));
`;

export type Invocation =
  | { ok: true; requestId: string; result: unknown }
  | {
      ok: false;
      requestId: string;
      errorType: string;
      errorMessage: string;
      timedOut: boolean;
      /**
       * The `result` a thrown error carried (a map batch's per-file results, BatchItemsFailedError).
       * Not in Lambda's error payload: the twin keeps it so a local run can report each file.
       */
      errorResult?: unknown;
    };

export interface InvocationOptions {
  /** The function's timeout; the execution is ended there. */
  timeoutMs: number;
  bundle?: string;
  functionName?: string;
  /** Where the execution's stdout goes (its logs): inherited, or stderr (npm run invoke keeps stdout for results). */
  logsTo?: 'stdout' | 'stderr';
  /** Environment variables of this execution over the process's (a range runs on one thread). */
  env?: Record<string, string>;
}

/** One invocation in an execution of its own, ended at the timeout as Lambda ends it. */
export function invokeFunction(event: unknown, options: InvocationOptions): Promise<Invocation> {
  const requestId = randomUUID();
  const worker = new Worker(EXECUTION, {
    eval: true,
    workerData: {
      event,
      requestId,
      timeoutMs: options.timeoutMs,
      functionName: options.functionName ?? 'sudoku-files-local',
      bundle: pathToFileURL(options.bundle ?? DEPLOYED_BUNDLE).href,
    },
    stdout: options.logsTo === 'stderr',
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  if (options.logsTo === 'stderr') worker.stdout.pipe(process.stderr);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (invocation: Invocation): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(invocation);
    };
    const timer = setTimeout(
      () =>
        settle({
          ok: false,
          requestId,
          errorType: 'Sandbox.Timedout',
          errorMessage: `Task timed out after ${(options.timeoutMs / 1000).toFixed(2)} seconds`,
          timedOut: true,
        }),
      options.timeoutMs,
    );
    type Reply = { ok: boolean; result?: unknown; errorType?: string; errorMessage?: string; errorResult?: unknown };
    worker.once('message', (reply: Reply) =>
      settle(
        reply.ok
          ? { ok: true, requestId, result: reply.result }
          : {
              ok: false,
              requestId,
              errorType: reply.errorType ?? 'Error',
              errorMessage: reply.errorMessage ?? '',
              timedOut: false,
              ...(reply.errorResult === undefined ? {} : { errorResult: reply.errorResult }),
            },
      ),
    );
    worker.once('error', (error) =>
      settle({ ok: false, requestId, errorType: 'Runtime.ExitError', errorMessage: error.message, timedOut: false }),
    );
  });
}

/** Lambda's on-failure destination record, as the failed-events queue receives it. */
export interface FailedEventRecord {
  version: '1.0';
  timestamp: string;
  requestContext: {
    requestId: string;
    functionArn: string;
    condition: 'RetriesExhausted';
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
  failedEventsDir?: string;
}

/**
 * An asynchronous invocation (an S3 event): retried twice when it fails or times out, then
 * recorded as the failed-events queue would hold it. Resolves with the last invocation and, if
 * it failed for good, where its record was written.
 */
export async function invokeFunctionAsync(
  event: unknown,
  options: AsyncInvocationOptions,
): Promise<{ invocation: Invocation; attempts: number; failedEventFile?: string }> {
  const retries = options.retries ?? 2;
  let invocation: Invocation | undefined;
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (attempt > 1) await delay((options.retryDelayMs ?? 1000) * 2 ** (attempt - 2));
    invocation = await invokeFunction(event, options);
    if (invocation.ok) return { invocation, attempts: attempt };
  }
  const failed = invocation as Extract<Invocation, { ok: false }>;
  const record: FailedEventRecord = {
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: failed.requestId,
      functionArn: `arn:aws:lambda:us-east-1:123456789012:function:${options.functionName ?? 'sudoku-files-local'}:$LATEST`,
      condition: 'RetriesExhausted',
      approximateInvokeCount: retries + 1,
    },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: { errorType: failed.errorType, errorMessage: failed.errorMessage },
  };
  const dir = options.failedEventsDir ?? FAILED_EVENTS_DIR;
  mkdirSync(dir, { recursive: true });
  const failedEventFile = path.join(dir, `${record.timestamp.replace(/[:.]/g, '-')}-${failed.requestId}.json`);
  writeFileSync(failedEventFile, `${JSON.stringify(record, null, 2)}\n`);
  return { invocation: failed, attempts: retries + 1, failedEventFile };
}
