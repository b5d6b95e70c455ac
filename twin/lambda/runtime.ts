/**
 * Starting the twin's one Lambda runtime (runtime-worker.mjs): an execution environment on a worker
 * thread, for both the files function's executions (executions.ts) and the API's threads
 * (handler-threads.ts).
 */
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { THROTTLED_ERROR } from '../../functions/contract/throttle-retry.js';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '../iam/local-account.js';
import { DEPLOYED_BUNDLE } from './deployed-handler.js';

/** What an environment is given to run: the event, the request id, the deadline it is ended at. */
export interface RuntimeRequest {
  event: unknown;
  requestId: string;
  deadline: number;
}

/** What it answers: the handler's result or what it threw, and how long the invocation itself ran. */
export type RuntimeReply =
  | { ok: true; result: unknown; ranMs: number }
  | {
      ok: false;
      errorType: string;
      errorMessage: string;
      errorStack: string;
      errorResult?: unknown;
      ranMs: number;
    };

/** What an invocation came to, for every caller of the runtime (the gateway, the S3 events, the state machines). */
export type Invocation =
  | { ok: true; requestId: string; result: unknown }
  | {
      ok: false;
      requestId: string;
      errorType: string;
      errorMessage: string;
      timedOut: boolean;
      /** The pool was full: the invocation never ran (errorType Lambda.TooManyRequestsException). */
      throttled?: boolean;
      /**
       * The `result` a thrown error carried (a map batch's per-file results, BatchItemsFailedError).
       * Not in Lambda's error payload: the twin keeps it so a local run can report each file.
       */
      errorResult?: unknown;
    };

/** An invocation that never ran: the function's pool was full (Lambda's TooManyRequestsException). */
export function throttledInvocation(requestId: string, errorMessage: string): Invocation {
  // The name a Step Functions task sees (Lambda's API answers TooManyRequestsException, 429,
  // Reason ReservedFunctionConcurrentInvocationLimitExceeded).
  return { ok: false, requestId, errorType: THROTTLED_ERROR, errorMessage, timedOut: false, throttled: true };
}

const RUNTIME_WORKER = new URL('./runtime-worker.mjs', import.meta.url);

export function startExecutionEnvironment(
  options: { bundle?: string; functionName: string; memoryMb?: number },
  workerOptions: Omit<WorkerOptions, 'workerData' | 'eval'> = {},
): Worker {
  return new Worker(RUNTIME_WORKER, {
    ...workerOptions,
    workerData: {
      bundle: pathToFileURL(options.bundle ?? DEPLOYED_BUNDLE).href,
      functionName: options.functionName,
      accountId: LOCAL_ACCOUNT_ID,
      region: LOCAL_REGION,
      memoryMb: options.memoryMb ?? 1769,
    },
  });
}
