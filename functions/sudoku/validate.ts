import { duplicateGiven, type Unit } from './problems.js';
import type { Cells, Problem } from './types.js';

/**
 * Every pair of equal givens sharing a row, column or box, each pair named once per unit.
 * solve.ts runs it after a search that found no solution (equal givens always make the search
 * fail at once), so a contradiction is reported where it is, not as a bare "no solution".
 */
export function findConflicts(cells: Cells): Problem[] {
  const problems: Problem[] = [];
  // first[unit * 10 + digit] = 1 + index of the first cell holding that digit in the unit
  const first = new Int16Array(27 * 10);
  for (let i = 0; i < 81; i++) {
    const d = cells[i]!;
    if (!d) continue;
    const r = (i / 9) | 0;
    const c = i % 9;
    const b = ((r / 3) | 0) * 3 + ((c / 3) | 0);
    const units: [Unit, number][] = [
      ['row', r],
      ['column', 9 + c],
      ['box', 18 + b],
    ];
    for (const [unit, u] of units) {
      const k = u * 10 + d;
      const seen = first[k]!;
      if (seen) {
        const j = seen - 1;
        problems.push(
          duplicateGiven(unit, d, { row: ((j / 9) | 0) + 1, col: (j % 9) + 1 }, { row: r + 1, col: c + 1 }),
        );
      } else {
        first[k] = i + 1;
      }
    }
  }
  return problems;
}
