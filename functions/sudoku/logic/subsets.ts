// Naked and hidden subsets (pairs, triples, quads) inside one unit. Naked: n cells whose
// candidates together are n digits own those digits, so the unit's other cells lose them.
// Hidden: n digits that together fit in only n cells own those cells, so the cells lose every
// other digit. Combinations are enumerated over masks (at most C(9,4) = 126 per unit).
import { cellName, digitsOf, joinAnd, POPCOUNT, UNIT_CELLS, unitName } from './geometry.js';
import { candidate, type Grid } from './grid.js';
import type { Step, TechniqueName } from './step.js';

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

/**
 * Visit every n-subset of `items` (each a mask over the unit's 9 positions or digits), calling
 * `found` with the indices chosen; stops at the first call returning a step.
 */
function subsets(
  items: Uint16Array,
  count: number,
  n: number,
  found: (chosen: number[], union: number) => Step | null,
): Step | null {
  const chosen: number[] = [];
  const walk = (start: number, union: number): Step | null => {
    if (POPCOUNT[union]! > n) return null;
    if (chosen.length === n) return POPCOUNT[union] === n ? found(chosen, union) : null;
    for (let i = start; i <= count - (n - chosen.length); i++) {
      chosen.push(i);
      const step = walk(i + 1, union | items[i]!);
      chosen.pop();
      if (step) return step;
    }
    return null;
  };
  return walk(0, 0);
}

const masks = new Uint16Array(9);
const ids = new Uint8Array(9);

export function findNakedSubset(g: Grid, n: number): Step | null {
  const [technique, score] = NAKED[n]!;
  for (let u = 0; u < 27; u++) {
    const unit = UNIT_CELLS.subarray(u * 9, u * 9 + 9);
    let empty = 0;
    let count = 0;
    for (const c of unit) {
      const m = g.cand[c]!;
      if (m === 0) continue;
      empty++;
      if (POPCOUNT[m]! <= n) {
        masks[count] = m;
        ids[count++] = c;
      }
    }
    if (empty <= n || count < n) continue;
    const step = subsets(masks, count, n, (chosen, digits) => {
      const cells = chosen.map((i) => ids[i]!);
      const eliminations: number[] = [];
      for (const c of unit) {
        if (cells.includes(c)) continue;
        for (const d of digitsOf(g.cand[c]! & digits)) eliminations.push(candidate(c, d));
      }
      if (eliminations.length === 0) return null;
      const ds = joinAnd(digitsOf(digits).map(String));
      return {
        technique,
        score,
        cells,
        eliminations,
        placement: -1,
        message: `Naked ${NAMES[n]}: in ${unitName(u)}, ${joinAnd(cells.map(cellName))} hold only ${ds} between them, so ${ds} are removed from the other cells of ${unitName(u)}.`,
      };
    });
    if (step) return step;
  }
  return null;
}

export function findHiddenSubset(g: Grid, n: number): Step | null {
  const [technique, score] = HIDDEN[n]!;
  for (let u = 0; u < 27; u++) {
    const unit = UNIT_CELLS.subarray(u * 9, u * 9 + 9);
    // where[d-1]: the positions (0-8 within the unit) where d still fits
    const where = new Uint16Array(9);
    let open = 0;
    for (let k = 0; k < 9; k++) {
      const m = g.cand[unit[k]!]!;
      for (let d = 0; d < 9; d++) if (m & (1 << d)) where[d]! |= 1 << k;
    }
    let count = 0;
    for (let d = 0; d < 9; d++) {
      const p = POPCOUNT[where[d]!]!;
      if (p > 0) open++;
      if (p >= 2 && p <= n) {
        masks[count] = where[d]!;
        ids[count++] = d + 1;
      }
    }
    if (open <= n || count < n) continue;
    const step = subsets(masks, count, n, (chosen, positions) => {
      const digits = chosen.map((i) => ids[i]!);
      let keep = 0;
      for (const d of digits) keep |= 1 << (d - 1);
      const cells: number[] = [];
      const eliminations: number[] = [];
      for (let k = 0; k < 9; k++) {
        if (!(positions & (1 << k))) continue;
        const c = unit[k]!;
        cells.push(c);
        for (const d of digitsOf(g.cand[c]! & ~keep)) eliminations.push(candidate(c, d));
      }
      if (eliminations.length === 0) return null;
      return {
        technique,
        score,
        cells,
        eliminations,
        placement: -1,
        message: `Hidden ${NAMES[n]}: in ${unitName(u)}, ${joinAnd(digits.map(String))} fit only in ${joinAnd(cells.map(cellName))}, so those cells can hold no other digit.`,
      };
    });
    if (step) return step;
  }
  return null;
}
