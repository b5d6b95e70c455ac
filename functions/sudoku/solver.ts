// PLACEHOLDER: replaced by the bitboard solver.
import type { Cells } from './types.js';

let guesses = 0;
export function lastGuessCount(): number {
  return guesses;
}

export function countSolutions(cells: Cells, limit: number, out: Uint8Array): number {
  guesses = 0;
  const g = Uint8Array.from(cells);
  const row = new Uint16Array(9), col = new Uint16Array(9), box = new Uint16Array(9);
  for (let i = 0; i < 81; i++) {
    const d = g[i]!;
    if (!d) continue;
    const b = 1 << d, r = (i / 9) | 0, c = i % 9, x = ((r / 3) | 0) * 3 + ((c / 3) | 0);
    if ((row[r]! | col[c]! | box[x]!) & b) return 0;
    row[r]! |= b; col[c]! |= b; box[x]! |= b;
  }
  let count = 0;
  const rec = (): boolean => {
    let best = -1, bestMask = 0, bestN = 10;
    for (let i = 0; i < 81; i++) {
      if (g[i]) continue;
      const r = (i / 9) | 0, c = i % 9, x = ((r / 3) | 0) * 3 + ((c / 3) | 0);
      const m = ~(row[r]! | col[c]! | box[x]!) & 0x3fe;
      let n = 0; for (let t = m; t; t &= t - 1) n++;
      if (n < bestN) { bestN = n; best = i; bestMask = m; if (n <= 1) break; }
    }
    if (best < 0) { if (count === 0) out.set(g); count++; return count >= limit; }
    if (bestN === 0) return false;
    if (bestN > 1) guesses += bestN - 1;
    const r = (best / 9) | 0, c = best % 9, x = ((r / 3) | 0) * 3 + ((c / 3) | 0);
    for (let d = 1; d <= 9; d++) {
      const b = 1 << d;
      if (!(bestMask & b)) continue;
      g[best] = d; row[r]! |= b; col[c]! |= b; box[x]! |= b;
      const stop = rec();
      g[best] = 0; row[r]! &= ~b; col[c]! &= ~b; box[x]! &= ~b;
      if (stop) return true;
    }
    return false;
  };
  rec();
  return count;
}
