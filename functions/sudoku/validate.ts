import { duplicateGiven, MAX_LISTED_PROBLEMS, type Unit } from './problems.js';
import type { Cells, Problem } from './types.js';

const UNITS: readonly Unit[] = ['row', 'column', 'box'];

/**
 * The pairs of equal givens sharing a row, column or box, each pair named once per unit: the
 * first `max` listed, all of them counted. solve-board.ts runs it after a search that found no solution
 * (equal givens always make the search fail at once), so a contradiction is reported where it is,
 * not as a bare "no solution". Listing every pair of a board of 81 equal digits (216 problems, each
 * with its sentence) made a request of 1,000 such boards the slowest an API caller could send.
 */
export function findConflicts(cells: Cells, max = MAX_LISTED_PROBLEMS): { problems: Problem[]; total: number } {
  const problems: Problem[] = [];
  let total = 0;
  // first[unit * 10 + digit] = 1 + index of the first cell holding that digit in the unit
  const first = new Int16Array(27 * 10);
  for (let i = 0; i < 81; i++) {
    const d = cells[i]!;
    if (!d) continue;
    const r = (i / 9) | 0;
    const c = i % 9;
    const b = ((r / 3) | 0) * 3 + ((c / 3) | 0);
    for (let kind = 0; kind < 3; kind++) {
      const k = (kind === 0 ? r : kind === 1 ? 9 + c : 18 + b) * 10 + d;
      const seen = first[k]!;
      if (!seen) {
        first[k] = i + 1;
        continue;
      }
      if (total++ >= max) continue;
      const j = seen - 1;
      problems.push(
        duplicateGiven(UNITS[kind]!, d, { row: ((j / 9) | 0) + 1, col: (j % 9) + 1 }, { row: r + 1, col: c + 1 }),
      );
    }
  }
  return { problems, total };
}
