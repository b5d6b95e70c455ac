import { describe, expect, it } from 'vitest';
import { countSolutions as countInTypeScript } from '../../bench/search-typescript.js';
import { countSolutions, parseBoardString } from '../../functions/sudoku/index.js';
import { readPuzzleSet, readTdokuVectors } from '../helpers/puzzle-sets.js';

const cellsOf = (p: string): Uint8Array => {
  const parsed = parseBoardString(p);
  if (!parsed.ok) throw new Error(`unparsable ${p}`);
  return parsed.board.cells;
};

describe('the TypeScript twin of the search (what the benchmark compares the WebAssembly kernel with)', () => {
  it('finds the same solutions, counts and guesses as the kernel, so the two are timed on the same work', () => {
    const boards = [
      ...readTdokuVectors().map((v) => v.puzzle),
      ...readPuzzleSet('puzzles6_forum_hardest_1106').slice(0, 40),
      ...readPuzzleSet('puzzles7_serg_benchmark').slice(0, 40),
      ...readPuzzleSet('puzzles2_17_clue').slice(0, 200),
    ];
    const [a, b] = [new Uint8Array(81), new Uint8Array(81)];
    for (const board of boards) {
      for (const max of [1, 2]) {
        a.fill(0);
        b.fill(0);
        const kernel = { ...countSolutions(cellsOf(board), max, a) };
        const twin = { ...countInTypeScript(cellsOf(board), max, b) };
        expect({ board, max, ...twin, cells: b.join('') }).toEqual({ board, max, ...kernel, cells: a.join('') });
      }
    }
  });
});
