// Files uploaded with the metadata grade=true are graded through the local S3: the report carries a
// histogram of levels, a .csv output gains level and score columns and a .jsonl or .json result a
// grade, each the core's grade of its row.
// Without it a file is solved only (grading costs 8-12x the solving).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRADE_METADATA } from '../../functions/contract/service-layout.js';
import { handleS3Event } from '../../functions/s3/index.js';
import { gradePuzzle, LEVELS } from '../../functions/sudoku/logic/index.js';
import { DUPLICATE, EASY, EASY_SOLUTION, HARD, MULTIPLE } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

function coreGrade(puzzle: string) {
  const graded = gradePuzzle(puzzle);
  if (!graded.ok) throw new Error(`${puzzle} has no grade`);
  return graded.grade;
}

function coreHistogram(puzzles: readonly string[]): Record<string, number> {
  const histogram: Record<string, number> = Object.fromEntries(LEVELS.map((l) => [l, 0]));
  for (const p of puzzles) {
    const graded = gradePuzzle(p);
    if (graded.ok) histogram[graded.grade.level]!++;
  }
  return histogram;
}

async function process(key: string, body: string, metadata: Record<string, string> = { [GRADE_METADATA]: 'true' }) {
  await s3.put(key, body, metadata);
  const [result] = await handleS3Event(await s3.eventFor(key), { client: s3.client });
  expect(result).toMatchObject({ status: 'processed' });
  return (result as { report: { levels: Record<string, number>; counts: { unique: number } } }).report;
}

describe('graded files', () => {
  it('are graded only on request: without the metadata, no levels in the report and no columns in a .csv', async () => {
    const report = await process('incoming/plain.csv', `puzzle\n${EASY}\n`, {});
    expect(report.levels).toBeUndefined();
    expect(await s3.text('solved/plain.csv')).toBe(`puzzle,solution,status,error\n${EASY},${EASY_SOLUTION},unique,\n`);
  });

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

  it('a .jsonl report carries the histogram too, and each unique row of the output its grade', async () => {
    const rows = [JSON.stringify({ board: EASY }), `"${HARD}"`, `"${MULTIPLE}"`, `"${DUPLICATE}"`];
    const report = await process('incoming/boards.jsonl', `${rows.join('\n')}\n`);
    expect(report.levels).toEqual(coreHistogram([EASY, HARD]));
    const out = (await s3.text('solved/boards.jsonl'))!
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l));
    expect(out[0]).toEqual({ status: 'unique', solution: EASY_SOLUTION, grade: coreGrade(EASY) });
    expect(out[1]).toMatchObject({ status: 'unique', grade: coreGrade(HARD) });
    expect(out[2]).toEqual({ status: 'multiple', solution: expect.any(String) });
    expect(out[3]).toMatchObject({ status: 'contradictory' });
    expect(out[3].grade).toBeUndefined();
  });

  it("a .json output carries each unique board's grade; without the metadata, none", async () => {
    await process('incoming/boards.json', JSON.stringify({ boards: [HARD, DUPLICATE] }));
    const graded = JSON.parse((await s3.text('solved/boards.json'))!) as { results: Record<string, unknown>[] };
    expect(graded.results[0]).toMatchObject({ status: 'unique', grade: coreGrade(HARD) });
    expect(graded.results[1]).toMatchObject({ status: 'contradictory' });
    await process('incoming/plain.json', JSON.stringify([HARD]), {});
    const plain = JSON.parse((await s3.text('solved/plain.json'))!) as Record<string, unknown>[];
    expect(plain[0]).toEqual({ status: 'unique', solution: expect.any(String) });
  });
});
