// The board's fixed geometry as flat typed tables, built once at load: every technique walks
// units and peers through these instead of computing row/column/box arithmetic in its loops.
// Cells are 0-80 row-major; units 0-8 are rows, 9-17 columns, 18-26 boxes; a digit d (1-9) is
// bit d-1 of a 9-bit candidate mask.

export const ROW = new Uint8Array(81);
export const COL = new Uint8Array(81);
export const BOX = new Uint8Array(81);
/** UNIT_CELLS[u * 9 + k]: the k-th cell of unit u (rows and columns in order, boxes row by row). */
export const UNIT_CELLS = new Uint8Array(27 * 9);
/** PEERS[c * 20 + k]: the 20 other cells sharing a row, column or box with c. */
export const PEERS = new Uint8Array(81 * 20);
/** POPCOUNT[m]: how many digits the 9-bit mask m holds. */
export const POPCOUNT = new Uint8Array(512);
/** DIGIT[m]: the digit of a one-bit mask (0 for any other mask). */
export const DIGIT = new Uint8Array(512);

for (let c = 0; c < 81; c++) {
  ROW[c] = (c / 9) | 0;
  COL[c] = c % 9;
  BOX[c] = ((ROW[c]! / 3) | 0) * 3 + ((COL[c]! / 3) | 0);
}
for (let i = 0; i < 9; i++) {
  for (let k = 0; k < 9; k++) {
    UNIT_CELLS[i * 9 + k] = i * 9 + k;
    UNIT_CELLS[(9 + i) * 9 + k] = k * 9 + i;
    UNIT_CELLS[(18 + i) * 9 + k] = (((i / 3) | 0) * 3 + ((k / 3) | 0)) * 9 + (i % 3) * 3 + (k % 3);
  }
}
for (let c = 0; c < 81; c++) {
  let k = 0;
  for (let o = 0; o < 81; o++) {
    if (o !== c && (ROW[o] === ROW[c] || COL[o] === COL[c] || BOX[o] === BOX[c])) PEERS[c * 20 + k++] = o;
  }
}
for (let m = 1; m < 512; m++) POPCOUNT[m] = POPCOUNT[m >> 1]! + (m & 1);
for (let d = 1; d <= 9; d++) DIGIT[1 << (d - 1)] = d;

/** Whether two different cells share a unit. */
export function sees(a: number, b: number): boolean {
  return a !== b && (ROW[a] === ROW[b] || COL[a] === COL[b] || BOX[a] === BOX[b]);
}

/** The digits of a mask, ascending. */
export function digitsOf(mask: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= 9; d++) if (mask & (1 << (d - 1))) out.push(d);
  return out;
}

/** A unit as a person names it: "row 3", "column 5", "box 7" (1-based, boxes row by row). */
export function unitName(u: number): string {
  return u < 9 ? `row ${u + 1}` : u < 18 ? `column ${u - 8}` : `box ${u - 17}`;
}

/** A cell as a person names it. */
export function cellName(c: number): string {
  return `row ${ROW[c]! + 1}, column ${COL[c]! + 1}`;
}

/** The compact rNcN notation the chain sentences use, where a full name per link would not read. */
export function rc(c: number): string {
  return `r${ROW[c]! + 1}c${COL[c]! + 1}`;
}

/** A list read as English: "a", "a and b", "a, b and c". */
export function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
