import { describe, expect, it } from 'vitest';
import {
  findConflicts,
  MAX_LISTED_PROBLEMS,
  parseBoard,
  parseBoardString,
  solveBoard,
  type Problem,
} from '../../functions/sudoku/index.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';

const PUZZLE = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const grid = (): string[][] => PUZZLE.match(/.{9}/g)!.map((r) => r.split(''));
const numbers = (): number[][] => grid().map((r) => r.map((c) => (c === '.' ? 0 : Number(c))));

function problemsOf(input: unknown, options = {}): Problem[] {
  const outcome = solveBoard(input, options);
  if (outcome.ok) throw new Error('expected a problem');
  return outcome.problems;
}

describe('every problem code names its place', () => {
  it('WRONG_TYPE for something that is not a board at all', () => {
    expect(problemsOf({ not: 'a board' })[0]).toMatchObject({ code: 'WRONG_TYPE' });
    expect(problemsOf(null)[0]!.message).toContain('null');
  });

  it('WRONG_LENGTH says how many cells were found', () => {
    const [p] = problemsOf(PUZZLE.slice(0, 80));
    expect(p).toMatchObject({ code: 'WRONG_LENGTH' });
    expect(p!.message).toContain('80');
  });

  it('WRONG_SHAPE names the row that is not 9 cells long', () => {
    const g = grid();
    g[4] = g[4]!.slice(0, 8);
    expect(problemsOf(g)).toEqual([expect.objectContaining({ code: 'WRONG_SHAPE', row: 5 })]);
    expect(problemsOf(grid().slice(0, 8))[0]).toMatchObject({ code: 'WRONG_SHAPE' });
  });

  it('BAD_CHARACTER gives the row and column of the cell it would have filled', () => {
    const bad = `${PUZZLE.slice(0, 20)}x${PUZZLE.slice(21)}`;
    expect(problemsOf(bad)).toEqual([expect.objectContaining({ code: 'BAD_CHARACTER', row: 3, col: 3 })]);
    expect(problemsOf(bad)[0]!.message).toContain("'x'");
  });

  it('BAD_CHARACTER in an array of strings names the cell', () => {
    const g = grid();
    g[8]![0] = '10';
    expect(problemsOf(g)).toEqual([expect.objectContaining({ code: 'BAD_CHARACTER', row: 9, col: 1 })]);
  });

  it('DIGIT_OUT_OF_RANGE in an array of numbers names the cell', () => {
    const g = numbers();
    g[1]![6] = 12;
    expect(problemsOf(g)).toEqual([expect.objectContaining({ code: 'DIGIT_OUT_OF_RANGE', row: 2, col: 7 })]);
    g[1]![6] = 2.5;
    expect(problemsOf(g)[0]).toMatchObject({ code: 'DIGIT_OUT_OF_RANGE', row: 2, col: 7 });
  });

  it('DUPLICATE_IN_ROW names both cells', () => {
    // row 1 already has 5 at column 1; put another 5 at column 9
    const bad = `${PUZZLE.slice(0, 8)}5${PUZZLE.slice(9)}`;
    const problems = problemsOf(bad);
    expect(problems).toContainEqual(
      expect.objectContaining({
        code: 'DUPLICATE_IN_ROW',
        cells: [
          { row: 1, col: 1 },
          { row: 1, col: 9 },
        ],
      }),
    );
  });

  it('DUPLICATE_IN_COLUMN names both cells', () => {
    // column 1 has 5 at row 1; put 5 at row 9, column 1
    const bad = `${PUZZLE.slice(0, 72)}5${PUZZLE.slice(73)}`;
    expect(problemsOf(bad)).toContainEqual(
      expect.objectContaining({
        code: 'DUPLICATE_IN_COLUMN',
        cells: [
          { row: 1, col: 1 },
          { row: 9, col: 1 },
        ],
      }),
    );
  });

  it('DUPLICATE_IN_BOX names both cells', () => {
    // box 1 has 3 at row 1, column 2; put 3 at row 2, column 3 (no row or column clash)
    const bad = `${PUZZLE.slice(0, 11)}3${PUZZLE.slice(12)}`;
    const problems = problemsOf(bad);
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'DUPLICATE_IN_BOX',
        row: 2,
        col: 3,
        cells: [
          { row: 1, col: 2 },
          { row: 2, col: 3 },
        ],
      }),
    ]);
  });

  it('lists the first conflicts of a board and counts them all: 81 equal digits are 216 pairs', () => {
    const outcome = solveBoard('1'.repeat(81));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    // Each of the 27 units pairs its first 1 with the 8 others.
    expect(outcome.problemsTotal).toBe(216);
    expect(outcome.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    const parsed = parseBoardString('1'.repeat(81));
    if (!parsed.ok) throw new Error('not parsed');
    const all = findConflicts(parsed.board.cells, Number.POSITIVE_INFINITY);
    expect(all.total).toBe(216);
    expect(all.problems).toHaveLength(216);
    expect(outcome.problems).toEqual(all.problems.slice(0, MAX_LISTED_PROBLEMS));
  });

  it('NO_SOLUTION for givens that break no rule yet cannot be completed', () => {
    // tdoku's test vectors include puzzles with no solution and no direct conflict
    const noSolution = '1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.';
    expect(problemsOf(noSolution)).toEqual([expect.objectContaining({ code: 'NO_SOLUTION' })]);
  });

  it('MULTIPLE_SOLUTIONS only when asked to reject them', () => {
    const open = '.'.repeat(81);
    expect(problemsOf(open, { rejectMultiple: true })).toEqual([
      expect.objectContaining({ code: 'MULTIPLE_SOLUTIONS' }),
    ]);
    const solved = solveBoard(open);
    expect(solved.ok && solved.unique).toBe(false);
  });

  it('BAD_CHARACTER past the 81st cell gives its position in the text instead of a cell', () => {
    const [p] = problemsOf(`${PUZZLE}z`);
    expect(p).toMatchObject({ code: 'BAD_CHARACTER' });
    expect(p!.row).toBeUndefined();
    expect(p!.message).toContain('Character 82');
  });

  it('SEARCH_LIMIT when the search runs past its guess limit', () => {
    const hard = readPuzzleSet('puzzles6_forum_hardest_1106')[0]!;
    expect(problemsOf(hard, { maxGuesses: 5 })).toEqual([expect.objectContaining({ code: 'SEARCH_LIMIT' })]);
    expect(solveBoard(hard).ok).toBe(true);
  });

  it('reports several bad characters at once, each at its own cell', () => {
    const bad = `a${PUZZLE.slice(1, 80)}b`;
    const problems = problemsOf(bad);
    expect(problems.map((p) => [p.row, p.col])).toEqual([
      [1, 1],
      [9, 9],
    ]);
    expect(parseBoard(bad).ok).toBe(false);
  });
});
