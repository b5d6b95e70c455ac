import { describe, expect, it } from 'vitest';
import { formatBoard, formatBoardString, parseBoard } from '../../functions/sudoku/index.js';

const PUZZLE = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';

function cellsOf(input: unknown): number[] {
  const parsed = parseBoard(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return Array.from(parsed.board.cells);
}

describe('parseBoard', () => {
  it('reads an 81-character string with . for empty cells', () => {
    const cells = cellsOf(PUZZLE);
    expect(cells.slice(0, 9)).toEqual([5, 3, 0, 0, 7, 0, 0, 0, 0]);
    expect(cells.filter((c) => c > 0)).toHaveLength(30);
  });

  it('treats 0 and . alike as empty cells', () => {
    expect(cellsOf(PUZZLE.replace(/\./g, '0'))).toEqual(cellsOf(PUZZLE));
  });

  it('ignores whitespace and the grid-drawing characters | - +', () => {
    const rows = PUZZLE.match(/.{9}/g)!;
    const drawn = rows
      .map((r) => `| ${r.slice(0, 3)} | ${r.slice(3, 6)} | ${r.slice(6)} |`)
      .join('\n+-----+-----+-----+\r\n');
    expect(cellsOf(drawn)).toEqual(cellsOf(PUZZLE));
  });

  it('reads a 9x9 array of one-character strings (LeetCode 37 shape) and reports the shape', () => {
    const grid = PUZZLE.match(/.{9}/g)!.map((r) => r.split(''));
    const parsed = parseBoard(grid);
    expect(parsed.ok && parsed.board.shape).toBe('chars');
    expect(cellsOf(grid)).toEqual(cellsOf(PUZZLE));
  });

  it('reads a 9x9 array of numbers with 0 for empty cells', () => {
    const grid = PUZZLE.match(/.{9}/g)!.map((r) => r.split('').map((c) => (c === '.' ? 0 : Number(c))));
    const parsed = parseBoard(grid);
    expect(parsed.ok && parsed.board.shape).toBe('numbers');
    expect(cellsOf(grid)).toEqual(cellsOf(PUZZLE));
  });

  it('formats a board back in each shape it was sent in', () => {
    const parsed = parseBoard(PUZZLE);
    if (!parsed.ok) throw new Error('unparsable');
    const { cells } = parsed.board;
    expect(formatBoard(cells, 'string')).toBe(PUZZLE);
    expect(formatBoardString(cells)).toBe(PUZZLE);
    expect((formatBoard(cells, 'chars') as string[][])[0]).toEqual(['5', '3', '.', '.', '7', '.', '.', '.', '.']);
    expect((formatBoard(cells, 'numbers') as number[][])[8]).toEqual([0, 0, 0, 0, 8, 0, 0, 7, 9]);
  });
});
