/** Independent checks of answers (not the solver's own code): rules of Sudoku and the givens kept. */

/** Whether `solution` (81 digits) is a complete valid grid that keeps every given of `puzzle`. */
export function isSolutionOf(puzzle: string, solution: string): boolean {
  const givens = puzzle.replace(/[^0-9.]/g, '');
  if (givens.length !== 81 || !/^[1-9]{81}$/.test(solution)) return false;
  for (let i = 0; i < 81; i++) {
    const g = givens[i]!;
    if (g !== '.' && g !== '0' && g !== solution[i]) return false;
  }
  for (let u = 0; u < 9; u++) {
    const row = new Set<string>();
    const col = new Set<string>();
    const box = new Set<string>();
    for (let k = 0; k < 9; k++) {
      row.add(solution[u * 9 + k]!);
      col.add(solution[k * 9 + u]!);
      box.add(solution[(Math.floor(u / 3) * 3 + Math.floor(k / 3)) * 9 + (u % 3) * 3 + (k % 3)]!);
    }
    if (row.size !== 9 || col.size !== 9 || box.size !== 9) return false;
  }
  return true;
}

/** A puzzle with 30 givens: solved by propagation alone, for tests that need many rows fast. */
export const EASY = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
export const EASY_SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
/** Two 5s in row 1. */
export const CONTRADICTORY = '55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
/** Valid givens, but no completion: row 1 needs a 1 only the (blocked) last cell could take. */
export const NO_SOLUTION = '12345678........9.........................................................9......';
/** Only one given: very many solutions. */
export const MULTIPLE = '1................................................................................';
