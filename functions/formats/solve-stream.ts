import { isBatchFormat, solveRowBatches } from './batched-solve.js';
import type { BatchSolver } from './batched-solve.js';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { createCsvCodec } from './csv-codec.js';
import { FormatError } from './errors.js';
import { solveJsonDocument } from './json-document.js';
import { createJsonlCodec } from './jsonl-codec.js';
import type { LineCodec } from './line-codec.js';
import { solveLines } from './line-codec.js';
import { splitLines } from './line-splitting.js';
import { FileTally } from './tally.js';
import type { FileTallyOptions } from './tally.js';
import { decodeUtf8 } from './line-splitting.js';
import { createTxtCodec } from './txt-codec.js';
import type { FileFormat } from './types.js';

function codecFor(format: Exclude<FileFormat, 'json'>, grade: boolean): LineCodec {
  switch (format) {
    case 'txt':
      return createTxtCodec(grade);
    case 'csv':
      return createCsvCodec(grade);
    case 'jsonl':
      return createJsonlCodec(grade);
  }
}

/** Text in, answered text out, in the given format. The building block under `solvePuzzleStream`. */
export function solveText(
  text: AsyncIterable<string>,
  format: FileFormat,
  tally: FileTally,
  grade = false,
): AsyncGenerator<string> {
  return format === 'json'
    ? solveJsonDocument(text, tally, undefined, grade)
    : solveLines(splitLines(text), codecFor(format, grade), tally);
}

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
  stages.push(async function* solving(source: AsyncIterable<Buffer>) {
    const grade = options.grade === true;
    if (isBatchFormat(options.format))
      yield* solveRowBatches(source, options.format, tally, options.batches, {}, grade);
    else yield* solveText(decodeUtf8(source), options.format, tally, grade);
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
  | ((source: AsyncIterable<Buffer>) => AsyncIterable<Buffer | string>);

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
