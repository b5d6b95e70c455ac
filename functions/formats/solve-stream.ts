import { Duplex } from 'node:stream';
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

function codecFor(format: Exclude<FileFormat, 'json'>): LineCodec {
  switch (format) {
    case 'txt':
      return createTxtCodec();
    case 'csv':
      return createCsvCodec();
    case 'jsonl':
      return createJsonlCodec();
  }
}

/** Text in, answered text out, in the given format. The building block under `solvePuzzleStream`. */
export function solveText(text: AsyncIterable<string>, format: FileFormat, tally: FileTally): AsyncGenerator<string> {
  return format === 'json' ? solveJsonDocument(text, tally) : solveLines(splitLines(text), codecFor(format), tally);
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
}

/**
 * Solves a puzzle file from `input` to `output`, streaming: memory stays flat whatever the size
 * (.json excepted, which is bounded). Resolves with the tally once the output is fully written;
 * rejects with a FormatError for a file that cannot be read as puzzles, or with the stream's
 * error, and then `output` is destroyed, so a half-written output is never mistaken for a whole one.
 */
export async function solvePuzzleStream(options: SolvePuzzleStreamOptions): Promise<FileTally> {
  const tally = options.tally ?? new FileTally(options);
  const solving = Duplex.from(async function* (source: AsyncIterable<Buffer>) {
    if (isBatchFormat(options.format)) yield* solveRowBatches(source, options.format, tally, options.batches);
    else yield* solveText(decodeUtf8(source), options.format, tally);
  });
  const stages: (NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream)[] = [options.input];
  if (options.gunzip) stages.push(createGunzip());
  stages.push(solving);
  if (options.gzip) stages.push(createGzip());
  stages.push(options.output);
  try {
    await pipeline(stages);
  } catch (error) {
    if (options.gunzip && isBadGzip(error, options.input)) {
      throw new FormatError('BAD_GZIP', `The file ends in .gz but is not valid gzip (${(error as Error).message}).`);
    }
    throw error;
  }
  return tally;
}
