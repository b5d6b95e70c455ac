import { describe, expect, it } from 'vitest';
import { solveReference, toCharBoard } from '../../bench/reference-backtracking.js';
import { parseBoardString } from '../../functions/sudoku/index.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { isValidSolution } from '../helpers/sudoku-rules.js';

describe('reference backtracking (the benchmark baseline)', () => {
  it('solves easy puzzles in place to valid grids, so its timings are of real work', () => {
    for (const p of readPuzzleSet('puzzles7_serg_benchmark').slice(0, 20)) {
      const board = toCharBoard(p);
      expect(solveReference(board, performance.now() + 60_000)).toBe(true);
      const parsed = parseBoardString(p);
      expect(parsed.ok && isValidSolution(parsed.board.cells, board.flat().map(Number))).toBe(true);
    }
  });
});
