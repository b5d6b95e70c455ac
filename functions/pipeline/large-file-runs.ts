/**
 * The runs of one source version on the large-file state machine, as the hand-over reasons about
 * them: which attempts exist and how each ended. No SDK here: large-file-starter.ts (loaded only
 * when a file needs ranges) asks Step Functions; tests hand in a recorder.
 */
import type { LargeFileJob } from '../contract/large-files.js';

/** An execution's status, as DescribeExecution answers it. */
export type RunStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE';

/** One run of a source version: its attempt number, its execution's status and, once it failed, why. */
export interface RunRecord {
  attempt: number;
  status: RunStatus;
  error?: string;
  cause?: string;
}

export type StartOutcome =
  | { started: true; executionArn: string }
  | { started: false; reason: 'already-started'; status: RunStatus };

/** The large-file state machine as the hand-over sees it (a test records jobs instead of running them). */
export interface LargeFileStarter {
  /** Every run of the version so far, attempt 1 first. */
  runs(jobId: string): Promise<RunRecord[]>;
  /** Starts attempt `attempt` of the version; `already-started` when that name is taken (with how its run stands). */
  start(jobId: string, attempt: number, job: LargeFileJob): Promise<StartOutcome>;
}

/** A run still going: the version has its run (a redrive waiting counts). */
export function isOpen(run: RunRecord): boolean {
  return run.status === 'RUNNING' || run.status === 'PENDING_REDRIVE';
}

/**
 * Runs that ended without solving the version: failed, timed out, aborted. A run whose source was
 * replaced under it ends FAILED too, and counts: Step Functions passes a Distributed Map's own
 * error (States.ExceedToleratedFailureThreshold), not its child's, so why a run failed is not
 * known here; only a version put back again and again reaches the bound that way.
 */
export function failedRuns(runs: readonly RunRecord[]): number {
  return runs.filter((run) => !isOpen(run) && run.status !== 'SUCCEEDED').length;
}
