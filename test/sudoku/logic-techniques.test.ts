// Each technique on a puzzle where the logical solve needs it (named by set and line, read from
// the shared sets), and on a hand-made candidate grid for the two the sets' samples never reach.
// Every step of every solve here is checked against the unique solution.
import { describe, expect, it } from 'vitest';
import { countSolutions } from '../../functions/sudoku/index.js';
import { findFish } from '../../functions/sudoku/logic/fish.js';
import { Grid } from '../../functions/sudoku/logic/grid.js';
import { stepAgrees } from '../../functions/sudoku/logic/hint.js';
import { runLogic } from '../../functions/sudoku/logic/run.js';
import type { TechniqueName } from '../../functions/sudoku/logic/names.js';
import { explaining, type Step } from '../../functions/sudoku/logic/step.js';
import { findHiddenSubset } from '../../functions/sudoku/logic/subsets.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { cellsOf } from '../helpers/boards.js';

function solutionOf(givens: Uint8Array): Uint8Array {
  const out = new Uint8Array(81);
  expect(countSolutions(givens, 2, out).count).toBe(1);
  countSolutions(givens, 1, out);
  return out;
}

/** Solve logically, checking every step; returns the steps and the final grid. */
function solveChecked(puzzle: string): { steps: Step[]; grid: Grid; solution: Uint8Array } {
  const givens = cellsOf(puzzle);
  const solution = solutionOf(givens);
  const grid = new Grid();
  expect(grid.load(givens)).toBe(true);
  const steps: Step[] = [];
  explaining.on = true;
  try {
    runLogic(grid, solution, 'extreme', (s) => steps.push(s));
  } finally {
    explaining.on = false;
  }
  for (const s of steps) expect(stepAgrees(s, solution), s.message).toBe(true);
  return { steps, grid, solution };
}

const WHERE: [TechniqueName, string, number][] = [
  ['pointing', 'puzzles2_17_clue', 0],
  ['claiming', 'puzzles2_17_clue', 0],
  ['naked-pair', 'puzzles2_17_clue', 0],
  ['hidden-pair', 'puzzles2_17_clue', 23],
  ['naked-triple', 'puzzles2_17_clue', 731],
  ['hidden-triple', 'puzzles2_17_clue', 724],
  ['x-wing', 'puzzles2_17_clue', 374],
  ['swordfish', 'puzzles2_17_clue', 1709],
  ['xy-wing', 'puzzles2_17_clue', 60],
  ['xyz-wing', 'puzzles2_17_clue', 336],
  ['w-wing', 'puzzles2_17_clue', 23],
  ['naked-quad', 'puzzles3_magictour_top1465', 155],
  ['simple-coloring', 'puzzles2_17_clue', 184],
  ['x-chain', 'puzzles2_17_clue', 342],
  ['aic', 'puzzles2_17_clue', 21],
];

describe('each technique, where a puzzle needs it', () => {
  it.each(WHERE)('%s removes only candidates the solution does not hold (%s line %i)', (technique, set, line) => {
    const { steps, grid, solution } = solveChecked(readPuzzleSet(set)[line]!);
    const used = steps.filter((s) => s.technique === technique);
    expect(used.length).toBeGreaterThan(0);
    for (const s of used) {
      expect(s.eliminations.length).toBeGreaterThan(0);
      expect(s.cells.length).toBeGreaterThan(0);
      expect(s.message.length).toBeGreaterThan(20);
    }
    expect([...grid.cells]).toEqual([...solution]);
  });
});

/** A grid of bare candidates (not a real puzzle) to test one pattern's recognition. */
function candidateGrid(fill: (cand: Uint16Array) => void): Grid {
  const g = new Grid();
  g.cand.fill(0);
  fill(g.cand);
  g.empty = 81;
  return g;
}

describe('patterns on hand-made candidates', () => {
  it('a jellyfish: 1 in four rows only in four columns leaves those columns elsewhere', () => {
    const g = candidateGrid((cand) => {
      cand.fill(0b110);
      for (const r of [0, 2, 4, 6]) for (const c of [0, 2, 4, 6]) cand[r * 9 + c] = 0b111;
      cand[8 * 9 + 4] = 0b111; // row 9 column 5 holds 1 as well: the one to remove
      cand[8 * 9 + 7] = 0b111;
    });
    const step = findFish(g, 4);
    expect(step?.technique).toBe('jellyfish');
    expect(step?.eliminations).toEqual([(8 * 9 + 4) * 9]);
  });

  it('a hidden quad: four digits fitting only in four cells of a row take those cells', () => {
    const g = candidateGrid((cand) => {
      for (let c = 0; c < 9; c++) cand[c] = c < 4 ? 0b1_1111_1111 : 0b1_1111_0000;
    });
    const step = findHiddenSubset(g, 4);
    expect(step?.technique).toBe('hidden-quad');
    expect(step?.cells).toEqual([0, 1, 2, 3]);
    // every digit 5-9 goes from each of the four cells
    expect(step?.eliminations.length).toBe(4 * 5);
  });
});

describe('the logical solve on samples of the shared sets', () => {
  it.each([
    ['puzzles2_17_clue', 400],
    ['puzzles3_magictour_top1465', 60],
    ['puzzles5_forum_hardest_1905_11+', 20],
  ])('every step in %s (first %i) agrees with the solution, and it ends on the solution', (set, count) => {
    for (const p of readPuzzleSet(set).slice(0, count)) {
      const { grid, solution } = solveChecked(p);
      expect([...grid.cells]).toEqual([...solution]);
    }
  });
});
