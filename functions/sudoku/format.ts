import type { BoardOutput, BoardShape, Cells } from './types.js';

const DIGITS = '0123456789';
const CODE_0 = 48;
const CODE_DOT = 46;

/** Character codes of the board being formatted: one String.fromCharCode call beats 81 concatenations 3-7x. */
const codes: number[] = new Array<number>(81).fill(CODE_DOT);

/** 81 characters, '.' for empty cells (digits only once solved). */
export function formatBoardString(cells: Cells): string {
  for (let i = 0; i < 81; i++) {
    const d = cells[i]!;
    codes[i] = d ? CODE_0 + d : CODE_DOT;
  }
  return String.fromCharCode.apply(null, codes);
}

/** The board in the shape the caller sent it. */
export function formatBoard(cells: Cells, shape: BoardShape): BoardOutput {
  if (shape === 'string') return formatBoardString(cells);
  const rows: (string[] | number[])[] = [];
  for (let r = 0; r < 9; r++) {
    const row = Array.from(cells.subarray(r * 9, r * 9 + 9));
    rows.push(shape === 'numbers' ? row : row.map((d) => (d ? DIGITS[d]! : '.')));
  }
  return rows as BoardOutput;
}
