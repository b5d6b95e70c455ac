// Wings: short chains through cells with two or three candidates, each ending in a digit z
// that one of two cells must hold, so any cell seeing both (all three for XYZ) loses z.
// XY-wing: pivot {x,y}, pincers {x,z} and {y,z}. XYZ-wing: pivot {x,y,z}, pincers {x,z}, {y,z}.
// W-wing: two {x,y} cells that do not see each other, joined by a unit where x has only two
// places, one seeing each cell: one of the cells is y.
import { cellName, DIGIT, PEERS, POPCOUNT, sees, unitName } from './geometry.js';
import { type Changes, EVERYTHING } from './changes.js';
import { candidate, type Grid } from './grid.js';
import { computePlaces, place, placeCount } from './places.js';
import { explaining, type Step } from './step.js';

/** Cells other than `skip` holding `bit` that see every cell of `anchors`, as eliminations. */
function commonTargets(g: Grid, anchors: number[], bit: number, digit: number): number[] {
  const out: number[] = [];
  const first = anchors[0]!;
  for (let k = 0; k < 20; k++) {
    const c = PEERS[first * 20 + k]!;
    if (!(g.cand[c]! & bit) || anchors.includes(c)) continue;
    if (anchors.every((a) => a === first || sees(a, c))) out.push(candidate(c, digit));
  }
  return out;
}

const pair = (m: number): string => {
  const low = m & -m;
  return `${DIGIT[low]}/${DIGIT[m & ~low]}`;
};

export function findXYWing(g: Grid, changes: Readonly<Changes> = EVERYTHING): Step | null {
  const cand = g.cand;
  const changed = changes.cells;
  for (let p = 0; p < 81; p++) {
    const pm = cand[p]!;
    if (POPCOUNT[pm] !== 2) continue;
    for (let i = 0; i < 20; i++) {
      const a = PEERS[p * 20 + i]!;
      const am = cand[a]!;
      if (POPCOUNT[am] !== 2 || POPCOUNT[am & pm] !== 1) continue;
      const z = am & ~pm;
      const want = (pm & ~am) | z;
      for (let j = i + 1; j < 20; j++) {
        const b = PEERS[p * 20 + j]!;
        if (cand[b] !== want) continue;
        // Three cells that kept their candidates: their targets can only have lost z since.
        if (!(changed[p]! | changed[a]! | changed[b]!)) continue;
        const zd = DIGIT[z]!;
        const eliminations = commonTargets(g, [a, b], z, zd);
        if (eliminations.length === 0) continue;
        return {
          technique: 'xy-wing',
          score: 4.2,
          cells: [p, a, b],
          eliminations,
          placement: -1,
          message: !explaining.on
            ? ''
            : `XY-wing: ${cellName(p)} is ${pair(pm)}; whichever it is, ${cellName(a)} (${pair(am)}) or ${cellName(b)} (${pair(want)}) must be ${zd}, so ${zd} is removed from every cell that sees both.`,
        };
      }
    }
  }
  return null;
}

export function findXYZWing(g: Grid, changes: Readonly<Changes> = EVERYTHING): Step | null {
  const cand = g.cand;
  const changed = changes.cells;
  for (let p = 0; p < 81; p++) {
    const pm = cand[p]!;
    if (POPCOUNT[pm] !== 3) continue;
    for (let i = 0; i < 20; i++) {
      const a = PEERS[p * 20 + i]!;
      const am = cand[a]!;
      if (POPCOUNT[am] !== 2 || (am & ~pm) !== 0) continue;
      for (let j = i + 1; j < 20; j++) {
        const b = PEERS[p * 20 + j]!;
        const bm = cand[b]!;
        if (POPCOUNT[bm] !== 2 || (bm & ~pm) !== 0 || bm === am) continue;
        if (!(changed[p]! | changed[a]! | changed[b]!)) continue;
        const z = am & bm;
        const zd = DIGIT[z]!;
        const eliminations = commonTargets(g, [p, a, b], z, zd);
        if (eliminations.length === 0) continue;
        return {
          technique: 'xyz-wing',
          score: 4.4,
          cells: [p, a, b],
          eliminations,
          placement: -1,
          message: !explaining.on
            ? ''
            : `XYZ-wing: one of ${cellName(p)} (${tripleText(pm)}), ${cellName(a)} (${pair(am)}) and ${cellName(b)} (${pair(bm)}) must be ${zd}, so ${zd} is removed from every cell that sees all three.`,
        };
      }
    }
  }
  return null;
}

function tripleText(m: number): string {
  const ds: number[] = [];
  for (let d = 1; d <= 9; d++) if (m & (1 << (d - 1))) ds.push(d);
  return ds.join('/');
}

/** Whether some cell other than a and b holds bit and sees both. */
function hasCommon(g: Grid, a: number, b: number, bit: number): boolean {
  for (let k = 0; k < 20; k++) {
    const c = PEERS[a * 20 + k]!;
    if (c !== b && g.cand[c]! & bit && sees(c, b)) return true;
  }
  return false;
}

export function findWWing(g: Grid, changes: Readonly<Changes> = EVERYTHING): Step | null {
  const cand = g.cand;
  const changed = changes.cells;
  let placesReady = false;
  for (let a = 0; a < 81; a++) {
    const m = cand[a]!;
    if (POPCOUNT[m] !== 2) continue;
    for (let b = a + 1; b < 81; b++) {
      if (cand[b] !== m || sees(a, b)) continue;
      for (let side = 0; side < 2; side++) {
        const x = side === 0 ? m & -m : m & ~(m & -m);
        const y = m & ~x;
        // The pair read as it was, and x's places (the links) unchanged: still no W-wing.
        if (!(changed[a]! | changed[b]!) && !(changes.digits & x)) continue;
        if (!hasCommon(g, a, b, y)) continue;
        if (!placesReady) {
          computePlaces(g);
          placesReady = true;
        }
        const x0 = DIGIT[x]! - 1;
        for (let u = 0; u < 27; u++) {
          if (placeCount(u, x0) !== 2) continue;
          const p = place(u, x0, 0);
          const q = place(u, x0, 1);
          if (p === a || p === b || q === a || q === b) continue;
          const linked = (sees(p, a) && sees(q, b)) || (sees(p, b) && sees(q, a));
          if (!linked) continue;
          const xd = x0 + 1;
          const yd = DIGIT[y]!;
          return {
            technique: 'w-wing',
            score: 4.4,
            cells: [a, b, p, q],
            eliminations: commonTargets(g, [a, b], y, yd),
            placement: -1,
            message: !explaining.on
              ? ''
              : `W-wing: ${cellName(a)} and ${cellName(b)} are both ${pair(m)}; in ${unitName(u)} ${xd} must be at ${cellName(p)} or ${cellName(q)}, which stops one of the two being ${xd}, so one is ${yd}, and ${yd} is removed from every cell that sees both.`,
          };
        }
      }
    }
  }
  return null;
}
