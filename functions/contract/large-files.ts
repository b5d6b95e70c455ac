/**
 * The contract of a file solved in ranges: what the files function hands the large-file state
 * machine, what each of the machine's steps sends back to the function, and the names both sides
 * use. Pure data: infra/ imports this file.
 *
 * A file one invocation cannot finish is cut into byte ranges. The state machine's Distributed
 * Map (`LARGE_FILE_STATES.solve`) hands each range to the files function, which solves the lines
 * that start inside it into a staging object of its own; a `finish` step then either names ranges
 * to solve again (`LARGE_FILE_STATES.redo`: ranges whose answers quote line numbers, which a range
 * only knows once every range before it has counted its lines) or copies the staging objects, in
 * order, as the parts of one multipart upload of the output and writes the file's one report.
 */

import { createHash } from 'node:crypto';
import { ERROR_NAMES } from './error-names.js';
import { prefixes } from './service-layout.js';
import { ENV } from './environment.js';

/** The files function's environment: the ARN of the large-file state machine it starts. */
export const LARGE_FILE_STATE_MACHINE_ENV = ENV.largeFileStateMachine;
/**
 * The files function's environment: its own timeout in seconds, which a range plan is sized by
 * (the stack sets it to filesTimeoutSeconds; the twin reads the same variable to end invocations).
 */
export const FILES_TIMEOUT_ENV = ENV.filesTimeoutSeconds;

/** The Distributed Map states of the large-file state machine (also their map-run labels). */
export const LARGE_FILE_STATES = { solve: 'SolveRanges', redo: 'RedoRanges' } as const;

/** Defaults the stack and the twin share: ranges in flight at once (the maps' MaxConcurrency). */
export const LARGE_FILE_DEFAULTS = { maxConcurrency: 100 } as const;

/**
 * How a range invocation is retried. Errors in `fatal` would fail the same way again (the range
 * needs more time than an invocation has; the source was replaced) and go straight to the `fail`
 * step; anything else (a timeout, an S3 hiccup, a killed sandbox) is retried: the range writes
 * its staging object whole or not at all, so a retry starts it over.
 */
export const RANGE_RETRY = {
  fatal: [ERROR_NAMES.timeLimit, ERROR_NAMES.sourceChanged],
  retries: 2,
  intervalSeconds: 5,
  backoffRate: 2,
} as const;

/** One byte range of the file: the lines that start at `start` <= offset < `end`. */
export interface RangeItem {
  index: number;
  start: number;
  end: number;
  /**
   * Known only on a redo: how many line ends the file has before offset `start - 1` (so the
   * range can number its lines), and whether that offset is inside a quoted CSV field. A first
   * pass numbers from 1 and assumes not.
   */
  newlinesBefore?: number;
  inQuotes?: boolean;
  /** Named by the finish step to be solved again (and so is its rest, if it is handed over). */
  redo?: boolean;
}

/** The format of a file as the pipeline reads it (functions/formats' FileKind, restated: contract/ imports nothing of formats/). */
export interface LargeFileFormat {
  format: 'txt' | 'csv' | 'jsonl';
  /** The output is gzipped (the source was a .gz, inflated into `readKey`). */
  gzip: boolean;
}

/**
 * How a job's range size was chosen (docs/files.md, "The plan"): `fixed` by SUDOKU_RANGE_BYTES (no
 * sample); `sample` from the rate measured on the file's first rows, between the conservative plan
 * (`planBytes`, the floor) and `maxBytes` (the cap); `plan` the conservative plan itself, when no
 * sample could be taken (no time left, a read error, no row in it).
 */
export interface RangeSizing {
  by: 'fixed' | 'plan' | 'sample';
  /** The conservative plan's range size (rangeBytesFor): never less. */
  planBytes: number;
  /** The most a range may hold (RANGE_SAMPLE.maxScale x planBytes). */
  maxBytes: number;
  /** The sample solved from the start of the file, on one solver thread, as a range solves it. */
  sample?: { rows: number; bytes: number; ms: number; rowsPerSecond: number; bytesPerSecond: number };
}

/** Everything every step needs; the state machine's execution input is `{ job }`. */
export interface LargeFileJob {
  bucket: string;
  /** The source file, and the version of it solved (the ETag, bare). */
  sourceKey: string;
  eTag: string;
  /** What the ranges read: the source itself, or for a .gz its inflated copy under `stagingPrefix`. */
  readKey: string;
  /** The version of `readKey` the ranges read (a ranged GET with If-Match: a replaced object fails them). */
  readETag: string;
  /** The size of `readKey` in bytes. */
  size: number;
  outputKey: string;
  reportKey: string;
  kind: LargeFileFormat;
  grade: boolean;
  rangeBytes: number;
  ranges: number;
  /** How `rangeBytes` was chosen (absent in jobs planned before the sample: the conservative plan). */
  sizing?: RangeSizing;
  /** `staging/<jobId>-<attempt>/`: the job's work objects, removed when it ends. */
  stagingPrefix: string;
  /**
   * Which run of this source version the job is (1 first; absent in jobs planned before runs were
   * counted: 1). It names the execution (largeFileExecutionName) and the staging prefix, so a run
   * that failed, timed out or was aborted never blocks the next one, nor leaves it its work objects.
   */
  attempt?: number;
  /** Earlier runs of this version that failed in a way that can pass (counted against FILE_TRIES_PER_VERSION). */
  failedBefore?: number;
  /** The solve map's items, a JSON array of RangeItem. */
  manifestKey: string;
  /** The ETags of the output and report when the job started (absent: none): their writes are conditional on them. */
  outputETag?: string;
  reportETag?: string;
  startedAt: string;
}

/** The events the state machine sends the files function. */
export type LargeFileEvent =
  | { largeFile: 'range'; job: LargeFileJob; range: RangeItem }
  | { largeFile: 'finish'; job: LargeFileJob }
  | { largeFile: 'fail'; job: LargeFileJob; error: { Error?: string; Cause?: string } };

/**
 * What a range step answers. `next`: the invocation ran short of time and stopped at a record
 * end with its answers so far staged; the state machine invokes the function again with `next`
 * (the rest of the range), so a range that outlasts one invocation is handed over, never lost.
 */
export interface RangeStepResult {
  index: number;
  rows: number;
  next?: RangeItem;
}

/** What `finish` answers: ranges to solve again (then `finish` is called once more), or nothing. */
export interface FinishResult {
  redo?: { manifestKey: string; ranges: number };
  outcome?: 'solved' | 'superseded';
}

/** A source version's id: a hash of its key and ETag. Its runs are named after it (largeFileExecutionName). */
export function largeFileJobId(sourceKey: string, eTag: string): string {
  return createHash('sha256').update(`${sourceKey}\n${eTag}`).digest('hex').slice(0, 40);
}

/** Every execution of the large-file machine is named so: `file-<version id>-<attempt>`. */
export const LARGE_FILE_EXECUTION_PREFIX = 'file-';

/**
 * Run `attempt` of a source version: `file-<40 hex>-<attempt>`, at most 55 characters of
 * [a-z0-9-] (within SFN_MAX_EXECUTION_NAME_CHARS and AWS's character rules). A name stays taken
 * for SFN_EXECUTION_NAME_RETENTION_DAYS after its run ends, whatever the status: a run that ended
 * without solving the version (failed, timed out, aborted, superseded) is followed by attempt + 1.
 */
export function largeFileExecutionName(jobId: string, attempt = 1): string {
  return `${LARGE_FILE_EXECUTION_PREFIX}${jobId}-${attempt}`;
}

/** A run's own work objects: `staging/<version id>-<attempt>/`. */
export function stagingPrefixFor(jobId: string, attempt = 1): string {
  return `${prefixes.staging}${jobId}-${attempt}/`;
}

/**
 * Written when an event for a version (a re-upload, a duplicate delivery, the sweep) finds its run
 * open and leaves the version to it: the run, if it then ends without solving the source as it is
 * now, starts the version's next attempt. Outside the run's own prefix, which its end removes.
 */
export function askedAgainKeyFor(jobId: string, attempt = 1): string {
  return `${prefixes.staging}asked-again/${jobId}-${attempt}`;
}

/**
 * How many runs of one source version may end without solving it (failed, timed out, aborted)
 * before an identical re-upload or the sweep stops trying it again: a file that fails for good
 * must not loop. Changing the file (a new ETag) starts its count anew.
 */
export const FILE_TRIES_PER_VERSION = 3;
