// Simple coloring on one digit: cells joined by conjugate pairs (a unit where the digit has
// exactly two places) alternate between true and false, so each connected cluster splits in
// two colors, one of which holds the digit everywhere. Color wrap: two cells of one color see
// each other, so that color is false. Color trap: a cell outside seeing both colors is false.
import { cellName, PEERS, sees, UNIT_CELLS } from './geometry.js';
import { candidate, type Grid } from './grid.js';
import type { Step } from './step.js';

export const SIMPLE_COLORING = 6.5;

const color = new Int8Array(81);
const queue = new Uint8Array(81);

/** Conjugate partners of cell c for digit bit: one per unit where bit has exactly two places. */
export function conjugates(g: Grid, c: number, bit: number, out: number[]): void {
  out.length = 0;
  const units = [(c / 9) | 0, 9 + (c % 9), 18 + ((((c / 9) | 0) / 3) | 0) * 3 + (((c % 9) / 3) | 0)];
  for (const u of units) {
    let other = -1;
    let n = 0;
    for (let k = 0; k < 9; k++) {
      const o = UNIT_CELLS[u * 9 + k]!;
      if (g.cand[o]! & bit) {
        n++;
        if (o !== c) other = o;
      }
    }
    if (n === 2 && !out.includes(other)) out.push(other);
  }
}

export function findSimpleColoring(g: Grid): Step | null {
  const partners: number[] = [];
  for (let d = 1; d <= 9; d++) {
    const bit = 1 << (d - 1);
    color.fill(-1);
    for (let start = 0; start < 81; start++) {
      if (!(g.cand[start]! & bit) || color[start] !== -1) continue;
      // Colour one cluster breadth-first; colours are 0/1 here, and the cluster's cells are
      // queue[0..size).
      let size = 0;
      queue[size++] = start;
      color[start] = 0;
      for (let head = 0; head < size; head++) {
        const c = queue[head]!;
        conjugates(g, c, bit, partners);
        for (const o of partners) {
          if (color[o] !== -1) continue;
          color[o] = 1 - color[c]!;
          queue[size++] = o;
        }
      }
      if (size < 3) continue;
      const cluster = Array.from(queue.subarray(0, size));
      const names = (side: number) => cluster.filter((c) => color[c] === side);
      for (let side = 0; side < 2; side++) {
        const same = names(side);
        for (let i = 0; i < same.length; i++) {
          for (let j = i + 1; j < same.length; j++) {
            if (!sees(same[i]!, same[j]!)) continue;
            return {
              technique: 'simple-coloring',
              score: SIMPLE_COLORING,
              cells: cluster,
              eliminations: same.map((c) => candidate(c, d)),
              placement: -1,
              message: `Simple coloring on ${d}: following the units where ${d} has only two places, the cells ${same.map(cellName).join('; ')} are either all ${d} or none is; two of them (${cellName(same[i]!)} and ${cellName(same[j]!)}) see each other, so none is ${d}.`,
            };
          }
        }
      }
      const eliminations: number[] = [];
      let witness = -1;
      for (let c = 0; c < 81; c++) {
        if (!(g.cand[c]! & bit) || cluster.includes(c)) continue;
        let seen = 0;
        for (let k = 0; k < 20; k++) {
          const p = PEERS[c * 20 + k]!;
          if (cluster.includes(p)) seen |= 1 << color[p]!;
        }
        if (seen === 3) {
          eliminations.push(candidate(c, d));
          witness = c;
        }
      }
      if (eliminations.length) {
        return {
          technique: 'simple-coloring',
          score: SIMPLE_COLORING,
          cells: cluster,
          eliminations,
          placement: -1,
          message: `Simple coloring on ${d}: following the units where ${d} has only two places, either ${names(0).map(cellName).join('; ')} are ${d}, or ${names(1).map(cellName).join('; ')} are; ${eliminations.length === 1 ? cellName(witness) : 'some cells'} see${eliminations.length === 1 ? 's' : ''} both groups, so cannot be ${d}.`,
        };
      }
    }
  }
  return null;
}
