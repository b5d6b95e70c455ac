// The benchmark verifies every answer with it, and the tests check the solver against it.
import type { Cells } from '../functions/sudoku/index.js';

/**
 * An independent check of a solution, written without the solver's code: every row, column and box
 * holds 1-9 once, and every given of the puzzle is kept.
 */
export function isValidSolution(givens: Cells, solution: ArrayLike<number>): boolean {
  if (solution.length !== 81) return false;
  for (let i = 0; i < 81; i++) {
    const v = solution[i]!;
    if (!(v >= 1 && v <= 9)) return false;
    if (givens[i] && givens[i] !== v) return false;
  }
  for (let u = 0; u < 9; u++) {
    let row = 0,
      col = 0,
      box = 0;
    for (let k = 0; k < 9; k++) {
      row |= 1 << solution[u * 9 + k]!;
      col |= 1 << solution[k * 9 + u]!;
      box |= 1 << solution[(Math.floor(u / 3) * 3 + Math.floor(k / 3)) * 9 + (u % 3) * 3 + (k % 3)]!;
    }
    if (row !== 0x3fe || col !== 0x3fe || box !== 0x3fe) return false;
  }
  return true;
}

/** The same check on text: `solution` is 81 digits completing `puzzle` (an 81-cell string). */
export function isSolutionOf(puzzle: string, solution: string): boolean {
  const givens = puzzle.replace(/[^0-9.]/g, '');
  if (givens.length !== 81 || !/^[1-9]{81}$/.test(solution)) return false;
  const cells = Uint8Array.from(givens, (ch) => (ch === '.' ? 0 : Number(ch)));
  return isValidSolution(cells, Array.from(solution, Number));
}
