// Where each digit can go in each unit: how many places, and the first two. Conjugate pairs
// (a digit with exactly two places in a unit) are the strong links coloring, W-wings and chains
// are built from; one pass over the grid gives all 243 at once.
import { UNIT_CELLS } from './geometry.js';
import type { Grid } from './grid.js';

/** placeCount[u * 9 + d - 1]: places digit d has in unit u. */
export const placeCount = new Uint8Array(27 * 9);
/** The first and second of those places (meaningful when the count reaches them). */
export const placeA = new Uint8Array(27 * 9);
export const placeB = new Uint8Array(27 * 9);

export function computePlaces(g: Grid): void {
  const cand = g.cand;
  placeCount.fill(0);
  for (let u = 0; u < 27; u++) {
    for (let k = 0; k < 9; k++) {
      const c = UNIT_CELLS[u * 9 + k]!;
      for (let m = cand[c]!; m; m &= m - 1) {
        const slot = u * 9 + 31 - Math.clz32(m & -m);
        const n = placeCount[slot]!++;
        if (n === 0) placeA[slot] = c;
        else if (n === 1) placeB[slot] = c;
      }
    }
  }
}

/** The units of a cell: its row, column and box. */
export const unitsOf = (c: number, i: number): number => {
  const r = (c / 9) | 0;
  const col = c % 9;
  return i === 0 ? r : i === 1 ? 9 + col : 18 + ((r / 3) | 0) * 3 + ((col / 3) | 0);
};

/** The other place of digit index d0 in unit u when it has exactly two and one is c, else -1. */
export function conjugate(u: number, d0: number, c: number): number {
  const slot = u * 9 + d0;
  if (placeCount[slot] !== 2) return -1;
  return placeA[slot] === c ? placeB[slot]! : placeA[slot]!;
}
