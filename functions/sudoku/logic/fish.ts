// Basic fish (X-wing, swordfish, jellyfish) on one digit: n rows whose places for the digit
// fall in only n columns between them take the digit in those columns, so the columns' other
// rows lose it (and the same with rows and columns swapped). Finned fish are not included.
import { joinAnd, UNIT_CELLS } from './geometry.js';
import { candidate, type Grid } from './grid.js';
import type { Step, TechniqueName } from './step.js';

const FISH: Record<number, [TechniqueName, string, number]> = {
  2: ['x-wing', 'X-wing', 3.2],
  3: ['swordfish', 'Swordfish', 3.8],
  4: ['jellyfish', 'Jellyfish', 5.2],
};

const where = new Uint16Array(9);
const lines = new Uint8Array(9);

export function findFish(g: Grid, n: number): Step | null {
  const [technique, title, score] = FISH[n]!;
  for (let d = 1; d <= 9; d++) {
    const bit = 1 << (d - 1);
    for (let byColumn = 0; byColumn < 2; byColumn++) {
      const base = byColumn ? 9 : 0;
      const cover = byColumn ? 0 : 9;
      let count = 0;
      for (let i = 0; i < 9; i++) {
        let m = 0;
        for (let k = 0; k < 9; k++) if (g.cand[UNIT_CELLS[(base + i) * 9 + k]!]! & bit) m |= 1 << k;
        const p = popcount(m);
        if (p >= 2 && p <= n) {
          where[count] = m;
          lines[count++] = i;
        }
      }
      if (count < n) continue;
      const chosen: number[] = [];
      const walk = (start: number, union: number): Step | null => {
        if (popcount(union) > n) return null;
        if (chosen.length === n) {
          if (popcount(union) !== n) return null;
          const baseLines = chosen.map((j) => lines[j]!);
          const eliminations: number[] = [];
          const cells: number[] = [];
          for (let k = 0; k < 9; k++) {
            if (!(union & (1 << k))) continue;
            for (let i = 0; i < 9; i++) {
              const c = UNIT_CELLS[(cover + k) * 9 + i]!;
              if (!(g.cand[c]! & bit)) continue;
              if (baseLines.includes(i)) cells.push(c);
              else eliminations.push(candidate(c, d));
            }
          }
          if (eliminations.length === 0) return null;
          const [baseWord, coverWord] = byColumn ? ['columns', 'rows'] : ['rows', 'columns'];
          const coverLines: number[] = [];
          for (let k = 0; k < 9; k++) if (union & (1 << k)) coverLines.push(k + 1);
          return {
            technique,
            score,
            cells: cells.sort((a, b) => a - b),
            eliminations,
            placement: -1,
            message: `${title}: in ${baseWord} ${joinAnd(baseLines.map((i) => String(i + 1)))}, ${d} fits only in ${coverWord} ${joinAnd(coverLines.map(String))}, so ${d} is removed from the other cells of those ${coverWord}.`,
          };
        }
        for (let j = start; j <= count - (n - chosen.length); j++) {
          chosen.push(j);
          const step = walk(j + 1, union | where[j]!);
          chosen.pop();
          if (step) return step;
        }
        return null;
      };
      const step = walk(0, 0);
      if (step) return step;
    }
  }
  return null;
}

function popcount(m: number): number {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}
