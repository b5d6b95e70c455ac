/**
 * The rate a file is solved at, measured on the file itself before it is cut: the hand-over solves
 * its first rows (RANGE_SAMPLE: 2 MiB or 0.3 s of solving, whichever first) exactly as its first
 * range will (the same ranged read from offset 0, a .csv with its header, one solver thread,
 * graded if the job is, the answers gzipped for a .gz) and throws the answers away. The rate sizes
 * the ranges (range-plan.ts, `sampledRangeBytes`): an easy file gets fewer, larger ranges, so it
 * pays the fixed costs of a range (Step Functions transitions, S3 requests, the finish's copy)
 * fewer times.
 */
import { Readable, Writable } from 'node:stream';
import { type FileKind, FileTally, openLineRange, solvePuzzleStream } from '../formats/index.js';
import type { RangeSizing } from '../contract/large-files.js';
import { batchSolverFor } from '../parallel/index.js';
import { RANGE_SAMPLE } from './range-plan.js';
import { timeMarginMs } from './time-limit.js';

export type RangeSample = NonNullable<RangeSizing['sample']>;

export interface SampleOptions {
  /** Opens what the ranges read (the source, or a .gz's inflated copy) from its start. */
  read: () => Promise<Readable>;
  size: number;
  kind: FileKind;
  grade: boolean;
  timeLeftMs?: () => number;
  /** Test seams: the sample's limits (RANGE_SAMPLE by default). */
  maxBytes?: number;
  maxMs?: number;
}

/** A sink for the sample's answers. */
const discard = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/** The probe that sizes the sample: 50 of the shortest rows (a graded hard row takes ~2 ms). */
const PROBE_BYTES = 4096;

/** The rows that start in the first `end` bytes, solved and thrown away; stops early at the next batch after `maxMs`. */
async function solveStart(options: SampleOptions, end: number, maxMs: number) {
  const body = await options.read();
  try {
    let deadline = Number.POSITIVE_INFINITY;
    const opened = await openLineRange(body, {
      start: 0,
      end: Math.min(options.size, end),
      csv: options.kind.format === 'csv',
      stop: () => performance.now() >= deadline,
    });
    let bytes = 0;
    async function* counted(source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        yield chunk;
      }
    }
    const tally = new FileTally({ failureCap: 0 });
    const started = performance.now();
    deadline = started + maxMs;
    await solvePuzzleStream({
      input: Readable.from(counted(opened.owned), { objectMode: false }),
      output: discard(),
      format: options.kind.format,
      gzip: options.kind.gzip,
      tally,
      batches: batchSolverFor(1),
      grade: options.grade,
      start: { firstLine: 1, startOfFile: true },
    });
    return { rows: tally.counts.rows, bytes, ms: performance.now() - started };
  } finally {
    body.destroy();
  }
}

/**
 * Solves the sample and returns its rate, or undefined when there is no time for one (a quarter of
 * what the invocation has before its hand-over point, at most RANGE_SAMPLE.maxMs) or it held no row.
 *
 * Rows are solved in batches of 256 KiB (functions/formats/cut-batches.ts), and a batch is read
 * whole before it is solved, so a time limit alone would stop only after the first batch (~8 s of
 * graded hard rows). A probe of the first 4 KiB first measures roughly how fast the file goes (and
 * warms the solver); the sample is then the bytes that rate solves in RANGE_SAMPLE.maxMs, at most
 * RANGE_SAMPLE.maxBytes, solved again from the start, and its rate is the one reported.
 */
export async function sampleSolveRate(options: SampleOptions): Promise<RangeSample | undefined> {
  const left = options.timeLeftMs?.();
  const maxMs = Math.min(
    options.maxMs ?? RANGE_SAMPLE.maxMs,
    left === undefined ? Number.POSITIVE_INFINITY : (left - 2 * timeMarginMs(left)) / 4,
  );
  if (!(maxMs >= 20)) return undefined;
  const maxBytes = Math.min(options.size, options.maxBytes ?? RANGE_SAMPLE.maxBytes);
  let taken = await solveStart(options, Math.min(PROBE_BYTES, maxBytes), maxMs);
  if (taken.bytes > 0 && taken.ms > 0 && taken.bytes < maxBytes) {
    const wanted = Math.min(maxBytes, Math.floor(((taken.bytes * 1000) / taken.ms) * (maxMs / 1000)));
    if (wanted > 1.5 * taken.bytes) taken = await solveStart(options, wanted, maxMs);
  }
  const { rows, bytes, ms } = taken;
  if (rows === 0 || bytes === 0 || ms <= 0) return undefined;
  return {
    rows,
    bytes,
    ms: Math.round(ms * 10) / 10,
    rowsPerSecond: Math.round((rows * 1000) / ms),
    bytesPerSecond: Math.round((bytes * 1000) / ms),
  };
}
