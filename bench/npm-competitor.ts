/**
 * The best solver on npm, measured in the same run as ours: @algorithm.ts/sudoku (dancing links,
 * first solution only). Its board is 81 numbers, -1 empty, 0-8 digits; the conversion from and to
 * our 81-character lines is counted in its time, as parsing and formatting are counted in ours.
 */
import { SudokuSolver } from '@algorithm.ts/sudoku';

const solver = new SudokuSolver({ childMatrixWidth: 3 });
const puzzle: number[] = new Array<number>(81).fill(-1);
const solution: number[] = new Array<number>(81).fill(-1);

/** The first solution of an 81-character puzzle ('.' or '0' empty), or '' when it has none. */
export function solveWithAlgorithmTs(text: string): string {
  for (let i = 0; i < 81; i++) {
    const c = text.charCodeAt(i);
    puzzle[i] = c === 46 || c === 48 ? -1 : c - 49;
  }
  if (!solver.solve(puzzle, solution)) return '';
  let out = '';
  for (let i = 0; i < 81; i++) out += String.fromCharCode(49 + solution[i]!);
  return out;
}
