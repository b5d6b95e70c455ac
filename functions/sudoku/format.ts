import type { BoardOutput, BoardShape, Cells } from './types.js';

const DIGITS = '0123456789';

/** 81 characters, '.' for empty cells (digits only once solved). */
export function formatBoardString(cells: Cells): string {
  let s = '';
  for (let i = 0; i < 81; i++) s += cells[i] ? DIGITS[cells[i]!] : '.';
  return s;
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
