/**
 * Starting the twin's one Lambda runtime (runtime-worker.mjs): an execution environment on a worker
 * thread, for both the files function's executions (executions.ts) and the API's threads
 * (handler-threads.ts).
 */
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { LOCAL_ACCOUNT_ID } from '../iam/local-account.js';
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
      memoryMb: options.memoryMb ?? 1769,
    },
  });
}
