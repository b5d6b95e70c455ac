/** Cells by index 0-80, row-major; and boards as the API reads them. */
export const rowOf = (i: number) => Math.floor(i / 9);
export const colOf = (i: number) => i % 9;
const boxOf = (i: number) => Math.floor(rowOf(i) / 3) * 3 + Math.floor(colOf(i) / 3);
export const peers = (a: number, b: number) => rowOf(a) === rowOf(b) || colOf(a) === colOf(b) || boxOf(a) === boxOf(b);
export const place = (i: number) => `row ${rowOf(i) + 1}, column ${colOf(i) + 1}`;

/** Parse one board as the API does: digits, '.' and '0'; whitespace and | - + skipped; anything else is a (bad) cell. */
export function parseBoard(s: string): string[] {
  const out: string[] = [];
  for (const ch of s) {
    if (/[\s|+\-\u00a0\ufeff]/.test(ch)) continue;
    out.push(ch === '.' || ch === '0' ? '' : ch);
  }
  return out;
}

/** Lines of puzzles when the text holds more than one board a line (a drawn grid has short lines). */
export function puzzleLines(s: string): string[] | null {
  const lines = s.split('\n');
  const long = lines.filter((line) => parseBoard(line).length >= 20).length;
  return long >= 2 ? lines : null;
}
