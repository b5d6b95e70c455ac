/**
 * The large-file state machine played locally (infra/constructs/large-file.ts is the deployed
 * one): the solve map over the manifest's ranges with bounded concurrency and the machine's retry
 * rules (RANGE_RETRY), the finish step, the redo map when the finish names ranges, and the fail
 * step when anything fails for good. Each step is one invocation of the files function, handed to
 * `invoke`: under `npm start` and `npm run batch` an execution of its own (executions.ts, a
 * worker thread ended at the function's timeout), so a laptop solves several ranges at once.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { setTimeout as delay } from 'node:timers/promises';
import {
  type FinishResult,
  type LargeFileEvent,
  type LargeFileJob,
  LARGE_FILE_DEFAULTS,
  RANGE_RETRY,
  type RangeItem,
  type RangeStepResult,
} from '../contract/large-files.js';
import { ServiceError } from '../contract/service-error.js';
import { forEachBounded } from '../pipeline/concurrency.js';
import { readJson } from '../pipeline/object-versions.js';

/** One invocation's end, as Step Functions sees a Lambda task: its payload, or its error's name and cause. */
export type StepOutcome = { ok: true; result: unknown } | { ok: false; error: string; cause: string };

export type StepInvoker = (event: LargeFileEvent) => Promise<StepOutcome>;

export interface LargeFileRunOptions {
  /** The state machine's client (its role reads the manifests). */
  client: S3Client;
  invoke: StepInvoker;
  maxConcurrency?: number;
  /** The retry waits, in seconds as RANGE_RETRY's; tests shorten them. */
  retryIntervalSeconds?: number;
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

/** A step that failed for good, as Step Functions names it: its error and cause. */
class StepFailed extends ServiceError<'STEP_FAILED'> {
  override readonly name = 'StepFailed';
  constructor(
    readonly error: string,
    readonly detail: string,
  ) {
    super('STEP_FAILED', `${error}: ${detail}`);
  }
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
  const interval = options.retryIntervalSeconds ?? RANGE_RETRY.intervalSeconds;
  const fatal: readonly string[] = RANGE_RETRY.fatal;

  /** A task with its retry rules: the fatal errors never retried, anything else RANGE_RETRY.retries times. */
  const task = async (event: LargeFileEvent): Promise<unknown> => {
    for (let attempt = 0; ; attempt++) {
      if (options.signal?.aborted) throw new StepFailed('States.Stopped', 'the execution was stopped');
      summary.invocations++;
      const outcome = await options.invoke(event);
      if (outcome.ok) return outcome.result;
      if (fatal.includes(outcome.error) || attempt >= RANGE_RETRY.retries)
        throw new StepFailed(outcome.error, outcome.cause);
      summary.retried++;
      await delay(interval * 1000 * RANGE_RETRY.backoffRate ** attempt);
    }
  };
  const map = async (manifestKey: string): Promise<number> => {
    const items = await readJson<RangeItem[]>(options.client, job.bucket, manifestKey);
    try {
      await solveItems(items);
    } catch (error) {
      // As AWS: a child that fails fails the map (no failure is tolerated), and the map's error,
      // not the child's, is what the Catch passes on; the child's stays in its own history.
      const child = error instanceof StepFailed ? `${error.error}: ${error.detail}` : String(error);
      throw new StepFailed(
        'States.ExceedToleratedFailureThreshold',
        `The specified tolerated failure threshold was exceeded (a range failed: ${child})`,
      );
    }
    return items.length;
  };
  const solveItems = async (items: RangeItem[]): Promise<void> => {
    await forEachBounded(items, options.maxConcurrency ?? LARGE_FILE_DEFAULTS.maxConcurrency, async (item) => {
      // As the item processor's loop: a range handed over in part is invoked again with the rest.
      for (let range: RangeItem | undefined = item; range; ) {
        range = ((await task({ largeFile: 'range', job, range })) as RangeStepResult).next;
        if (range) summary.handedOver++;
      }
    });
  };

  try {
    await map(job.manifestKey);
    let finish = (await task({ largeFile: 'finish', job })) as FinishResult;
    if (finish.redo) {
      summary.redone = await map(finish.redo.manifestKey);
      finish = (await task({ largeFile: 'finish', job })) as FinishResult;
    }
    summary.finish = finish;
  } catch (error) {
    const failed = error instanceof StepFailed ? error : new StepFailed('States.Runtime', String(error));
    summary.status = 'FAILED';
    summary.error = { Error: failed.error, Cause: failed.detail };
    if (options.signal?.aborted) return summary;
    await task({ largeFile: 'fail', job, error: summary.error }).catch(() => undefined);
  }
  return summary;
}
