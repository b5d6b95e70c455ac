import type { RangeSizing } from '../contract/large-files.js';
import type { FileKind, FileTally, RowCounts, RowFailure, RowProblem, RowStatus } from '../formats/index.js';
import type { FormatErrorCode } from '../formats/index.js';
import { emptyRowCounts } from '../formats/index.js';
import type { Level } from '../sudoku/logic/index.js';

/** A failed row in a report: its place (line or index), status, code, message and cell. */
export type ReportedFailure = RowProblem & { status: Exclude<RowStatus, 'unique' | 'multiple'> };

/** `reports/<path>.json`: what happened to one source file. */
export interface FileReport {
  source: { bucket: string; key: string; eTag: string; size: number | undefined };
  /**
   * `solved`: every row answered (some may have failed, see counts); `rejected`: the file as a
   * whole could not be read, no output; `failed`: solving stopped before the function's timeout
   * (the file needs more than one invocation), no output.
   */
  outcome: 'solved' | 'rejected' | 'failed';
  output: { key: string; written: boolean };
  format: FileKind | undefined;
  /** Why a rejected file was rejected, or a failed one failed. */
  error?: {
    code: FormatErrorCode | 'TIME_LIMIT' | 'RANGES_FAILED' | 'TRIES_EXHAUSTED';
    message: string;
    line?: number;
  };
  /** Rows answered in the output. A rejected file's output was never written, so all are 0 there. */
  counts: ReportedCounts;
  /**
   * Graded files only (source metadata `grade: true`): rows with exactly one solution per level
   * (docs/grading.md), every level present; a rejected file's are all 0. The sum is `counts.unique`.
   */
  levels?: Record<Level, number>;
  /** The first failed rows (capped); `failuresTotal` counts them all. Empty for a rejected file. */
  failures: ReportedFailure[];
  failuresTotal: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Rows (blank lines excluded) per second of the whole processing: read, solve, write. */
  puzzlesPerSecond: number;
  /**
   * A file too large for one invocation, solved in ranges (docs/files.md): how many ranges of how
   * many bytes, how many were solved a second time knowing where they start, the function
   * invocations it took (every range attempt, the hand-over and the finish steps), and the parts
   * of the output's one multipart upload. `sizedBy`: how `rangeBytes` was chosen (`sample`: from
   * the rate measured on the file's first rows, `sampleRowsPerSecond`, between the conservative
   * plan and 8 times it; `plan`: the conservative plan, no sample taken; `fixed`: SUDOKU_RANGE_BYTES).
   */
  split?: {
    ranges: number;
    rangeBytes: number;
    sizedBy: RangeSizing['by'];
    sampleRowsPerSecond?: number;
    redone: number;
    invocations: number;
    parts: number;
  };
}

/** Row counts of a report; a rejected file's also say how far reading got before the error. */
export type ReportedCounts = RowCounts & {
  /**
   * Rejected files only: rows read before the error (blank lines excluded, except in the batches read
   * ahead of their answers, counted whole); none of them was answered in an output.
   */
  rowsReadBeforeError?: number;
};

/** The counts a report may claim: what the tally saw if the output was written, else nothing but how far reading got. */
export function reportedCounts(tally: FileTally, rejected: boolean): ReportedCounts {
  if (!rejected) return { ...tally.counts };
  return { ...emptyRowCounts(), rowsReadBeforeError: tally.rowsRead };
}

export function reportedFailure(failure: RowFailure): ReportedFailure {
  return { status: failure.status, ...failure.problem };
}

/**
 * A failed report's user metadata: `failure` says whether its cause can pass (`transient`:
 * throttling, S3 errors, a run cut short) or would fail the same way (`final`: the file needs more
 * than one invocation, or every try was used); `tries` counts the runs of this version that failed.
 */
export const FAILURE_METADATA = 'failure';
export const TRIES_METADATA = 'tries';

export type FailureKind = 'transient' | 'final';

export function failureMetadata(kind: FailureKind, tries: number): Record<string, string> {
  return { [FAILURE_METADATA]: kind, [TRIES_METADATA]: String(tries) };
}

/** A failed report whose cause can pass and whose version has tries left: an identical re-upload or the sweep tries it again. */
export function mayTryAgain(metadata: Record<string, string> | undefined, triesPerVersion: number): boolean {
  return (
    metadata?.[FAILURE_METADATA] === 'transient' &&
    Number(metadata[TRIES_METADATA] ?? triesPerVersion) < triesPerVersion
  );
}

/** What a failed report tells its reader to do, true to what the next upload or sweep will do. */
export function retryAdvice(kind: FailureKind, tries: number, triesPerVersion: number): string {
  if (kind === 'transient' && tries < triesPerVersion)
    return (
      `This can pass: upload the same file again (or wait for the nightly sweep) and it is tried again ` +
      `(try ${tries} of ${triesPerVersion} for these bytes).`
    );
  return `It was tried ${tries} time(s) and is not tried again for these bytes: change the file (or split it) and upload it again.`;
}
