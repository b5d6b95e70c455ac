// Locked candidates, at the 54 meetings of a line (row or column) and a box: three shared
// cells, six more cells of the line, six more of the box. When a digit of the box is only in
// the shared cells (pointing) the rest of the line loses it; when a digit of the line is only
// there (claiming) the rest of the box does. The 54 three-cell segments are ORed once per call
// and every meeting is then three mask operations: this runs at nearly every stall.
import { cellName, DIGIT, UNIT_CELLS, unitName } from './geometry.js';
import { type Changes, EVERYTHING } from './changes.js';
import { candidate, type Grid } from './grid.js';
import { explaining, eliminationsOf, type Step } from './step.js';

/** seg[line * 3 + j]: the candidates of line's j-th three cells (lines 0-8 rows, 9-17 columns). */
const seg = new Uint16Array(54);

function segments(g: Grid): void {
  const cand = g.cand;
  for (let s = 0; s < 54; s++) {
    const base = s * 3;
    seg[s] = cand[UNIT_CELLS[base]!]! | cand[UNIT_CELLS[base + 1]!]! | cand[UNIT_CELLS[base + 2]!]!;
  }
}

function find(g: Grid, pointing: boolean, changes: Readonly<Changes>): Step | null {
  segments(g);
  for (let line = 0; line < 18; line++) {
    const s0 = seg[line * 3]!;
    const s1 = seg[line * 3 + 1]!;
    const s2 = seg[line * 3 + 2]!;
    for (let j = 0; j < 3; j++) {
      const shared = j === 0 ? s0 : j === 1 ? s1 : s2;
      if (shared === 0) continue;
      // A meeting reads its line and its box only: unchanged, it still removes nothing.
      const box = line < 9 ? ((line / 3) | 0) * 3 + j : j * 3 + (((line - 9) / 3) | 0);
      if (!(changes.units & ((1 << line) | (1 << (18 + box))))) continue;
      const lineRest = (j === 0 ? 0 : s0) | (j === 1 ? 0 : s1) | (j === 2 ? 0 : s2);
      // The box's other two segments along the same direction: lines of the same band or stack.
      const first = line < 9 ? ((line / 3) | 0) * 3 : 9 + (((line - 9) / 3) | 0) * 3;
      let boxRest = 0;
      for (let l = first; l < first + 3; l++) if (l !== line) boxRest |= seg[l * 3 + j]!;
      const hits = pointing ? shared & ~boxRest & lineRest : shared & ~lineRest & boxRest;
      if (hits) return describe(g, pointing, line, j, DIGIT[hits & -hits]!);
    }
  }
  return null;
}

/** The cells of the other unit outside the shared segment that hold d, as eliminations. */
function eliminations(g: Grid, pointing: boolean, line: number, j: number, box: number, d: number): number[] {
  const bit = 1 << (d - 1);
  const out: number[] = [];
  const unit = pointing ? line : 18 + box;
  for (let k = 0; k < 9; k++) {
    const c = UNIT_CELLS[unit * 9 + k]!;
    if (!(g.cand[c]! & bit)) continue;
    const inShared = pointing ? ((k / 3) | 0) === j : line < 9 ? ((c / 9) | 0) === line : c % 9 === line - 9;
    if (!inShared) out.push(candidate(c, d));
  }
  return out;
}

function describe(g: Grid, pointing: boolean, line: number, j: number, d: number): Step {
  const bit = 1 << (d - 1);
  const box = line < 9 ? ((line / 3) | 0) * 3 + j : j * 3 + (((line - 9) / 3) | 0);
  if (!explaining.on) {
    return {
      technique: pointing ? 'pointing' : 'claiming',
      score: pointing ? 2.6 : 2.8,
      cells: [],
      eliminations: eliminations(g, pointing, line, j, box, d),
      placement: -1,
      message: '',
    };
  }
  const lineCells = Array.from(UNIT_CELLS.subarray(line * 9, line * 9 + 9));
  const shared = lineCells.slice(j * 3, j * 3 + 3);
  const boxCells = Array.from(UNIT_CELLS.subarray((18 + box) * 9, (18 + box) * 9 + 9));
  const targets = pointing
    ? lineCells.filter((c) => !shared.includes(c))
    : boxCells.filter((c) => !shared.includes(c) && !lineCells.includes(c));
  const cells = shared.filter((c) => g.cand[c]! & bit);
  const boxName = unitName(18 + box);
  const lineName = unitName(line);
  const where = cells.map(cellName).join(' and ');
  return {
    technique: pointing ? 'pointing' : 'claiming',
    score: pointing ? 2.6 : 2.8,
    cells,
    eliminations: eliminationsOf(g, targets, d),
    placement: -1,
    message: !explaining.on
      ? ''
      : pointing
        ? `Pointing: in ${boxName}, ${d} can only go in ${lineName} (${where}), so ${d} is removed from the rest of ${lineName}.`
        : `Claiming: in ${lineName}, ${d} can only go in ${boxName} (${where}), so ${d} is removed from the rest of ${boxName}.`,
  };
}

export const findPointing = (g: Grid, changes: Readonly<Changes> = EVERYTHING): Step | null => find(g, true, changes);
export const findClaiming = (g: Grid, changes: Readonly<Changes> = EVERYTHING): Step | null => find(g, false, changes);
