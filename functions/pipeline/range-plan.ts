/**
 * When a file is solved in ranges, and how large a range is: decided from the file's size before
 * any row is read, at a planning rate no real file falls below, so a range always finishes in
 * one invocation with half of it to spare.
 *
 * The planning rate is half of what one thread measured on the hardest shared set
 * (puzzles6_forum_hardest_1106: ~8,500 rows/s solved, ~1,250 graded, on the 2-core AMD EPYC
 * development machine, docs/files.md), and every row is taken to be as short as a row can be (82
 * bytes: 81 cells and a line end), so a file of easy puzzles or long rows is only planned in more
 * ranges than it needs, never fewer. Rows of .txt and .jsonl are solved on every thread the
 * function has; a .csv on one.
 *
 * That decides only WHETHER a file is split (the single path cannot hand over, so it must be sure).
 * Once it is split, the hand-over measures the file itself (range-sample.ts) and sizes the ranges
 * by what that rate solves in the same half of the usable time (`sampledRangeBytes`): never below
 * the conservative size, at most RANGE_SAMPLE.maxScale times it. A range slower than its sample
 * hands the rest over (solve-range.ts), so a wrong sample costs invocations, never rows.
 */
import type { FileKind } from '../formats/index.js';
import { S3_MAX_PARTS } from '../contract/aws-quotas.js';
import { FILES_TIMEOUT_ENV } from '../contract/large-files.js';
import { FUNCTION_TIMEOUT_DEFAULTS, SOLVER_THREADS_ENV } from '../contract/service-layout.js';
import { timeMarginMs } from './time-limit.js';
import { ENV, type EnvName, type Environment, readEnv } from '../contract/environment.js';

/** Rows per second per thread the plan counts on (half the hardest set's measured rate). */
export const PLANNING_ROWS_PER_SECOND = { solved: 4_000, graded: 600 } as const;
/** The shortest row: 81 cells and a line end. */
export const SHORTEST_ROW_BYTES = 82;
/** S3 allows 10,000 parts in one multipart upload, and each range is at least one. */
export const MAX_RANGES = S3_MAX_PARTS;
/** gzip's largest ratio (deflate's 258-byte matches): a .gz of n bytes never inflates past ~1,032 n. */
export const MAX_GZIP_EXPANSION = 1_032;
/** An environment override of the range size in bytes (tests and trials: any file over it is split). */
export const RANGE_BYTES_ENV = ENV.rangeBytes;

/**
 * The sample the hand-over solves from the start of the file, whichever limit comes first, and the
 * cap on the range it sizes. 8x the conservative size (1.17 GB, 14.2 million of the shortest rows
 * at 900 s) bounds what one failed row costs (its range is solved twice: at most ~65 s of 17-clue
 * rows at ~220,000 rows/s) and a range's wall time, and already takes the orchestration of easy
 * files (Step Functions, S3, the finish's copy per range) to an eighth (docs/files.md).
 */
export const RANGE_SAMPLE = { maxBytes: 2 * 1024 * 1024, maxMs: 300, maxScale: 8 } as const;

export interface RangePlanSettings {
  /** The function's timeout in seconds. */
  timeoutSeconds: number;
  /** Threads a .txt/.jsonl file is solved on. */
  threads: number;
  /** A fixed range size (RANGE_BYTES_ENV). */
  rangeBytes?: number;
}

export function rangePlanSettingsFromEnv(env?: Environment): RangePlanSettings {
  const positive = (name: EnvName): number | undefined => {
    const value = Number(readEnv(name, env));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const rangeBytes = positive(RANGE_BYTES_ENV);
  return {
    timeoutSeconds: positive(FILES_TIMEOUT_ENV) ?? FUNCTION_TIMEOUT_DEFAULTS.files,
    threads: Math.floor(positive(SOLVER_THREADS_ENV) ?? 1),
    ...(rangeBytes === undefined ? {} : { rangeBytes: Math.floor(rangeBytes) }),
  };
}

/**
 * The bytes one range may hold: what the planning rate solves in half of an invocation's usable
 * time (its timeout less the margin kept for stopping). A file no larger is solved in one invocation.
 */
export function rangeBytesFor(kind: FileKind, grade: boolean, settings: RangePlanSettings): number {
  if (settings.rangeBytes !== undefined) return settings.rangeBytes;
  const rate = (grade ? PLANNING_ROWS_PER_SECOND.graded : PLANNING_ROWS_PER_SECOND.solved) * threadsFor(kind, settings);
  return Math.floor((rate * usableSeconds(settings) * SHORTEST_ROW_BYTES) / 2);
}

/** An invocation's usable seconds: its timeout less the margin kept for stopping. */
export function usableSeconds(settings: RangePlanSettings): number {
  const timeoutMs = settings.timeoutSeconds * 1000;
  return (timeoutMs - timeMarginMs(timeoutMs)) / 1000;
}

const threadsFor = (kind: FileKind, settings: RangePlanSettings) =>
  kind.format === 'csv' ? 1 : Math.max(1, settings.threads);

/**
 * The range size from a measured rate (bytes per second on one thread): what it solves in half the
 * usable time on the threads a range has, never below the conservative plan, at most
 * RANGE_SAMPLE.maxScale times it.
 */
export function sampledRangeBytes(
  kind: FileKind,
  grade: boolean,
  settings: RangePlanSettings,
  bytesPerSecond: number,
): { rangeBytes: number; planBytes: number; maxBytes: number } {
  const planBytes = rangeBytesFor(kind, grade, { ...settings, rangeBytes: undefined });
  const maxBytes = planBytes * RANGE_SAMPLE.maxScale;
  const measured = Number.isFinite(bytesPerSecond)
    ? Math.floor((bytesPerSecond * threadsFor(kind, settings) * usableSeconds(settings)) / 2)
    : maxBytes;
  return { rangeBytes: Math.min(maxBytes, Math.max(planBytes, measured)), planBytes, maxBytes };
}

/**
 * Whether a file of `size` bytes needs ranges: a plain file larger than one range; a .gz whose
 * inflated size could be (it is inflated first, then cut). A .json (at most 16 MiB) never does.
 */
export function needsRanges(size: number, kind: FileKind, grade: boolean, settings: RangePlanSettings): boolean {
  if (kind.format === 'json') return false;
  const rangeBytes = rangeBytesFor(kind, grade, settings);
  return kind.gzip ? size * MAX_GZIP_EXPANSION > rangeBytes : size > rangeBytes;
}

/** The ranges of a file: equal cuts of at most `rangeBytes` (more if 10,000 would not cover it). */
export function planRanges(size: number, rangeBytes: number): { rangeBytes: number; ranges: number } {
  const bytes = Math.max(1, rangeBytes, Math.ceil(size / MAX_RANGES));
  return { rangeBytes: bytes, ranges: Math.max(1, Math.ceil(size / bytes)) };
}
