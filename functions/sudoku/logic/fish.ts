// Basic fish (X-wing, swordfish, jellyfish) on one digit: n rows whose places for the digit
// fall in only n columns between them take the digit in those columns, so the columns' other
// rows lose it (and the same with rows and columns swapped). Finned fish are not included.
import { findCombo } from './combos.js';
import { computePlaces, positions } from './places.js';
import { joinAnd, UNIT_CELLS } from './geometry.js';
import { type Changes, EVERYTHING } from './changes.js';
import { candidate, type Grid } from './grid.js';
import type { TechniqueName } from './names.js';
import { explaining, type Step } from './step.js';

const FISH: Record<number, [TechniqueName, string, number]> = {
  2: ['x-wing', 'X-wing', 3.2],
  3: ['swordfish', 'Swordfish', 3.8],
  4: ['jellyfish', 'Jellyfish', 5.2],
};

const where = new Uint16Array(9);
const lines = new Uint8Array(9);
/** lineMask[i]: for the current digit and orientation, the positions of the digit in line i. */
const lineMask = new Uint16Array(9);

function popcount(m: number): number {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

/** Eliminations exist when a line outside the chosen ones has the digit in a cover position. */
function fishTest(cover: number, chosen: number): boolean {
  let base = 0;
  for (let i = 0; i < 9; i++) if (chosen & (1 << i)) base |= 1 << lines[i]!;
  for (let i = 0; i < 9; i++) if (!(base & (1 << i)) && lineMask[i]! & cover) return true;
  return false;
}

export function findFish(g: Grid, n: number, changes: Readonly<Changes> = EVERYTHING): Step | null {
  computePlaces(g);
  for (let d = 1; d <= 9; d++) {
    // A fish reads one digit's places: where they did not change, it still finds nothing.
    if (!(changes.digits & (1 << (d - 1)))) continue;
    for (let byColumn = 0; byColumn < 2; byColumn++) {
      const base = byColumn ? 9 : 0;
      let count = 0;
      for (let i = 0; i < 9; i++) {
        const m = positions[(base + i) * 9 + d - 1]!;
        lineMask[i] = m;
        const p = popcount(m);
        if (p >= 2 && p <= n) {
          where[count] = m;
          lines[count++] = i;
        }
      }
      if (count < n) continue;
      const chosen = findCombo(where, count, n, fishTest);
      if (chosen) return fishStep(g, n, d, byColumn === 1, chosen);
    }
  }
  return null;
}

function fishStep(g: Grid, n: number, d: number, byColumn: boolean, chosen: number): Step {
  const [technique, title, score] = FISH[n]!;
  const bit = 1 << (d - 1);
  const cover = byColumn ? 0 : 9;
  const baseLines: number[] = [];
  let union = 0;
  for (let i = 0; i < 9; i++) {
    if (!(chosen & (1 << i))) continue;
    baseLines.push(lines[i]!);
    union |= where[i]!;
  }
  const cells: number[] = [];
  const eliminations: number[] = [];
  const coverLines: number[] = [];
  for (let k = 0; k < 9; k++) {
    if (!(union & (1 << k))) continue;
    coverLines.push(k + 1);
    for (let i = 0; i < 9; i++) {
      const c = UNIT_CELLS[(cover + k) * 9 + i]!;
      if (!(g.cand[c]! & bit)) continue;
      if (baseLines.includes(i)) cells.push(c);
      else eliminations.push(candidate(c, d));
    }
  }
  const [baseWord, coverWord] = byColumn ? ['columns', 'rows'] : ['rows', 'columns'];
  return {
    technique,
    score,
    cells: cells.sort((a, b) => a - b),
    eliminations,
    placement: -1,
    message: !explaining.on
      ? ''
      : `${title}: in ${baseWord} ${joinAnd(baseLines.map((i) => String(i + 1)))}, ${d} fits only in ${coverWord} ${joinAnd(coverLines.map(String))}, so ${d} is removed from the other cells of those ${coverWord}.`,
  };
}
