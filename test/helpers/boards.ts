/** Boards the HTTP tests send, in each accepted shape. */
export const EASY = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
export const EASY_SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
/** Hard for a search; one solution. */
export const HARD = '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..';
export const HARD_SOLUTION = '812753649943682175675491283154237896369845721287169534521974368438526917796318452';
/** Two 5s in row 1 (and box 1). */
export const DUPLICATE = '55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
/** No rule broken by the givens, yet no solution: cell (1,9) has no candidate left. */
export const NO_SOLUTION = `12345678.${'.'.repeat(8)}9${'.'.repeat(63)}`;
/** No rule broken by the givens, yet no solution, and only a search finds out. */
export const NO_SOLUTION_DEEP = '.....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........';
/** The empty board: very many solutions. */
export const MULTIPLE = '.................................................................................';

/** An 81-character board as the core's cells ('.' and '0' empty), for the tests that call the logic directly. */
export function cellsOf(board: string): Uint8Array {
  return Uint8Array.from(board, (ch) => (ch === '.' ? 0 : Number(ch)));
}

export function toChars(board: string): string[][] {
  return Array.from({ length: 9 }, (_, r) => [...board.slice(r * 9, r * 9 + 9)]);
}

export function toNumbers(board: string): number[][] {
  return toChars(board).map((row) => row.map((c) => (c === '.' ? 0 : Number(c))));
}

/** The same board drawn as people paste it: rows on lines, boxes fenced with | - +. */
export function toDrawing(board: string): string {
  const lines: string[] = [];
  for (let r = 0; r < 9; r++) {
    if (r % 3 === 0 && r) lines.push('------+-------+------');
    const row = board.slice(r * 9, r * 9 + 9);
    lines.push([row.slice(0, 3), row.slice(3, 6), row.slice(6, 9)].map((s) => [...s].join(' ')).join(' | '));
  }
  return lines.join('\n');
}
