/**
 * The baseline every figure is compared with: a faithful port of the classic LeetCode 37 solution.
 * Row by row, left to right; at the first empty cell try '1'..'9', rescanning the row, column and
 * box before each placement; recurse; undo. The only addition is a deadline (checked every 4096
 * placements) so a benchmark run stays bounded: on 17-clue puzzles this search can take minutes.
 */
export class ReferenceTimeout extends Error {}

export function solveReference(board: string[][], deadline: number): boolean {
  let steps = 0;
  const isValid = (row: number, col: number, c: string): boolean => {
    for (let i = 0; i < 9; i++) {
      if (board[i]![col] === c) return false;
      if (board[row]![i] === c) return false;
      if (board[3 * Math.floor(row / 3) + Math.floor(i / 3)]![3 * Math.floor(col / 3) + (i % 3)] === c) return false;
    }
    return true;
  };
  const solve = (): boolean => {
    for (let i = 0; i < 9; i++) {
      for (let j = 0; j < 9; j++) {
        if (board[i]![j] !== '.') continue;
        for (let c = 1; c <= 9; c++) {
          const ch = String(c);
          if (isValid(i, j, ch)) {
            board[i]![j] = ch;
            if ((++steps & 4095) === 0 && performance.now() > deadline) throw new ReferenceTimeout();
            if (solve()) return true;
            board[i]![j] = '.';
          }
        }
        return false;
      }
    }
    return true;
  };
  return solve();
}

/** The LeetCode board shape: 9 rows of 9 one-character strings, '.' empty. */
export function toCharBoard(puzzle: string): string[][] {
  const rows: string[][] = [];
  for (let r = 0; r < 9; r++)
    rows.push(
      puzzle
        .slice(r * 9, r * 9 + 9)
        .replace(/0/g, '.')
        .split(''),
    );
  return rows;
}
