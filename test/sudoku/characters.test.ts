import { describe, expect, it } from 'vitest';
import { parseBoard } from '../../functions/sudoku/index.js';
import { EASY, toChars } from '../helpers/boards.js';

// Lengths and places are told in characters (code points): an emoji is one character and one
// cell, though JavaScript strings hold it as two UTF-16 units.
const EMOJI = '\u{1F600}';

function problemsOf(input: unknown) {
  const parsed = parseBoard(input);
  if (parsed.ok) throw new Error('expected problems');
  return parsed.problems;
}

describe('characters beyond U+FFFF (emoji)', () => {
  it('81 emoji are 81 cells: ten bad characters shown whole, and no WRONG_LENGTH', () => {
    const problems = problemsOf(EMOJI.repeat(81));
    expect(problems).toHaveLength(10);
    expect(problems.every((p) => p.code === 'BAD_CHARACTER' && p.message.includes(`is '${EMOJI}'`))).toBe(true);
    expect(problems.map((p) => [p.row, p.col])).toEqual(
      Array.from({ length: 10 }, (_, i) => [1 + Math.floor(i / 9), 1 + (i % 9)]),
    );
  });

  it('82 emoji are counted as 82 cells, however many were reported', () => {
    const length = problemsOf(EMOJI.repeat(82)).find((p) => p.code === 'WRONG_LENGTH');
    expect(length?.message).toMatch(/this one has 82\./);
  });

  it('places past the board are character positions in the text', () => {
    const problems = problemsOf(`${EASY}${EMOJI}${EMOJI}${EMOJI}x`);
    expect(
      problems.filter((p) => p.code === 'BAD_CHARACTER').map((p) => p.message.match(/^Character (\d+) /)?.[1]),
    ).toEqual(['82', '83', '84', '85']);
    expect(problems.at(-1)?.message).toMatch(/this one has 85\./);
  });

  it('an emoji in a 9x9 array of strings is one character, shown whole; a long string is cut between characters', () => {
    const grid = toChars(EASY);
    grid[0]![0] = EMOJI;
    grid[0]![1] = EMOJI.repeat(30);
    const problems = problemsOf(grid);
    expect(problems[0]?.message).toMatch(new RegExp(`^Cell at row 1, column 1 is '${EMOJI}';`));
    expect(problems[1]?.message).toContain(`the string ${JSON.stringify(EMOJI.repeat(20))}`);
  });
});
