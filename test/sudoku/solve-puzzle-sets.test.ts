import { describe, expect, it } from 'vitest';
import { countSolutions, parseBoardString, solveBoard, type Cells } from '../../functions/sudoku/index.js';
import { BENCH_SETS, readPuzzleSet, readTdokuVectors } from '../helpers/puzzle-sets.js';
import { isValidSolution } from '../helpers/sudoku-rules.js';

function cellsOf(puzzle: string): Cells {
  const parsed = parseBoardString(puzzle);
  if (!parsed.ok) throw new Error(`unparsable: ${puzzle}`);
  return parsed.board.cells;
}

describe('tdoku test vectors', () => {
  const vectors = readTdokuVectors();

  it('are all there (0, 1 and many solutions)', () => {
    expect(vectors.length).toBe(43);
    expect(new Set(vectors.map((v) => Math.min(v.count, 2)))).toEqual(new Set([0, 1, 2]));
  });

  it.each(vectors.map((v, i) => [i + 1, v] as const))('vector %i: solution count and solution match', (_, v) => {
    const out = new Uint8Array(81);
    expect(countSolutions(cellsOf(v.puzzle), 2, out).count).toBe(Math.min(v.count, 2));
    if (v.solution) expect(Array.from(out).join('')).toBe(v.solution);
    if (v.count > 0) expect(isValidSolution(cellsOf(v.puzzle), out)).toBe(true);
  });

  it('solveBoard reports NO_SOLUTION, unique true, or unique false accordingly', () => {
    for (const v of vectors) {
      const outcome = solveBoard(v.puzzle);
      if (v.count === 0) {
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.problems[0]!.code).toMatch(/NO_SOLUTION|DUPLICATE_IN_/);
      } else {
        expect(outcome.ok && outcome.unique).toBe(v.count === 1);
      }
    }
  });
});

describe('boards that defeat one branching rule', () => {
  // Found by the HTTP tests: with cell branching alone this takes 2.5 million guesses to refute.
  const TRAP = '.....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........';

  it('are settled by restarting with the other rule, within a small guess count', () => {
    const out = new Uint8Array(81);
    const { count, guesses } = countSolutions(cellsOf(TRAP), 2, out);
    expect(count).toBe(0);
    expect(guesses).toBeLessThan(50_000);
  });

  it('the limit makes the search give up (-1) instead of running on', () => {
    const out = new Uint8Array(81);
    const { count, guesses } = countSolutions(cellsOf(TRAP), 2, out, 100);
    expect(count).toBe(-1);
    expect(guesses).toBeLessThanOrEqual(100);
  });
});

// Every puzzle of every set's fixture (its first lines and a stride through the rest; `npm run bench`
// checks every puzzle of the full sets), in both modes, checked by an independent rules check.
describe.each(BENCH_SETS.map((name) => [name]))('%s', (name) => {
  const puzzles = readPuzzleSet(name);
  const multiple = name === 'puzzles7_serg_benchmark';

  it(`solves every puzzle to a valid grid that keeps the givens, and counts ${multiple ? 'several solutions' : 'exactly one'}`, () => {
    const out = new Uint8Array(81);
    let wrong = 0;
    for (const p of puzzles) {
      const cells = cellsOf(p);
      out.fill(0);
      const first = countSolutions(cells, 1, out).count;
      if (first !== 1 || !isValidSolution(cells, out)) wrong++;
      out.fill(0);
      const upToTwo = countSolutions(cells, 2, out).count;
      if (upToTwo !== (multiple ? 2 : 1) || !isValidSolution(cells, out)) wrong++;
    }
    expect(wrong).toBe(0);
    expect(puzzles.length).toBeGreaterThan(90);
  });
});
