import { MAX_LINE_CHARS } from './line-splitting.js';
import type { RowBatch } from './answer-batch.js';
import type { BatchFormat } from './types.js';

/** About 3,000 lines of 82 bytes: large enough that handing a batch to a thread costs little, small enough to keep memory flat. */
export const DEFAULT_BATCH_BYTES = 256 * 1024;

const NEWLINE = 10;

/** Lines ended in `bytes` (a batch's last line may be unended: the file's last line). */
export function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/** The bytes of the file, a leading UTF-8 byte-order mark dropped (however the first chunks are cut). */
async function* withoutBom(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  let head: Uint8Array | undefined = new Uint8Array(0);
  for await (const piece of source) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    if (!head) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < 3) continue;
    yield head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
    head = undefined;
  }
  if (head && head.length > 0) yield head;
}

export interface CutOptions {
  batchBytes?: number;
  maxLineChars?: number;
  /** The number of the source's first line (a range of a file starts further in). Default 1. */
  firstLine?: number;
  /** The source starts the file, so a byte-order mark there is dropped (default true); a range of a file further in keeps its bytes. */
  startOfFile?: boolean;
}

/**
 * Bytes of a line-based file to batches of whole lines, numbered. The reading thread only looks
 * for line ends: decoding and answering rows is the batch's work, wherever it runs. A leading
 * UTF-8 byte-order mark is dropped. A line still unfinished after 3 x `maxLineChars` bytes
 * (which is more than `maxLineChars` characters whatever they are) is dropped as it streams in
 * and answered as too long, so one endless line cannot fill memory; shorter lines over the limit
 * are caught when decoded.
 */
export async function* cutRowBatches(
  source: AsyncIterable<Uint8Array | string>,
  format: BatchFormat,
  options: CutOptions = {},
): AsyncGenerator<RowBatch> {
  const batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
  const maxLineChars = options.maxLineChars ?? MAX_LINE_CHARS;
  const maxPartialBytes = 3 * maxLineChars;
  let firstLine = options.firstLine ?? 1;
  /** Complete lines of the batch being gathered. */
  let done: Uint8Array[] = [];
  let doneBytes = 0;
  let doneLines = 0;
  let overlong: number[] = [];
  /** The line being read, not yet ended. */
  let partial: Uint8Array[] = [];
  let partialBytes = 0;
  /** The line being read is too long: its bytes are dropped until it ends. */
  let dropping = false;

  const take = (): RowBatch => {
    // A fresh buffer of its own (not a view into a stream's chunk), so it can be moved to another thread whole.
    const bytes = new Uint8Array(doneBytes);
    let at = 0;
    for (const piece of done) {
      bytes.set(piece, at);
      at += piece.length;
    }
    const batch: RowBatch = { format, firstLine, bytes, lines: doneLines, overlong, maxLineChars };
    firstLine += doneLines;
    done = [];
    doneBytes = 0;
    doneLines = 0;
    overlong = [];
    return batch;
  };
  const endLine = (tail: Uint8Array): void => {
    if (dropping) {
      overlong.push(doneLines);
      done.push(Buffer.from('\n'));
      doneBytes += 1;
      dropping = false;
    } else {
      for (const piece of partial) done.push(piece);
      done.push(tail);
      doneBytes += partialBytes + tail.length;
    }
    partial = [];
    partialBytes = 0;
    doneLines++;
  };

  const bytes = options.startOfFile === false ? source : withoutBom(source);
  for await (const piece of bytes) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    const firstEnd = chunk.indexOf(NEWLINE);
    if (firstEnd < 0) {
      if (!dropping) {
        partial.push(chunk);
        partialBytes += chunk.length;
        if (partialBytes > maxPartialBytes) {
          dropping = true;
          partial = [];
          partialBytes = 0;
        }
      }
      continue;
    }
    endLine(chunk.subarray(0, firstEnd + 1));
    const lastEnd = chunk.lastIndexOf(NEWLINE);
    // A chunk larger than a batch (a large read buffer) is cut into batches of about batchBytes,
    // so the batch size, not the reader's, sets the unit of work and what is in flight.
    for (let from = firstEnd + 1; from <= lastEnd; ) {
      if (doneBytes >= batchBytes) yield take();
      const wanted = from + (batchBytes - doneBytes) - 1;
      const to = wanted >= lastEnd ? lastEnd : chunk.indexOf(NEWLINE, wanted);
      const lines = chunk.subarray(from, to + 1);
      done.push(lines);
      doneBytes += lines.length;
      doneLines += countLines(lines);
      from = to + 1;
    }
    const rest = chunk.subarray(lastEnd + 1);
    if (rest.length > maxPartialBytes) dropping = true;
    else if (rest.length > 0) {
      partial.push(rest);
      partialBytes = rest.length;
    }
    if (doneBytes >= batchBytes) yield take();
  }
  if (dropping) {
    overlong.push(doneLines);
    done.push(Buffer.from('\n'));
    doneBytes += 1;
    doneLines++;
  } else if (partialBytes > 0) {
    for (const piece of partial) done.push(piece);
    doneBytes += partialBytes;
    doneLines++;
  }
  if (doneLines > 0) yield take();
}
