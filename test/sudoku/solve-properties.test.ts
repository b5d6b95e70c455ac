import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBoardString, parseBoard, solveBoard, type ProblemCode } from '../../functions/sudoku/index.js';
import { isValidSolution } from '../helpers/sudoku-rules.js';

// A valid complete grid; every other complete grid in the tests is derived from it by the
// transformations that preserve validity (relabel digits, permute rows in a band, bands, columns
// in a stack, stacks, transpose).
const BASE = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';

const perm3 = fc.constantFrom([0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]);
const arbGrid = fc
  .record({
    digits: fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: 9, maxLength: 9 }),
    bands: perm3,
    rows: fc.tuple(perm3, perm3, perm3),
    stacks: perm3,
    cols: fc.tuple(perm3, perm3, perm3),
    transpose: fc.boolean(),
  })
  .map(({ digits, bands, rows, stacks, cols, transpose }) => {
    const grid = new Uint8Array(81);
    for (let r = 0; r < 9; r++) {
      for (let c = 0; c < 9; c++) {
        const sr = bands[(r / 3) | 0]! * 3 + rows[(r / 3) | 0]![r % 3]!;
        const sc = stacks[(c / 3) | 0]! * 3 + cols[(c / 3) | 0]![c % 3]!;
        const [br, bc] = transpose ? [sc, sr] : [sr, sc];
        grid[r * 9 + c] = digits[Number(BASE[br * 9 + bc]) - 1]!;
      }
    }
    return grid;
  });

const arbPuzzle = fc
  .tuple(arbGrid, fc.array(fc.boolean(), { minLength: 81, maxLength: 81 }), fc.integer({ min: 0, max: 3 }))
  .map(([grid, keep, sparsity]) => {
    // sparsity 0 keeps about half the givens, 3 about a sixth: from trivial to many solutions
    const givens = grid.map((d, i) =>
      keep[i] && (sparsity === 0 || (i * 7 + sparsity) % (sparsity + 2) === 0) ? d : 0,
    );
    return { grid, givens };
  });

const CODES: ProblemCode[] = [
  'WRONG_TYPE',
  'WRONG_LENGTH',
  'WRONG_SHAPE',
  'BAD_CHARACTER',
  'DIGIT_OUT_OF_RANGE',
  'DUPLICATE_IN_ROW',
  'DUPLICATE_IN_COLUMN',
  'DUPLICATE_IN_BOX',
  'NO_SOLUTION',
  'MULTIPLE_SOLUTIONS',
];

describe('solver properties', () => {
  it('a randomly masked valid grid solves to a valid grid keeping the givens; unique means it is the original', () => {
    fc.assert(
      fc.property(arbPuzzle, ({ grid, givens }) => {
        const outcome = solveBoard(formatBoardString(givens));
        expect(outcome.ok).toBe(true);
        if (!outcome.ok) return;
        expect(isValidSolution(givens, outcome.cells)).toBe(true);
        if (outcome.unique) expect(Array.from(outcome.cells)).toEqual(Array.from(grid));
      }),
      { numRuns: 400 },
    );
  });

  it('a complete grid is its own unique solution, in every input shape', () => {
    fc.assert(
      fc.property(arbGrid, (grid) => {
        const rows = Array.from({ length: 9 }, (_, r) => Array.from(grid.subarray(r * 9, r * 9 + 9)));
        for (const input of [formatBoardString(grid), rows, rows.map((r) => r.map(String))]) {
          const outcome = solveBoard(input);
          expect(outcome.ok && outcome.unique).toBe(true);
          if (outcome.ok) expect(outcome.solution).toEqual(input);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('random edits of a valid string give a solution or typed problems with places, never an exception', () => {
    const edit = fc.oneof(
      fc.record({
        kind: fc.constant('replace' as const),
        at: fc.nat(80),
        text: fc.string({ unit: 'binary', maxLength: 3 }),
      }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(80),
        text: fc.string({ unit: 'grapheme', maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(80), text: fc.constant('') }),
    );
    fc.assert(
      fc.property(arbPuzzle, fc.array(edit, { maxLength: 4 }), ({ givens }, edits) => {
        let text = formatBoardString(givens);
        for (const e of edits) {
          const at = Math.min(e.at, text.length);
          text = text.slice(0, at) + e.text + text.slice(at + (e.kind === 'insert' ? 0 : 1));
        }
        const outcome = solveBoard(text);
        if (outcome.ok) {
          const parsed = parseBoard(text);
          expect(parsed.ok && isValidSolution(parsed.board.cells, outcome.cells)).toBe(true);
        } else {
          expect(outcome.problems.length).toBeGreaterThan(0);
          for (const p of outcome.problems) {
            expect(CODES).toContain(p.code);
            expect(p.message.length).toBeGreaterThan(10);
            if (p.row !== undefined) expect(p.row).toBeGreaterThanOrEqual(1);
            if (p.row !== undefined) expect(p.row).toBeLessThanOrEqual(9);
            if (p.col !== undefined) expect(p.col).toBeGreaterThanOrEqual(1);
            if (p.col !== undefined) expect(p.col).toBeLessThanOrEqual(9);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('random values anywhere in a 9x9 array give a solution or typed problems, never an exception', () => {
    fc.assert(
      fc.property(arbGrid, fc.nat(8), fc.nat(8), fc.jsonValue(), fc.boolean(), (grid, r, c, value, asNumbers) => {
        const rows: unknown[][] = Array.from({ length: 9 }, (_, i) =>
          Array.from(grid.subarray(i * 9, i * 9 + 9), (d) => (asNumbers ? d : String(d))),
        );
        rows[r]![c] = value;
        const outcome = solveBoard(rows);
        if (!outcome.ok) for (const p of outcome.problems) expect(CODES).toContain(p.code);
      }),
      { numRuns: 500 },
    );
  });
});
