// Naked and hidden singles: the only techniques most of a puzzle's cells ever need, so they
// come twice. settleSingles is the grader's hot loop (no allocation, whole units scanned with
// three mask operations); findSingle is the same rule for one placement, with its sentence.
// Order follows Sudoku Explainer's ratings: hidden single in a box (1.2), in a row or column
// (1.5), then naked single (2.3), so a grade credits the easiest single that was available.
import { cellName, DIGIT, POPCOUNT, UNIT_CELLS, unitName } from './geometry.js';
import { candidate, type Grid } from './grid.js';
import type { Step } from './step.js';

export const HIDDEN_SINGLE_BOX = 1.2;
export const HIDDEN_SINGLE_LINE = 1.5;
export const NAKED_SINGLE = 2.3;

/** Counts settleSingles adds to: [hidden in a box, hidden in a row or column, naked]. */
export type SinglesTally = Int32Array;

/** Place every hidden single of units [from, to); returns how many were placed. */
function hiddenSingles(g: Grid, from: number, to: number): number {
  const cand = g.cand;
  let placed = 0;
  for (let u = from; u < to; u++) {
    // A unit that lost no candidate since its last scan, which placed nothing, has no hidden
    // single: skipping it changes nothing. The set is read live, as a scan of every unit would
    // see the placements made earlier in the pass.
    if (!(g.unscanned & (1 << u))) continue;
    g.unscanned &= ~(1 << u);
    const base = u * 9;
    let once = 0;
    let twice = 0;
    for (let k = 0; k < 9; k++) {
      const m = cand[UNIT_CELLS[base + k]!]!;
      twice |= once & m;
      once |= m;
    }
    let lone = once & ~twice;
    if (lone === 0) continue;
    for (let k = 0; k < 9 && lone; k++) {
      const c = UNIT_CELLS[base + k]!;
      const hit = cand[c]! & lone;
      if (hit === 0) continue;
      lone &= ~hit;
      // Two lone digits in one cell is a contradiction, which a unique puzzle never reaches.
      if (POPCOUNT[hit] !== 1) return -1;
      g.place(c, DIGIT[hit]!);
      placed++;
    }
  }
  return placed;
}

function nakedSingles(g: Grid): number {
  const cand = g.cand;
  let placed = 0;
  for (let c = 0; c < 81; c++) {
    const m = cand[c]!;
    if (m !== 0 && (m & (m - 1)) === 0) {
      g.place(c, DIGIT[m]!);
      placed++;
    }
  }
  return placed;
}

/**
 * Place singles until none is left, easiest kind first. Returns false on a contradiction
 * (possible only after a wrong guess).
 */
export function settleSingles(g: Grid, tally: SinglesTally): boolean {
  // A technique's eliminations may have made hidden singles anywhere.
  g.unscanned = 0x7ffffff;
  while (g.empty > 0) {
    let n = hiddenSingles(g, 18, 27);
    if (n < 0) return false;
    if (n > 0) {
      tally[0]! += n;
      continue;
    }
    n = hiddenSingles(g, 0, 18);
    if (n < 0) return false;
    if (n > 0) {
      tally[1]! += n;
      continue;
    }
    n = nakedSingles(g);
    if (n === 0) break;
    tally[2]! += n;
  }
  return !g.broken();
}

function hiddenSingleIn(g: Grid, from: number, to: number, score: number): Step | null {
  for (let u = from; u < to; u++) {
    const base = u * 9;
    let once = 0;
    let twice = 0;
    for (let k = 0; k < 9; k++) {
      const m = g.cand[UNIT_CELLS[base + k]!]!;
      twice |= once & m;
      once |= m;
    }
    const lone = once & ~twice;
    if (lone === 0) continue;
    const bit = lone & -lone;
    const d = DIGIT[bit]!;
    for (let k = 0; k < 9; k++) {
      const c = UNIT_CELLS[base + k]!;
      if (g.cand[c]! & bit) {
        const cells: number[] = [];
        for (let j = 0; j < 9; j++) cells.push(UNIT_CELLS[base + j]!);
        return {
          technique: 'hidden-single',
          score,
          cells,
          eliminations: [],
          placement: candidate(c, d),
          message: `Hidden single: in ${unitName(u)}, ${d} fits only at ${cellName(c)}.`,
        };
      }
    }
  }
  return null;
}

/** The easiest single on the board, or null when there is none. */
export function findSingle(g: Grid): Step | null {
  const step = hiddenSingleIn(g, 18, 27, HIDDEN_SINGLE_BOX) ?? hiddenSingleIn(g, 0, 18, HIDDEN_SINGLE_LINE);
  if (step) return step;
  for (let c = 0; c < 81; c++) {
    const d = g.single(c);
    if (d === 0) continue;
    return {
      technique: 'naked-single',
      score: NAKED_SINGLE,
      cells: [c],
      eliminations: [],
      placement: candidate(c, d),
      message: `Naked single: ${cellName(c)} can only be ${d}; every other digit is already in its row, column or box.`,
    };
  }
  return null;
}
