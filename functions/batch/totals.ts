import type { BatchItemResult, BatchTotals } from './types.js';

export function emptyTotals(): BatchTotals {
  return {
    files: { solved: 0, rejected: 0, skipped: 0, ignored: 0, failed: 0 },
    puzzles: { rows: 0, solved: 0, failed: 0 },
  };
}

/** Counts one file's result into `totals` (puzzles only for files solved by this run). */
export function addToTotals(totals: BatchTotals, result: BatchItemResult): void {
  totals.files[result.status]++;
  if (result.status === 'solved') {
    totals.puzzles.rows += result.puzzles.rows;
    totals.puzzles.solved += result.puzzles.solved;
    totals.puzzles.failed += result.puzzles.failed;
  }
}
