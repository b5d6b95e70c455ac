import { describe, expect, it } from 'vitest';
import { solveWithAlgorithmTs } from '../../bench/npm-competitor.js';
import { parseBoardString } from '../../functions/sudoku/index.js';
import { readPuzzleSet, readTdokuVectors } from '../helpers/puzzle-sets.js';
import { isValidSolution } from '../helpers/sudoku-rules.js';

describe('@algorithm.ts/sudoku through the bench wrapper (the npm competitor)', () => {
  it('answers valid grids that keep the givens, so its timings are of real work', () => {
    for (const p of readPuzzleSet('norvig_top95').slice(0, 10)) {
      const answer = solveWithAlgorithmTs(p);
      const parsed = parseBoardString(p);
      expect(parsed.ok && isValidSolution(parsed.board.cells, Array.from(answer, Number))).toBe(true);
    }
  });

  it("answers '' for a board with no solution", () => {
    const none = readTdokuVectors().find((v) => v.count === 0)!;
    expect(solveWithAlgorithmTs(none.puzzle)).toBe('');
  });
});
