// Simple coloring on one digit: cells joined by conjugate pairs (a unit where the digit has
// exactly two places) alternate between true and false, so each connected cluster splits in
// two colors, one of which holds the digit everywhere. Color wrap: two cells of one color see
// each other, so that color is false. Color trap: a cell outside seeing both colors is false.
import { cellName, PEERS, sees } from './geometry.js';
import { type Changes, EVERYTHING } from './changes.js';
import { candidate, type Grid } from './grid.js';
import { computePlaces, conjugate, unitsOf } from './places.js';
import { explaining, type Step } from './step.js';

export const SIMPLE_COLORING = 6.5;

const color = new Int8Array(81);
const queue = new Uint8Array(81);
/** Which cluster (its start + 1) a cell was coloured in, so membership is one read. */
const clusterOf = new Uint8Array(81);

export function findSimpleColoring(g: Grid, changes: Readonly<Changes> = EVERYTHING): Step | null {
  computePlaces(g);
  for (let d = 1; d <= 9; d++) {
    const bit = 1 << (d - 1);
    // Clusters and their eliminations are all of one digit's plane.
    if (!(changes.digits & bit)) continue;
    color.fill(-1);
    clusterOf.fill(0);
    for (let start = 0; start < 81; start++) {
      if (!(g.cand[start]! & bit) || color[start] !== -1) continue;
      // Colour one cluster breadth-first; colours are 0/1 here, and the cluster's cells are
      // queue[0..size).
      let size = 0;
      queue[size++] = start;
      color[start] = 0;
      clusterOf[start] = start + 1;
      for (let head = 0; head < size; head++) {
        const c = queue[head]!;
        for (let i = 0; i < 3; i++) {
          const o = conjugate(unitsOf(c, i), d - 1, c);
          if (o < 0 || color[o] !== -1) continue;
          color[o] = 1 - color[c]!;
          clusterOf[o] = start + 1;
          queue[size++] = o;
        }
      }
      if (size < 3 || !hasFinding(g, bit, size)) continue;
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
              message: !explaining.on
                ? ''
                : `Simple coloring on ${d}: following the units where ${d} has only two places, the cells ${same.map(cellName).join('; ')} are either all ${d} or none is; two of them (${cellName(same[i]!)} and ${cellName(same[j]!)}) see each other, so none is ${d}.`,
            };
          }
        }
      }
      const eliminations: number[] = [];
      let witness = -1;
      for (let c = 0; c < 81; c++) {
        if (!(g.cand[c]! & bit) || clusterOf[c] === start + 1) continue;
        let seen = 0;
        for (let k = 0; k < 20; k++) {
          const p = PEERS[c * 20 + k]!;
          if (clusterOf[p] === start + 1) seen |= 1 << color[p]!;
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
          message: !explaining.on
            ? ''
            : `Simple coloring on ${d}: following the units where ${d} has only two places, either ${names(0).map(cellName).join('; ')} are ${d}, or ${names(1).map(cellName).join('; ')} are; ${eliminations.length === 1 ? cellName(witness) : 'some cells'} see${eliminations.length === 1 ? 's' : ''} both groups, so cannot be ${d}.`,
        };
      }
    }
  }
  return null;
}

// Cells as three 27-bit words (one per band), so "the cells that see a colour" is the OR of
// its members' peer sets and the pre-check is a handful of word operations per cluster.
const PEER_BITS = new Int32Array(81 * 3);
for (let c = 0; c < 81; c++) {
  for (let k = 0; k < 20; k++) {
    const p = PEERS[c * 20 + k]!;
    PEER_BITS[c * 3 + ((p / 27) | 0)]! |= 1 << (p % 27);
  }
}
/** [colour 0 cells, colour 1 cells, seen by colour 0, seen by colour 1, cells with the digit] x 3 words. */
const bits = new Int32Array(15);

/** Whether this cluster has a wrap (a colour seeing itself) or a trap (a cell seeing both colours). */
function hasFinding(g: Grid, bit: number, size: number): boolean {
  bits.fill(0);
  for (let i = 0; i < size; i++) {
    const a = queue[i]!;
    const side = color[a]!;
    bits[side * 3 + ((a / 27) | 0)]! |= 1 << (a % 27);
    const seen = (2 + side) * 3;
    bits[seen]! |= PEER_BITS[a * 3]!;
    bits[seen + 1]! |= PEER_BITS[a * 3 + 1]!;
    bits[seen + 2]! |= PEER_BITS[a * 3 + 2]!;
  }
  for (let c = 0; c < 81; c++) if (g.cand[c]! & bit) bits[12 + ((c / 27) | 0)]! |= 1 << (c % 27);
  for (let w = 0; w < 3; w++) {
    if (bits[w]! & bits[6 + w]! || bits[3 + w]! & bits[9 + w]!) return true;
    if (bits[12 + w]! & bits[6 + w]! & bits[9 + w]! & ~(bits[w]! | bits[3 + w]!)) return true;
  }
  return false;
}
