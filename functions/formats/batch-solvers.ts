import { answerBatch } from './answer-batch.js';
import type { BatchAnswer, RowAnswer, RowBatch } from './answer-batch.js';
import { countLines, cutRowBatches } from './cut-batches.js';
import type { CutOptions } from './cut-batches.js';
import { FileTally } from './tally.js';
import type { BatchFormat, FileFormat } from './types.js';

/**
 * Where batches of rows are answered: in this thread, or on worker threads
 * (functions/parallel/). Answers may arrive in any order; the caller puts them back in order.
 */
export interface BatchSolver {
  /** Batches worth having in flight at once to keep every thread busy; also what bounds memory. */
  readonly capacity: number;
  /**
   * `signal`: the file's solve was given up (a stop for time, a failed stream). A batch answered
   * in this thread then stops at its next slice instead of holding the thread for nothing.
   */
  solve(batch: RowBatch, signal?: AbortSignal): Promise<BatchAnswer>;
}

/**
 * How long one slice of a batch may hold this thread before its event loop turns. A whole batch
 * (256 KiB) of hard rows held it for up to a second on a loaded core, and a few in a row for
 * several: no timer fired, so the stop before the function's timeout came too late and the
 * invocation died at its timeout instead of handing over. A slice also has a fixed cost (a codec,
 * a tally, its part of the join): fixed slices of 8 KiB cost the S3 path 13% on 17-clue rows.
 */
export const SLICE_MS = 20;
/** The first slice of a batch: ~100 rows, ~10 ms of the hardest set on an idle core (~0.2 s graded). */
export const SLICE_BYTES = 8 * 1024;

const NEWLINE = 10;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A batch answered in this thread slice by slice (whole lines: `sliceBytes` first, then what the
 * rows so far answer in `sliceMs`, never less), each after a turn of the event loop so timers and
 * I/O run between slices; the answer is the one answerBatch gives. Rejects with the signal's
 * reason once `signal` is aborted.
 */
export async function answerBatchInTurns(
  batch: RowBatch,
  signal?: AbortSignal,
  sliceBytes = SLICE_BYTES,
  sliceMs = SLICE_MS,
): Promise<BatchAnswer> {
  const { bytes } = batch;
  const parts: BatchAnswer[] = [];
  let start = 0;
  let line = 0;
  let size = sliceBytes;
  do {
    await nextTurn();
    signal?.throwIfAborted();
    let end = start + size;
    if (end >= bytes.length) end = bytes.length;
    else {
      const newline = bytes.indexOf(NEWLINE, end - 1);
      end = newline < 0 ? bytes.length : newline + 1;
    }
    if (start === 0 && end === bytes.length) return answerBatch(batch);
    const slice = bytes.subarray(start, end);
    const lines = countLines(slice) + (slice[slice.length - 1] === NEWLINE ? 0 : 1);
    const overlong = batch.overlong.filter((i) => i >= line && i < line + lines).map((i) => i - line);
    const began = performance.now();
    parts.push(answerBatch({ ...batch, firstLine: batch.firstLine + line, bytes: slice, lines, overlong }));
    const ms = performance.now() - began;
    size = Math.max(sliceBytes, Math.floor((slice.length * sliceMs) / Math.max(ms, 0.01)));
    line += lines;
    start = end;
  } while (start < bytes.length);
  return joinAnswers(parts, batch.grade === true);
}

/** The slices' answers as one: texts end to end, counts added by the tally every batch goes into. */
function joinAnswers(parts: BatchAnswer[], grade: boolean): BatchAnswer {
  const text = new Uint8Array(parts.reduce((n, part) => n + part.text.length, 0));
  const tally = new FileTally({ failureCap: Number.POSITIVE_INFINITY });
  let at = 0;
  for (const part of parts) {
    text.set(part.text, at);
    at += part.text.length;
    tally.merge(part.counts, part.failures, part.levels);
  }
  const { counts, failures, levels } = tally;
  return grade ? { text, counts, failures, levels } : { text, counts, failures };
}

/**
 * This thread answers one batch at a time, in the order asked: batches interleaved slice by slice
 * would all run in one turn of the event loop, and a timer would again wait for all of them.
 */
let inThreadTail: Promise<unknown> = Promise.resolve();

/** A batch answered in this thread, after the ones asked for before it (see answerBatchInTurns). */
export function answerInThread(batch: RowBatch, signal?: AbortSignal): Promise<BatchAnswer> {
  const answer = inThreadTail.then(() => answerBatchInTurns(batch, signal));
  inThreadTail = answer.then(
    () => undefined,
    () => undefined,
  );
  return answer;
}

/** One CPU: each batch answered in this thread, when it is handed over. */
export const IN_THREAD_SOLVER: BatchSolver = {
  capacity: 1,
  solve: (batch, signal) => answerInThread(batch, signal),
};

export function isBatchFormat(format: FileFormat): format is BatchFormat {
  return format === 'txt' || format === 'jsonl';
}

/** How each row of the batches is answered (RowBatch's fields of the same names): solved, by default. */
export interface BatchRows {
  grade?: boolean;
  answer?: RowAnswer;
}

/**
 * A line-based file (raw bytes in) answered batch by batch (bytes out), in input order: at most
 * `solver.capacity` batches are read ahead of the one being written, so memory stays flat
 * whatever the file size, and a slow reader of the output slows the reading of the input.
 */
export async function* solveRowBatches(
  source: AsyncIterable<Uint8Array | string>,
  format: BatchFormat,
  tally: FileTally,
  solver: BatchSolver = IN_THREAD_SOLVER,
  cut: CutOptions = {},
  rows: BatchRows = {},
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  const asked = rows.grade === true || rows.answer !== undefined;
  const inFlight: { answer: Promise<BatchAnswer>; lines: number }[] = [];
  const next = async (): Promise<Buffer> => {
    const pending = inFlight.shift()!;
    const answer = await pending.answer;
    tally.readAhead(-pending.lines);
    tally.merge(answer.counts, answer.failures, answer.levels);
    return Buffer.from(answer.text.buffer, answer.text.byteOffset, answer.text.length);
  };
  for await (const batch of cutRowBatches(source, format, cut)) {
    const answer = solver.solve(asked ? { ...batch, ...rows } : batch, signal);
    // Awaited in order below; until then a failure must not count as unhandled.
    answer.catch(() => undefined);
    const { lines } = batch;
    inFlight.push({ answer, lines });
    // Read now, answered later: a report of a file that breaks meanwhile still says how far reading got.
    tally.readAhead(lines);
    if (inFlight.length >= solver.capacity) {
      const text = await next();
      if (text.length > 0) yield text;
    }
  }
  while (inFlight.length > 0) {
    const text = await next();
    if (text.length > 0) yield text;
  }
}
