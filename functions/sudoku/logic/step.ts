// What every technique reports when it finds something: the same record drives the grade (its
// technique and difficulty), the hint (its cells and sentence) and the tests (its eliminations
// are checked against the solution).
import { candidate, candidateCell, candidateDigit, type Grid, UNIT_BITS } from './grid.js';
import type { TechniqueName } from './names.js';

export interface Step {
  technique: TechniqueName;
  /** Difficulty on the Sudoku Explainer-like scale (docs/grading.md); chains add for length. */
  score: number;
  /** The cells the pattern is made of (what a person should look at). */
  cells: number[];
  /** Candidates removed, as candidate(cell, digit) numbers. */
  eliminations: number[];
  /** A single's placement as candidate(cell, digit), or -1 for an elimination step. */
  placement: number;
  message: string;
}

/**
 * Whether steps carry their sentence. Off while grading and generating, where thousands of
 * steps are found and none is read: building the sentences cost as much as finding the steps.
 */
export const explaining = { on: false };

/** Remove a step's eliminations (or make its placement) on the grid. */
export function applyStep(g: Grid, step: Step): void {
  if (step.placement >= 0) {
    g.place(candidateCell(step.placement), candidateDigit(step.placement));
    return;
  }
  // Only the units of cells that lost a candidate can hold a new hidden single (settleSingles).
  let units = g.unscanned;
  for (const k of step.eliminations) {
    const c = candidateCell(k);
    g.cand[c]! &= ~(1 << (candidateDigit(k) - 1));
    units |= UNIT_BITS[c]!;
  }
  g.unscanned = units;
  g.version++;
}

/** Every candidate `bit` held by the cells in `targets`, as elimination numbers. */
export function eliminationsOf(g: Grid, targets: Iterable<number>, digit: number): number[] {
  const out: number[] = [];
  const bit = 1 << (digit - 1);
  for (const c of targets) if (g.cand[c]! & bit) out.push(candidate(c, digit));
  return out;
}
