// Grading in the file path is opt-in: with it the levels the core gives each unique row, fast
// path or not, a .csv's two columns and a .jsonl row's grade; a .txt's output is the same.
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileTally, levelHistogram, solvePuzzleStream } from '../../functions/formats/index.js';
import type { FileFormat } from '../../functions/formats/index.js';
import { gradePuzzle, LEVELS } from '../../functions/sudoku/logic/index.js';
import { DUPLICATE, EASY, HARD, MULTIPLE, NO_SOLUTION, toChars } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';

async function run(text: string, format: FileFormat, grade: boolean) {
  const parts: Buffer[] = [];
  const output = new Writable({
    write(chunk, _encoding, done) {
      parts.push(Buffer.from(chunk));
      done();
    },
  });
  const tally = new FileTally();
  await solvePuzzleStream({ input: Readable.from([Buffer.from(text)]), output, format, tally, grade });
  return { text: Buffer.concat(parts).toString('utf8'), tally };
}

const set = readPuzzleSet('puzzles2_17_clue').slice(0, 100);
const expected = levelHistogram(
  LEVELS.map((level) =>
    [...set, EASY, HARD].filter((p) => {
      const g = gradePuzzle(p);
      return g.ok && g.grade.level === level;
    }),
  ).map((l) => l.length),
);

describe('grading files', () => {
  it('.txt and .jsonl: the core levels counted; .txt the same output, .jsonl each unique row with its grade', async () => {
    const txt = `${[...set, `${EASY.slice(0, 9)}|${EASY.slice(9)}`, HARD, DUPLICATE, MULTIPLE, NO_SOLUTION, ''].join('\n')}\n`;
    const boards = [...set, EASY, HARD, MULTIPLE, DUPLICATE];
    const jsonl = `${boards.map((p, i) => JSON.stringify(i % 2 ? { board: toChars(p) } : p)).join('\n')}\n`;
    for (const [text, format] of [
      [txt, 'txt'],
      [jsonl, 'jsonl'],
    ] as const) {
      const plain = await run(text, format, false);
      const graded = await run(text, format, true);
      expect(graded.tally.counts).toEqual(plain.tally.counts);
      expect(levelHistogram(plain.tally.levels)).toEqual(levelHistogram([]));
      expect(levelHistogram(graded.tally.levels), format).toEqual(expected);
      if (format === 'txt') expect(graded.text).toBe(plain.text);
      else {
        const rows = (answer: string) =>
          answer
            .split('\n')
            .slice(0, -1)
            .map((l) => JSON.parse(l));
        const plainRows = rows(plain.text);
        const gradedRows = rows(graded.text);
        boards.forEach((board, i) => {
          const core = gradePuzzle(board);
          expect(gradedRows[i]).toEqual(core.ok ? { ...plainRows[i], grade: core.grade } : plainRows[i]);
        });
      }
    }
  });

  it('.csv gains level and score only when graded; .json counts levels', async () => {
    const csv = `puzzle\n${EASY}\n`;
    expect((await run(csv, 'csv', false)).text).toBe(
      `puzzle,solution,status,error\n${(await run(csv, 'csv', false)).text.split('\n')[1]}\n`,
    );
    expect((await run(csv, 'csv', true)).text.split('\n')[0]).toBe('puzzle,solution,status,error,level,score');
    const json = await run(JSON.stringify([...set, EASY, HARD]), 'json', true);
    expect(levelHistogram(json.tally.levels)).toEqual(expected);
  });
});
