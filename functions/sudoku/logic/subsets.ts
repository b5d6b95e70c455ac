// Naked and hidden subsets (pairs, triples, quads) inside one unit. Naked: n cells whose
// candidates together are n digits own those digits, so the unit's other cells lose them.
// Hidden: n digits that together fit in only n cells own those cells, so the cells lose every
// other digit. The scan is allocation-free; a step object is built only for a find.
import { findCombo } from './combos.js';
import { computePlaces, positions } from './places.js';
import { cellName, digitsOf, joinAnd, POPCOUNT, UNIT_CELLS, unitName } from './geometry.js';
import { type Changes, EVERYTHING } from './changes.js';
import { candidate, type Grid } from './grid.js';
import type { TechniqueName } from './names.js';
import { explaining, type Step } from './step.js';

const NAMES = ['', '', 'pair', 'triple', 'quad'] as const;
const NAKED: Record<number, [TechniqueName, number]> = {
  2: ['naked-pair', 3.0],
  3: ['naked-triple', 3.6],
  4: ['naked-quad', 5.0],
};
const HIDDEN: Record<number, [TechniqueName, number]> = {
  2: ['hidden-pair', 3.4],
  3: ['hidden-triple', 4.0],
  4: ['hidden-quad', 5.4],
};

const masks = new Uint16Array(9);
/** For naked subsets the unit position of masks[i]; for hidden ones its digit - 1. */
const ids = new Uint8Array(9);
// The unit under test, for the combination tests (module state instead of closures).
const unitCand = new Uint16Array(9);

function nakedTest(digits: number, chosen: number): boolean {
  let positions = 0;
  for (let i = 0; i < 9; i++) if (chosen & (1 << i)) positions |= 1 << ids[i]!;
  let others = 0;
  for (let k = 0; k < 9; k++) if (!(positions & (1 << k))) others |= unitCand[k]!;
  return (others & digits) !== 0;
}

function hiddenTest(positions: number, chosen: number): boolean {
  let keep = 0;
  for (let i = 0; i < 9; i++) if (chosen & (1 << i)) keep |= 1 << ids[i]!;
  let held = 0;
  for (let k = 0; k < 9; k++) if (positions & (1 << k)) held |= unitCand[k]!;
  return (held & ~keep) !== 0;
}

export function findNakedSubset(g: Grid, n: number, changes: Readonly<Changes> = EVERYTHING): Step | null {
  for (let u = 0; u < 27; u++) {
    // A subset lies in one unit and eliminates inside it: an unchanged unit still has none.
    if (!(changes.units & (1 << u))) continue;
    let empty = 0;
    let count = 0;
    for (let k = 0; k < 9; k++) {
      const m = g.cand[UNIT_CELLS[u * 9 + k]!]!;
      unitCand[k] = m;
      if (m === 0) continue;
      empty++;
      if (POPCOUNT[m]! <= n) {
        masks[count] = m;
        ids[count++] = k;
      }
    }
    if (empty <= n || count < n) continue;
    const chosen = findCombo(masks, count, n, nakedTest);
    if (chosen) return nakedStep(g, u, n, chosen);
  }
  return null;
}

function nakedStep(g: Grid, u: number, n: number, chosen: number): Step {
  const [technique, score] = NAKED[n]!;
  const cells: number[] = [];
  let digits = 0;
  for (let i = 0; i < 9; i++) {
    if (!(chosen & (1 << i))) continue;
    const c = UNIT_CELLS[u * 9 + ids[i]!]!;
    cells.push(c);
    digits |= g.cand[c]!;
  }
  const eliminations: number[] = [];
  for (let k = 0; k < 9; k++) {
    const c = UNIT_CELLS[u * 9 + k]!;
    if (cells.includes(c)) continue;
    for (const d of digitsOf(g.cand[c]! & digits)) eliminations.push(candidate(c, d));
  }
  const ds = joinAnd(digitsOf(digits).map(String));
  return {
    technique,
    score,
    cells,
    eliminations,
    placement: -1,
    message: !explaining.on
      ? ''
      : `Naked ${NAMES[n]}: in ${unitName(u)}, ${joinAnd(cells.map(cellName))} hold only ${ds} between them, so ${ds} are removed from the other cells of ${unitName(u)}.`,
  };
}

export function findHiddenSubset(g: Grid, n: number, changes: Readonly<Changes> = EVERYTHING): Step | null {
  computePlaces(g);
  for (let u = 0; u < 27; u++) {
    if (!(changes.units & (1 << u))) continue;
    let open = 0;
    let count = 0;
    for (let d = 0; d < 9; d++) {
      const m = positions[u * 9 + d]!;
      const p = POPCOUNT[m]!;
      if (p > 0) open++;
      if (p >= 2 && p <= n) {
        masks[count] = m;
        ids[count++] = d;
      }
    }
    if (open <= n || count < n) continue;
    for (let k = 0; k < 9; k++) unitCand[k] = g.cand[UNIT_CELLS[u * 9 + k]!]!;
    const chosen = findCombo(masks, count, n, hiddenTest);
    if (chosen) return hiddenStep(g, u, n, chosen);
  }
  return null;
}

function hiddenStep(g: Grid, u: number, n: number, chosen: number): Step {
  const [technique, score] = HIDDEN[n]!;
  const digits: number[] = [];
  let keep = 0;
  let positions = 0;
  for (let i = 0; i < 9; i++) {
    if (!(chosen & (1 << i))) continue;
    digits.push(ids[i]! + 1);
    keep |= 1 << ids[i]!;
    positions |= masks[i]!;
  }
  const cells: number[] = [];
  const eliminations: number[] = [];
  for (let k = 0; k < 9; k++) {
    if (!(positions & (1 << k))) continue;
    const c = UNIT_CELLS[u * 9 + k]!;
    cells.push(c);
    for (const d of digitsOf(g.cand[c]! & ~keep)) eliminations.push(candidate(c, d));
  }
  return {
    technique,
    score,
    cells,
    eliminations,
    placement: -1,
    message: !explaining.on
      ? ''
      : `Hidden ${NAMES[n]}: in ${unitName(u)}, ${joinAnd(digits.map(String))} fit only in ${joinAnd(cells.map(cellName))}, so those cells can hold no other digit.`,
  };
}
