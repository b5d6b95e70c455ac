import { answerBatch } from './row-batch.js';
import type { BatchAnswer, BatchFormat, RowBatch } from './row-batch.js';
import { cutRowBatches } from './row-batches.js';
import type { CutOptions } from './row-batches.js';
import type { FileTally } from './tally.js';
import type { FileFormat } from './types.js';

/**
 * Where batches of rows are answered: in this thread, or on worker threads
 * (functions/parallel/). Answers may arrive in any order; the caller puts them back in order.
 */
export interface BatchSolver {
  /** Batches worth having in flight at once to keep every thread busy; also what bounds memory. */
  readonly capacity: number;
  solve(batch: RowBatch): Promise<BatchAnswer>;
}

/** One CPU: each batch answered in this thread, when it is handed over. */
export const IN_THREAD_SOLVER: BatchSolver = {
  capacity: 1,
  solve: (batch) => Promise.resolve(answerBatch(batch)),
};

export function isBatchFormat(format: FileFormat): format is BatchFormat {
  return format === 'txt' || format === 'jsonl';
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
  grade = false,
): AsyncGenerator<Buffer> {
  const inFlight: { answer: Promise<BatchAnswer>; lines: number }[] = [];
  const next = async (): Promise<Buffer> => {
    const pending = inFlight.shift()!;
    const answer = await pending.answer;
    tally.readAhead(-pending.lines);
    tally.merge(answer.counts, answer.failures, answer.levels);
    return Buffer.from(answer.text.buffer, answer.text.byteOffset, answer.text.length);
  };
  for await (const batch of cutRowBatches(source, format, cut)) {
    const answer = solver.solve(grade ? { ...batch, grade } : batch);
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
