// Where each digit can go in each unit, as a 9-bit mask of the unit's positions (0-8, in the
// order of UNIT_CELLS). Fish read rows' and columns' masks directly, hidden subsets a unit's
// nine, and conjugate pairs (two places) are the strong links of coloring, W-wings and chains.
// At a stall every technique is tried in turn on the same grid, so the table is built once per
// grid state (Grid.version) and shared.
import { POPCOUNT, UNIT_CELLS } from './geometry.js';
import type { Grid } from './grid.js';

/** positions[u * 9 + d - 1]: the positions in unit u where digit d is a candidate. */
export const positions = new Uint16Array(27 * 9);

let builtFor: Grid | null = null;
let builtVersion = -1;

export function computePlaces(g: Grid): void {
  if (builtFor === g && builtVersion === g.version) return;
  builtFor = g;
  builtVersion = g.version;
  const cand = g.cand;
  positions.fill(0);
  for (let u = 0; u < 27; u++) {
    const base = u * 9;
    for (let k = 0; k < 9; k++) {
      for (let m = cand[UNIT_CELLS[base + k]!]!; m; m &= m - 1) positions[base + 31 - Math.clz32(m & -m)]! |= 1 << k;
    }
  }
}

/** The units of a cell: its row, column and box. */
export const unitsOf = (c: number, i: number): number => {
  const r = (c / 9) | 0;
  const col = c % 9;
  return i === 0 ? r : i === 1 ? 9 + col : 18 + ((r / 3) | 0) * 3 + ((col / 3) | 0);
};

/** Places digit index d0 has in unit u. */
export const placeCount = (u: number, d0: number): number => POPCOUNT[positions[u * 9 + d0]!]!;

/** The other place of digit index d0 in unit u when it has exactly two and one is c, else -1. */
export function conjugate(u: number, d0: number, c: number): number {
  const m = positions[u * 9 + d0]!;
  if (POPCOUNT[m] !== 2) return -1;
  const a = UNIT_CELLS[u * 9 + 31 - Math.clz32(m & -m)]!;
  const b = UNIT_CELLS[u * 9 + 31 - Math.clz32(m)]!;
  return a === c ? b : a;
}

/** The two places of a digit with exactly two in a unit: first (0) or second (1). */
export function place(u: number, d0: number, which: number): number {
  const m = positions[u * 9 + d0]!;
  return UNIT_CELLS[u * 9 + (which === 0 ? 31 - Math.clz32(m & -m) : 31 - Math.clz32(m))]!;
}
