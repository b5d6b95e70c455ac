import { Readable } from 'node:stream';
import { FileTally, IN_THREAD_SOLVER, solveRowBatches } from '../../functions/formats/index.js';
import type { BatchFormat, BatchSolver } from '../../functions/formats/index.js';
import type { BatchRows } from '../../functions/formats/batch-solvers.js';
import { chunked } from './run-format.js';

/** Runs the batched file path over `bytes`, cut into chunks, and returns the output with every count and failure. */
export async function batched(
  bytes: Buffer,
  format: BatchFormat,
  options: { chunkSize: number; batchBytes: number; maxLineChars: number; solver?: BatchSolver; rows?: BatchRows },
) {
  const tally = new FileTally({ failureCap: Number.POSITIVE_INFINITY });
  const parts: Buffer[] = [];
  const solver = options.solver ?? IN_THREAD_SOLVER;
  const cut = { batchBytes: options.batchBytes, maxLineChars: options.maxLineChars };
  for await (const part of solveRowBatches(
    Readable.from(chunked(bytes, options.chunkSize)),
    format,
    tally,
    solver,
    cut,
    options.rows,
  ))
    parts.push(part);
  return { text: Buffer.concat(parts).toString('utf8'), counts: tally.counts, failures: tally.failures };
}
