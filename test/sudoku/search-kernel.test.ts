import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEARCH_KERNEL_MODULE, searchKernelStamp } from '../../scripts/search-kernel.mjs';
import { countSolutions, parseBoardString, solveBoard } from '../../functions/sudoku/index.js';
import { countSolutionsWithout } from '../../functions/sudoku/wasm-search.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('the WebAssembly search kernel', () => {
  it('is compiled from functions/sudoku/assembly/search.ts as it stands, by the pinned compiler', () => {
    // npm test builds first; this catches a suite run straight after editing the kernel.
    expect(readFileSync(path.join(root, SEARCH_KERNEL_MODULE), 'utf8')).toContain(searchKernelStamp(root));
  });

  it('reads the text as UTF-16: a code unit whose low byte is a digit is not taken for that digit', () => {
    const puzzle = readPuzzleSet('norvig_top95')[0]!;
    const at = puzzle.indexOf('.');
    // U+0135 has low byte 0x35, '5': a byte-wide copy into the kernel would read it as a given 5.
    const outcome = solveBoard(`${puzzle.slice(0, at)}\u0135${puzzle.slice(at + 1)}`);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.problems[0]).toMatchObject({ code: 'BAD_CHARACTER', row: Math.floor(at / 9) + 1 });
    }
  });

  it('finds a solution with a digit barred from a cell exactly when removing that given adds a solution', () => {
    // The generator's uniqueness test: removing a given from a puzzle with one solution keeps it
    // unique iff no solution has another digit there. Checked against counting to two, for every
    // given of hard and easy puzzles, and for an empty cell barred from its own digit or another.
    const out = new Uint8Array(81);
    let removable = 0;
    let needed = 0;
    for (const line of [
      ...readPuzzleSet('puzzles6_forum_hardest_1106').slice(0, 12),
      ...readPuzzleSet('puzzles2_17_clue').slice(0, 12),
    ]) {
      const parsed = parseBoardString(line);
      if (!parsed.ok) throw new Error(line);
      const cells = parsed.board.cells.slice();
      expect(countSolutions(cells, 2, out).count).toBe(1);
      const solution = out.slice();
      const empty = cells.indexOf(0);
      expect(countSolutionsWithout(cells, empty, solution[empty]!)).toBe(0);
      expect(countSolutionsWithout(cells, empty, (solution[empty]! % 9) + 1)).toBe(1);
      // These sets are minimal: a few of the solution's digits added give removable givens too.
      for (let c = 0, added = 0; c < 81 && added < 6; c += 7) {
        if (cells[c]) continue;
        cells[c] = solution[c]!;
        added++;
      }
      for (let c = 0; c < 81; c++) {
        if (!cells[c]) continue;
        cells[c] = 0;
        const unique = countSolutions(cells, 2, out).count === 1;
        expect(countSolutionsWithout(cells, c, solution[c]!)).toBe(unique ? 0 : 1);
        if (unique) removable++;
        else needed++;
        cells[c] = solution[c]!;
      }
    }
    // Both answers occur.
    expect(removable).toBeGreaterThan(0);
    expect(needed).toBeGreaterThan(0);
  });

  it('leaves no state behind: the same board gives the same count and guesses after any other board', () => {
    const hard = readPuzzleSet('puzzles6_forum_hardest_1106').slice(0, 30).map(parseBoardString);
    const out = new Uint8Array(81);
    const first = hard.map((b) => (b.ok ? countSolutions(b.board.cells, 2, out) : null));
    const again = [...hard].reverse().map((b) => (b.ok ? countSolutions(b.board.cells, 2, out) : null));
    expect(again.reverse()).toEqual(first);
  });
});
