// hint: on random partial boards drawn from the shared sets (the puzzle plus some of its
// solution's digits), the placement is the solution's digit in an empty cell, no step removes
// the solution's digit, and a person's wrong entry is named instead of a hint.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countSolutions } from '../../functions/sudoku/index.js';
import { hint } from '../../functions/sudoku/logic/index.js';
import { EASY, MULTIPLE } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { cellsOf } from '../helpers/boards.js';

const POOL = [
  ...readPuzzleSet('puzzles2_17_clue').slice(0, 300),
  ...readPuzzleSet('puzzles3_magictour_top1465').slice(0, 100),
  ...readPuzzleSet('puzzles5_forum_hardest_1905_11+').slice(0, 40),
];

const solutionOf = (p: string): string => {
  const out = new Uint8Array(81);
  countSolutions(cellsOf(p), 1, out);
  return out.join('');
};

/** A puzzle from the pool, and a board: the puzzle with some of its solution's digits filled in. */
const arbPartial = fc
  .tuple(
    fc.integer({ min: 0, max: POOL.length - 1 }),
    fc.array(fc.boolean(), { minLength: 81, maxLength: 81 }),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([i, fill, density]) => {
    const puzzle = POOL[i]!;
    const solution = solutionOf(puzzle);
    const board = [...puzzle].map((ch, c) => (ch === '.' && fill[c] && c % 4 < density ? solution[c] : ch)).join('');
    return { puzzle, board, solution };
  });

describe('hint', () => {
  it('names a hidden single as a person reads it', () => {
    const r = hint(EASY);
    expect(r.ok && r.hint).toEqual({
      steps: [],
      placement: { row: 1, col: 6, digit: 8 },
      technique: 'hidden-single',
      message: 'Hidden single: in box 2, 8 fits only at row 1, column 6.',
    });
  });

  it('is always right on random partial boards: the placement is the solution digit, no step removes it', () => {
    fc.assert(
      fc.property(arbPartial, fc.boolean(), ({ puzzle, board, solution }, withPuzzle) => {
        const r = hint(withPuzzle ? { puzzle, board } : board);
        if (!r.ok) throw new Error(JSON.stringify(r.problems));
        const { placement, steps } = r.hint;
        expect(placement).not.toBeNull();
        const at = (placement!.row - 1) * 9 + placement!.col - 1;
        expect(board[at]).toBe('.');
        expect(String(placement!.digit)).toBe(solution[at]);
        for (const step of steps) {
          expect(step.eliminations.length).toBeGreaterThan(0);
          for (const e of step.eliminations) expect(String(e.digit)).not.toBe(solution[(e.row - 1) * 9 + e.col - 1]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leads, hint after hint, from each sampled puzzle to its solution', () => {
    for (const puzzle of POOL.filter((_, i) => i % 20 === 0)) {
      const solution = solutionOf(puzzle);
      let board = puzzle;
      for (let n = 0; board.includes('.'); n++) {
        const r = hint({ puzzle, board });
        if (!r.ok || !r.hint.placement) throw new Error(`${puzzle} after ${n} hints`);
        const at = (r.hint.placement.row - 1) * 9 + r.hint.placement.col - 1;
        expect(String(r.hint.placement.digit)).toBe(solution[at]);
        board = board.slice(0, at) + r.hint.placement.digit + board.slice(at + 1);
      }
      expect(board).toBe(solution);
    }
  });

  it('says of every naked single only what the board and the steps above it show', () => {
    const digits = (list: string | undefined): number[] => (list ? (list.match(/\d/g) ?? []).map(Number) : []);
    const sentence =
      /^Naked single: row (\d), column (\d) can only be (\d); (?:(every other digit is already in its row, column or box)|the steps above removed every other digit \(([\d, and]+)\)|([\d, and]+) (?:is|are) already in its row, column or box, and the steps above removed ([\d, and]+))\.$/;
    let singles = 0;
    let afterSteps = 0;
    for (const puzzle of POOL.filter((_, i) => i % 4 === 0)) {
      let board = puzzle;
      while (board.includes('.')) {
        const r = hint({ puzzle, board });
        if (!r.ok || !r.hint.placement) throw new Error(`${puzzle}: no hint for ${board}`);
        const { placement, steps, technique, message } = r.hint;
        const at = (placement.row - 1) * 9 + placement.col - 1;
        if (technique === 'naked-single') {
          singles++;
          if (steps.length) afterSteps++;
          const m = sentence.exec(message);
          if (!m) throw new Error(`unexpected sentence: ${message}`);
          expect([Number(m[1]), Number(m[2]), Number(m[3])]).toEqual([placement.row, placement.col, placement.digit]);
          const inUnits = new Set<number>();
          for (let o = 0; o < 81; o++) {
            const sameBox =
              Math.floor(o / 27) === Math.floor(at / 27) && Math.floor((o % 9) / 3) === Math.floor((at % 9) / 3);
            const peer = o !== at && (Math.floor(o / 9) === Math.floor(at / 9) || o % 9 === at % 9 || sameBox);
            if (peer && board[o] !== '.') inUnits.add(Number(board[o]));
          }
          const removedBySteps = new Set(
            steps
              .flatMap((s) => s.eliminations.filter((e) => e.row === placement.row && e.col === placement.col))
              .map((e) => e.digit),
          );
          const others = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => d !== placement.digit);
          const claimedInUnits = m[4] ? others : digits(m[6]);
          const claimedRemoved = m[5] ? digits(m[5]) : digits(m[7]);
          // Each digit named as in the cell's units is there; each named as removed, a step above removed at that cell.
          for (const d of claimedInUnits) expect(inUnits.has(d), `${message} (${board})`).toBe(true);
          for (const d of claimedRemoved) expect(removedBySteps.has(d), `${message} (${board})`).toBe(true);
          expect([...claimedInUnits, ...claimedRemoved].sort()).toEqual(others);
        }
        board = board.slice(0, at) + placement.digit + board.slice(at + 1);
      }
    }
    expect(afterSteps).toBeGreaterThan(0);
    expect(singles).toBeGreaterThan(afterSteps);
  });

  it('names a wrong entry of the person instead of giving a hint', () => {
    const solution = solutionOf(EASY);
    const at = EASY.indexOf('.');
    const wrong = ((Number(solution[at]) % 9) + 1).toString();
    const board = EASY.slice(0, at) + wrong + EASY.slice(at + 1);
    const r = hint({ puzzle: EASY, board });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toEqual([
        expect.objectContaining({ code: 'CONTRADICTS_SOLUTION', row: Math.floor(at / 9) + 1, col: (at % 9) + 1 }),
      ]);
    }
  });

  it('names a given the board changed', () => {
    const board = `.${EASY.slice(1)}`;
    const r = hint({ puzzle: EASY, board });
    expect(!r.ok && r.problems[0]).toEqual(expect.objectContaining({ code: 'GIVEN_CHANGED', row: 1, col: 1 }));
  });

  it('says a complete board is complete, and refuses a board with many solutions', () => {
    const done = hint(solutionOf(EASY));
    expect(done.ok && done.hint.placement).toBeNull();
    const many = hint(MULTIPLE);
    expect(!many.ok && many.problems[0]!.code).toBe('MULTIPLE_SOLUTIONS');
  });
});
