import type { FileKind, RowCounts, RowFailure, RowProblem, RowStatus } from '../formats/index.js';
import type { FormatErrorCode } from '../formats/index.js';

/** A failed row in a report: its place (line or index), status, code, message and cell. */
export type ReportedFailure = RowProblem & { status: Exclude<RowStatus, 'unique' | 'multiple'> };

/** `reports/<path>.json`: what happened to one source file. */
export interface FileReport {
  source: { bucket: string; key: string; eTag: string; size: number | undefined };
  /** `solved`: every row answered (some may have failed, see counts); `rejected`: the file as a whole could not be read, no output. */
  outcome: 'solved' | 'rejected';
  output: { key: string; written: boolean };
  format: FileKind | undefined;
  /** Why a rejected file was rejected. */
  error?: { code: FormatErrorCode; message: string; line?: number };
  counts: RowCounts;
  /** The first failed rows (capped); `failuresTotal` counts them all. */
  failures: ReportedFailure[];
  failuresTotal: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Rows (blank lines excluded) per second of the whole processing: read, solve, write. */
  puzzlesPerSecond: number;
}

export function reportedFailure(failure: RowFailure): ReportedFailure {
  return { status: failure.status, ...failure.problem };
}
