import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEARCH_KERNEL_MODULE, searchKernelStamp } from '../../scripts/search-kernel.mjs';
import { countSolutions, parseBoardString, solveBoard } from '../../functions/sudoku/index.js';
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

  it('leaves no state behind: the same board gives the same count and guesses after any other board', () => {
    const hard = readPuzzleSet('puzzles6_forum_hardest_1106').slice(0, 30).map(parseBoardString);
    const out = new Uint8Array(81);
    const first = hard.map((b) => (b.ok ? countSolutions(b.board.cells, 2, out) : null));
    const again = [...hard].reverse().map((b) => (b.ok ? countSolutions(b.board.cells, 2, out) : null));
    expect(again.reverse()).toEqual(first);
  });
});
