// Locked candidates, at the 54 meetings of a line (row or column) and a box: three shared
// cells, six more cells of the line, six more of the box. When a digit of the box is only in
// the shared cells (pointing) the rest of the line loses it; when a digit of the line is only
// there (claiming) the rest of the box does.
import { BOX, cellName, COL, DIGIT, ROW, UNIT_CELLS, unitName } from './geometry.js';
import type { Grid } from './grid.js';
import { eliminationsOf, type Step } from './step.js';

const SHARED = new Uint8Array(54 * 3);
const LINE_REST = new Uint8Array(54 * 6);
const BOX_REST = new Uint8Array(54 * 6);
const LINE = new Uint8Array(54);
const BOX_OF = new Uint8Array(54);

{
  let i = 0;
  for (let line = 0; line < 18; line++) {
    for (let j = 0; j < 3; j++, i++) {
      const cells = Array.from(UNIT_CELLS.subarray(line * 9, line * 9 + 9));
      const b = BOX[cells[j * 3]!]!;
      const box = Array.from(UNIT_CELLS.subarray((18 + b) * 9, (18 + b) * 9 + 9));
      const inLine = (c: number) => (line < 9 ? ROW[c] === line : COL[c] === line - 9);
      SHARED.set(
        cells.filter((c) => BOX[c] === b),
        i * 3,
      );
      LINE_REST.set(
        cells.filter((c) => BOX[c] !== b),
        i * 6,
      );
      BOX_REST.set(
        box.filter((c) => !inLine(c)),
        i * 6,
      );
      LINE[i] = line;
      BOX_OF[i] = b;
    }
  }
}

function or(g: Grid, table: Uint8Array, from: number, n: number): number {
  let m = 0;
  for (let k = 0; k < n; k++) m |= g.cand[table[from + k]!]!;
  return m;
}

function find(g: Grid, pointing: boolean): Step | null {
  for (let i = 0; i < 54; i++) {
    const shared = or(g, SHARED, i * 3, 3);
    if (shared === 0) continue;
    const lineRest = or(g, LINE_REST, i * 6, 6);
    const boxRest = or(g, BOX_REST, i * 6, 6);
    const hits = pointing ? shared & ~boxRest & lineRest : shared & ~lineRest & boxRest;
    if (hits === 0) continue;
    const d = DIGIT[hits & -hits]!;
    const bit = 1 << (d - 1);
    const targets = Array.from((pointing ? LINE_REST : BOX_REST).subarray(i * 6, i * 6 + 6));
    const cells = Array.from(SHARED.subarray(i * 3, i * 3 + 3)).filter((c) => g.cand[c]! & bit);
    const box = unitName(18 + BOX_OF[i]!);
    const line = unitName(LINE[i]!);
    const where = cells.map(cellName).join(' and ');
    return {
      technique: pointing ? 'pointing' : 'claiming',
      score: pointing ? 2.6 : 2.8,
      cells,
      eliminations: eliminationsOf(g, targets, d),
      placement: -1,
      message: pointing
        ? `Pointing: in ${box}, ${d} can only go in ${line} (${where}), so ${d} is removed from the rest of ${line}.`
        : `Claiming: in ${line}, ${d} can only go in ${box} (${where}), so ${d} is removed from the rest of ${box}.`,
    };
  }
  return null;
}

export const findPointing = (g: Grid): Step | null => find(g, true);
export const findClaiming = (g: Grid): Step | null => find(g, false);
