// Files through the local S3 are graded: every report carries a histogram of levels, and a .csv
// output gains level and score columns, each the core's grade of its row.
import '../s3/quiet-logs.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleS3Event } from '../../functions/s3/index.js';
import { gradePuzzle, LEVELS } from '../../functions/sudoku/logic/index.js';
import { DUPLICATE, EASY, HARD, MULTIPLE } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { startTestS3 } from '../s3/local-s3.js';
import type { TestS3 } from '../s3/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

function coreHistogram(puzzles: readonly string[]): Record<string, number> {
  const histogram: Record<string, number> = Object.fromEntries(LEVELS.map((l) => [l, 0]));
  for (const p of puzzles) {
    const graded = gradePuzzle(p);
    if (graded.ok) histogram[graded.grade.level]!++;
  }
  return histogram;
}

async function process(key: string, body: string) {
  await s3.put(key, body);
  const [result] = await handleS3Event(await s3.eventFor(key), { client: s3.client });
  expect(result).toMatchObject({ status: 'processed' });
  return (result as { report: { levels: Record<string, number>; counts: { unique: number } } }).report;
}

describe('graded files', () => {
  it('a .txt report counts the levels of its unique rows, as the core grades them (fast and general rows)', async () => {
    const set = readPuzzleSet('puzzles2_17_clue').slice(0, 300);
    // Fast-path rows, a row with grid drawing (the general path), a bad row and a row with many solutions.
    const rows = [...set, `${EASY.slice(0, 40)} | ${EASY.slice(40)}`, DUPLICATE, MULTIPLE];
    const report = await process('incoming/graded.txt', `${rows.join('\n')}\n`);
    expect(report.levels).toEqual(coreHistogram([...set, EASY]));
    expect(Object.values(report.levels).reduce((a, b) => a + b, 0)).toBe(report.counts.unique);
    expect((await s3.report('incoming/graded.txt')).levels).toEqual(report.levels);
  });

  it('a .csv output gains level and score columns; a failed or non-unique row leaves them empty', async () => {
    const report = await process('incoming/sheet.csv', `id,quizzes\n1,${HARD}\n2,${DUPLICATE}\n3,${MULTIPLE}\n`);
    const lines = (await s3.text('solved/sheet.csv'))!.split('\n');
    expect(lines[0]).toBe('id,quizzes,solution,status,error,level,score');
    const hard = gradePuzzle(HARD);
    if (!hard.ok) throw new Error('HARD is a puzzle');
    expect(lines[1]!.endsWith(`,unique,,${hard.grade.level},${hard.grade.score}`)).toBe(true);
    expect(lines[2]).toMatch(/,contradictory,/);
    expect(lines[2]!.endsWith(',,')).toBe(true);
    expect(lines[3]).toMatch(/,multiple,,,$/);
    expect(report.levels).toEqual({ ...coreHistogram([]), [hard.grade.level]: 1 });
  });

  it('a .jsonl report carries the histogram too', async () => {
    const report = await process('incoming/boards.jsonl', `${JSON.stringify({ board: EASY })}\n"${HARD}"\n`);
    expect(report.levels).toEqual(coreHistogram([EASY, HARD]));
  });
});
