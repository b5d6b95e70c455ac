import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleS3Event } from '../../functions/s3/index.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';
import { startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const HARD = readPuzzleSet('puzzles2_17_clue').slice(100, 150);
const toNumbers = (s: string) =>
  Array.from({ length: 9 }, (_, r) => [...s.slice(r * 9, r * 9 + 9)].map((c) => (c === '.' ? 0 : Number(c))));

interface Case {
  name: string;
  body: string;
  /** The solutions the output must hold, in order, read back from the output text. */
  solutions: (output: string) => string[];
}

const cases: Case[] = [
  { name: 'puzzles.txt', body: `${HARD.join('\r\n')}\r\n`, solutions: (o) => o.split('\n').slice(0, -1) },
  {
    name: 'kaggle.csv',
    body: `quizzes,solutions\n${HARD.map((p) => `${p.replace(/\./g, '0')},`).join('\n')}\n`,
    solutions: (o) =>
      o
        .split('\n')
        .slice(1, -1)
        .map((l) => l.split(',')[1]!),
  },
  {
    name: 'boards.jsonl',
    body: `${HARD.map((p, i) => JSON.stringify(i % 2 ? p : toNumbers(p))).join('\n')}\n`,
    solutions: (o) =>
      o
        .split('\n')
        .slice(0, -1)
        .map((l) => {
          const s = (JSON.parse(l) as { solution: string | number[][] }).solution;
          return typeof s === 'string' ? s : s.flat().join('');
        }),
  },
  {
    name: 'boards.json',
    body: JSON.stringify({ boards: HARD }),
    solutions: (o) => (JSON.parse(o) as { results: { solution: string }[] }).results.map((r) => r.solution),
  },
];

describe.each([false, true])('every format through the S3 pipeline (gzip: %s)', (gzip) => {
  it.each(cases)(
    'solves incoming/$name into solved/ with every answer verified and a report',
    async ({ name, body, solutions }) => {
      const key = `incoming/formats/${name}${gzip ? '.gz' : ''}`;
      const eTag = (await s3.put(key, gzip ? gzipSync(body) : body)).replace(/"/g, '');
      const results = await handleS3Event(await s3.eventFor(key), { client: s3.client });
      expect(results).toEqual([expect.objectContaining({ status: 'processed' })]);

      const output = await s3.text(`solved/formats/${name}${gzip ? '.gz' : ''}`);
      expect(output).toBeDefined();
      const answers = solutions(output!);
      expect(answers).toHaveLength(HARD.length);
      answers.forEach((solution, i) => {
        expect(isSolutionOf(HARD[i]!, solution)).toBe(true);
      });

      const report = await s3.report(key);
      expect(report).toMatchObject({
        source: { bucket: s3.bucket, key, eTag },
        outcome: 'solved',
        output: { key: `solved/formats/${name}${gzip ? '.gz' : ''}`, written: true },
        format: { format: name.split('.')[1], gzip },
        counts: { rows: HARD.length, solved: HARD.length, unique: HARD.length, malformed: 0 },
        failures: [],
        failuresTotal: 0,
      });
      expect(report.durationMs).toBeGreaterThanOrEqual(0);
      expect(report.puzzlesPerSecond).toBeGreaterThan(0);
    },
  );
});

it('keeps blank lines and a BOM-prefixed CRLF file line for line', async () => {
  const key = 'incoming/formats/bom.txt';
  await s3.put(key, `\uFEFF${EASY}\r\n\r\n${EASY}\r\n`);
  await handleS3Event(await s3.eventFor(key), { client: s3.client });
  expect(await s3.text('solved/formats/bom.txt')).toBe(`${EASY_SOLUTION}\n\n${EASY_SOLUTION}\n`);
  expect((await s3.report(key)).counts).toMatchObject({ rows: 2, blank: 1, solved: 2 });
});
