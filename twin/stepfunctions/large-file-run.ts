/**
 * The large-file state machine played locally: the deployed definition itself (read from the
 * synthesized template, asl-definition.ts) run state by state (asl-run.ts), so its retry rules, its
 * catch into ReportFailure, its data flow and Step Functions' data quotas are the ones AWS runs. Each
 * Lambda task is one invocation of the files function, handed to `invoke`: under `npm start` and
 * `npm run batch` an execution of its own (executions.ts, a worker thread ended at the function's
 * timeout), so a laptop solves several ranges at once.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type {
  FinishResult,
  LargeFileEvent,
  LargeFileJob,
  RangeStepResult,
} from '../../functions/contract/large-files.js';
import { LARGE_FILE_STATES } from '../../functions/contract/large-files.js';
import { type AslMachine, deployedLargeFileDefinition } from './asl-definition.js';
import { AslRun, StateFailed } from './asl-run.js';

/** One invocation's end, as Step Functions sees a Lambda task: its payload, or its error's name and cause. */
export type StepOutcome = { ok: true; result: unknown } | { ok: false; error: string; cause: string };

export type StepInvoker = (event: LargeFileEvent) => Promise<StepOutcome>;

export interface LargeFileRunOptions {
  /** The state machine's client (its role reads the manifests). */
  client: S3Client;
  invoke: StepInvoker;
  /** Ranges in flight at once (default: the definition's MaxConcurrency). */
  maxConcurrency?: number;
  /** Every retrier's first wait, in seconds (default: the definition's); tests shorten them. */
  retryIntervalSeconds?: number;
  /** The definition to run (default: the deployed one, from the synthesized template). */
  definition?: AslMachine;
  /** Aborted when the execution is stopped (aborted, timed out): no further step starts, the fail step neither. */
  signal?: AbortSignal;
}

export interface LargeFileRunSummary {
  status: 'SUCCEEDED' | 'FAILED';
  ranges: number;
  redone: number;
  /** Invocations of the function, retries included. */
  invocations: number;
  retried: number;
  /** Range invocations that ran short of time and handed the rest of their range on. */
  handedOver: number;
  error?: { Error: string; Cause: string };
  finish?: FinishResult;
}

/** Runs one job to its end, as the deployed state machine would. Never throws for the job's own failure. */
export async function runLargeFileJob(job: LargeFileJob, options: LargeFileRunOptions): Promise<LargeFileRunSummary> {
  const summary: LargeFileRunSummary = {
    status: 'SUCCEEDED',
    ranges: job.ranges,
    redone: 0,
    invocations: 0,
    retried: 0,
    handedOver: 0,
  };
  const definition = options.definition ?? (await deployedLargeFileDefinition());
  const run = new AslRun({
    client: options.client,
    bucket: job.bucket,
    ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    ...(options.retryIntervalSeconds === undefined ? {} : { retryIntervalSeconds: options.retryIntervalSeconds }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    invoke: async (payload) => {
      summary.invocations++;
      const event = payload as LargeFileEvent;
      const outcome = await options.invoke(event);
      if (outcome.ok && event.largeFile === 'range' && (outcome.result as RangeStepResult | null)?.next)
        summary.handedOver++;
      if (outcome.ok && event.largeFile === 'finish') summary.finish = outcome.result as FinishResult;
      return outcome;
    },
    onRetry: () => summary.retried++,
    onMap: (label, items) => {
      if (label === LARGE_FILE_STATES.redo) summary.redone = items;
    },
  });
  try {
    await run.run(definition, { job });
  } catch (error) {
    const failed = error instanceof StateFailed ? error : new StateFailed('States.Runtime', String(error));
    summary.status = 'FAILED';
    summary.error = { Error: failed.error, Cause: failed.detail };
    // A stopped execution ends there, as in AWS: its ReportFailure never runs (the AslRun skipped it).
    if (options.signal?.aborted) return summary;
  }
  return summary;
}
