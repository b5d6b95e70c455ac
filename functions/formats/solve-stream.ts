import { isBatchFormat, solveRowBatches } from './batch-solvers.js';
import type { BatchSolver } from './batch-solvers.js';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { codecFor } from './codecs.js';
import { FormatError } from './errors.js';
import { solveJsonDocument } from './json-document.js';
import { solveLines } from './line-codec.js';
import { splitLines } from './line-splitting.js';
import { FileTally } from './tally.js';
import type { FileTallyOptions } from './tally.js';
import { decodeUtf8 } from './line-splitting.js';
import type { FileFormat } from './types.js';

/**
 * Whether a zlib error is the file's fault (report it) rather than the transport's (retry).
 * Corrupt data is always the file's; a gzip stream cut short is the file's only if the input was
 * read to its end, since a connection dropped mid-file also cuts it short.
 */
function isBadGzip(error: unknown, input: Readable): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'Z_DATA_ERROR') return true;
  return code === 'Z_BUF_ERROR' && input.readableEnded && !input.errored;
}

/** Where the input starts in its file, when it is one range of a file solved in ranges (functions/pipeline/). */
export interface StreamStart {
  /** The number of the input's first line. */
  firstLine: number;
  /** The input begins the file: a byte-order mark is dropped there only. */
  startOfFile: boolean;
  /**
   * A .csv range further in: the file's header record (its lines, without their ends), read
   * first so the rows are read by its columns; its own answer is not written (the first range's is).
   */
  csvHeader?: string[];
}

export interface SolvePuzzleStreamOptions extends FileTallyOptions {
  input: Readable;
  output: Writable;
  format: FileFormat;
  /** The input is gzipped. */
  gunzip?: boolean;
  /** Gzip the output. */
  gzip?: boolean;
  /** Where .txt and .jsonl rows are answered (worker threads, see functions/parallel/); in this thread by default. */
  batches?: BatchSolver;
  /** Count into this tally (so a caller still has the counts when the stream fails); a new one by default. */
  tally?: FileTally;
  /**
   * Grade every row with exactly one solution (functions/formats/row-grade.ts): the tally counts
   * levels, a .csv output gains level and score columns. Off by default (a grade costs ~10x a solve).
   */
  grade?: boolean;
  /**
   * `'grade'`: each board of a .txt, .jsonl or .json is answered with its grade as JSON instead of
   * its solution (`sudoku grade`; functions/formats/grade-codec.ts). A .csv keeps its rows and
   * fields, so its grades are the level and score columns `grade` adds.
   */
  answer?: 'solution' | 'grade';
  /** The input is one range of a file (a line-based format: .json is never cut). Default: the whole file. */
  start?: StreamStart;
}

/**
 * Solves a puzzle file from `input` to `output`, streaming: memory stays flat whatever the size
 * (.json excepted, which is bounded). Resolves with the tally once the output is fully written;
 * rejects with a FormatError for a file that cannot be read as puzzles, or with the stream's
 * error, and then `output` is destroyed, so a half-written output is never mistaken for a whole one.
 */
export async function solvePuzzleStream(options: SolvePuzzleStreamOptions): Promise<FileTally> {
  const tally = options.tally ?? new FileTally(options);
  // Plain generator functions, not Duplex.from(generator): on Node 22 a Duplex.from stage whose
  // upstream fails never settles the pipeline (a bad .gz hung the CLI and the S3 path).
  const stages: PipelineStage[] = [options.input];
  if (options.gunzip) stages.push(gunzipOrFormatError(options.input));
  const { format } = options;
  // The pipeline aborts `signal` when any stage fails (the input stopped for time): batches being
  // answered in this thread then stop at their next slice.
  stages.push(async function* solving(source: AsyncIterable<Buffer>, { signal }: { signal: AbortSignal }) {
    // .txt and .jsonl rows are independent: answered in batches, on every thread. A .csv row may
    // span lines (a quoted field), and .json is one document.
    const grade = options.grade === true || (options.answer === 'grade' && format === 'csv');
    const start = options.start ?? { firstLine: 1, startOfFile: true };
    if (isBatchFormat(format)) {
      const cut = { firstLine: start.firstLine, startOfFile: start.startOfFile };
      yield* solveRowBatches(source, format, tally, options.batches, cut, { grade, answer: options.answer }, signal);
    } else if (format === 'json') {
      yield* solveJsonDocument(decodeUtf8(source), tally, undefined, grade, options.answer);
    } else {
      const codec = codecFor(format, grade);
      // The header's columns shape every row; its answer is the first range's to write.
      const headerTally = new FileTally();
      for (const [i, line] of (start.csvHeader ?? []).entries()) codec.line(line, i + 1, headerTally);
      yield* solveLines(splitLines(decodeUtf8(source, start.startOfFile)), codec, tally, start.firstLine);
    }
  });
  if (options.gzip) stages.push(createGzip());
  stages.push(options.output);
  await (pipeline as (stages: PipelineStage[]) => Promise<void>)(stages);
  return tally;
}

type PipelineStage =
  | NodeJS.ReadableStream
  | NodeJS.WritableStream
  | NodeJS.ReadWriteStream
  | ((source: AsyncIterable<Buffer>, options: { signal: AbortSignal }) => AsyncIterable<Buffer | string>);

/**
 * A gunzip stage that fails with BAD_GZIP itself. The pipeline destroys every stage with the
 * first error it sees; were that zlib's own error, the output (an S3 upload) would fail with it
 * before the caller could reclassify it, and a bad file would look like a transport failure to retry.
 */
function gunzipOrFormatError(input: Readable) {
  return async function* gunzipped(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    const gunzip = createGunzip();
    const feeding = pipeline(source, gunzip);
    feeding.catch(() => undefined);
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
      await feeding;
    } catch (error) {
      if (isBadGzip(error, input)) {
        throw new FormatError('BAD_GZIP', `The file ends in .gz but is not valid gzip (${(error as Error).message}).`);
      }
      throw error;
    } finally {
      gunzip.destroy();
    }
  };
}
