import { describe, expect, it } from 'vitest';
import {
  handleHttpEvent,
  openApiDocument,
  type BoardsResponse,
  type HttpResponse,
  type ProblemDetails,
} from '../../functions/http/index.js';
import { MAX_PROBLEMS_PER_BOARD } from '../../functions/http/constants.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import type { Problem } from '../../functions/sudoku/index.js';
import { openApiMismatches } from './openapi-conformance.js';

async function post(body: string, contentType = 'application/json'): Promise<HttpResponse> {
  const response = await handleHttpEvent(
    buildHttpApiEvent({ method: 'POST', url: '/solve', headers: { 'content-type': contentType }, body }),
  );
  expect(
    openApiMismatches(openApiDocument, {
      method: 'POST',
      path: '/solve',
      status: response.statusCode,
      contentType: response.headers['content-type'],
      body: response.body,
    }),
  ).toEqual([]);
  return response;
}

/** Bad characters and the length problem a string of `n` x's has: n, plus WRONG_LENGTH unless n is 81. */
const problemsOfXs = (n: number) => n + (n === 81 ? 0 : 1);

describe('problemsTotal counts every problem, listed or not', () => {
  for (const n of [81, 82, 1000, 100_000]) {
    it(`a board of ${n} bad characters: ${problemsOfXs(n)} in all, in a single board, a batch and a text line`, async () => {
      const board = 'x'.repeat(n);
      const single = JSON.parse((await post(JSON.stringify({ board }))).body) as ProblemDetails;
      expect(single.problems).toHaveLength(MAX_PROBLEMS_PER_BOARD);
      expect(single.problemsTotal).toBe(problemsOfXs(n));
      expect(single.detail).toMatch(new RegExp(`\\(and ${problemsOfXs(n) - MAX_PROBLEMS_PER_BOARD} more problems\\)$`));

      const batch = JSON.parse((await post(JSON.stringify({ boards: [board, board] }))).body) as BoardsResponse;
      for (const item of batch.results) expect(item).toMatchObject({ problemsTotal: problemsOfXs(n) });

      const text = (await post(`${board}\n`, 'text/plain')).body;
      expect(text.split('\n')[0]).toMatch(
        new RegExp(`; and ${problemsOfXs(n) - MAX_PROBLEMS_PER_BOARD} more problems$`),
      );
    });
  }

  it('a 9x9 array of 81 bad cells counts 81, strings or numbers', async () => {
    for (const cell of ['x', 10]) {
      const board = Array.from({ length: 9 }, () => Array(9).fill(cell));
      const answer = JSON.parse((await post(JSON.stringify({ board }))).body) as ProblemDetails;
      expect(answer.problems).toHaveLength(MAX_PROBLEMS_PER_BOARD);
      expect(answer.problemsTotal).toBe(81);
    }
  });

  it('repeated givens are still counted in full (81 ones: 216)', async () => {
    expect(
      (JSON.parse((await post(JSON.stringify({ board: '1'.repeat(81) }))).body) as ProblemDetails).problemsTotal,
    ).toBe(216);
  });
});

describe('every bad character has a place a program can read', () => {
  it('a bad character past cell 81 is located by its character position', async () => {
    const answer = JSON.parse((await post(JSON.stringify({ board: `${'.'.repeat(81)}x` }))).body) as ProblemDetails;
    expect(answer.problems).toContainEqual(expect.objectContaining({ code: 'BAD_CHARACTER', position: 82 }));
  });

  it('positions count characters, not UTF-16 units, and skip nothing ignored', async () => {
    const answer = JSON.parse(
      (await post(JSON.stringify({ board: `| ${'.'.repeat(81)} \u{1F600}x` }))).body,
    ) as ProblemDetails;
    const bad = answer.problems!.filter((p) => p.code === 'BAD_CHARACTER');
    expect(bad.map((p: Problem) => p.position)).toEqual([85, 86]);
  });

  it('every BAD_CHARACTER and DIGIT_OUT_OF_RANGE has row and col, or position', async () => {
    const boards = ['x'.repeat(200), `${'.'.repeat(80)}xyz`, Array.from({ length: 9 }, () => Array(9).fill(42))];
    for (const board of boards) {
      const answer = JSON.parse((await post(JSON.stringify({ board }))).body) as ProblemDetails;
      for (const p of answer.problems!.filter((q) => q.code === 'BAD_CHARACTER' || q.code === 'DIGIT_OUT_OF_RANGE')) {
        expect(p.position !== undefined || (p.row !== undefined && p.col !== undefined), JSON.stringify(p)).toBe(true);
      }
    }
  });
});
