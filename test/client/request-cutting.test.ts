// Cutting a long list into requests the API takes: 1,000 boards and 1 MiB of body, each counted
// exactly as the body is sent, the edges included; a board no request can carry is answered
// without being sent.
import { describe, expect, it } from 'vitest';
import { MAX_BOARDS, MAX_BODY_BYTES } from '../../functions/contract/api-limits.js';
import { SudokuClient } from '../../functions/client/index.js';
import { cutRequests, utf8Bytes } from '../../functions/client/request-cutting.js';
import { EASY } from '../helpers/boards.js';
import { fakeClock, fakeFetch, solvedEcho } from './fake-api.js';

const lines = { overhead: 0, separator: 1, bytes: utf8Bytes, counts: (line: string) => line.trim() !== '' };

function client(reply = solvedEcho) {
  const api = fakeFetch(reply);
  return { api, client: new SudokuClient({ baseUrl: 'http://api.test/', fetch: api.fetch, clock: fakeClock() }) };
}

const bodyBytes = (body: string | undefined) => new TextEncoder().encode(body ?? '').length;
const boardsIn = (body: string | undefined) => (JSON.parse(body ?? '{}') as { boards: unknown[] }).boards.length;

describe('cutting boards into requests', () => {
  it('puts 1,000 boards in one request and the 1,001st in the next', async () => {
    for (const [count, expected] of [
      [MAX_BOARDS, [MAX_BOARDS]],
      [MAX_BOARDS + 1, [MAX_BOARDS, 1]],
      [2500, [1000, 1000, 500]],
    ] as const) {
      const { api, client: c } = client();
      const results = await c.solveMany(Array.from({ length: count }, () => EASY));
      expect(api.sent.map((r) => boardsIn(r.body))).toEqual(expected);
      expect(results.map((r) => r.index)).toEqual(Array.from({ length: count }, (_, i) => i));
    }
  });

  it('fills a body to exactly 1 MiB, and one byte more starts another request', async () => {
    // 999 boards of 1,047 bytes of JSON and one more, sized so the body is exactly MAX_BODY_BYTES.
    const board = (jsonBytes: number) => 'x'.repeat(jsonBytes - 2);
    const body = (last: number) => '{"boards":[]}'.length + 999 * 1047 + last + 999;
    const last = MAX_BODY_BYTES - body(0);
    const boards = [...Array.from({ length: 999 }, () => board(1047)), board(last)];
    const exact = client();
    await exact.client.solveMany(boards);
    expect(exact.api.sent.map((r) => bodyBytes(r.body))).toEqual([MAX_BODY_BYTES]);

    const over = client();
    await over.client.solveMany([...boards.slice(0, -1), board(last + 1)]);
    expect(over.api.sent.map((r) => boardsIn(r.body))).toEqual([999, 1]);
    expect(Math.max(...over.api.sent.map((r) => bodyBytes(r.body)))).toBeLessThanOrEqual(MAX_BODY_BYTES);
  });

  it('counts bytes as UTF-8 (two for é, four for an emoji), as the body is sent', () => {
    expect([utf8Bytes('abc'), utf8Bytes('é'), utf8Bytes('€'), utf8Bytes('🧩'), utf8Bytes('\ud800')]).toEqual([
      3, 2, 3, 4, 3,
    ]);
    const wide = 'é'.repeat(MAX_BODY_BYTES / 4);
    // Two lines of 512 KiB each and the line break between them: one byte over 1 MiB.
    expect(cutRequests([wide, wide], lines).spans).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(cutRequests([wide, wide.slice(1)], lines).spans).toEqual([[0, 2]]);
  });

  it('answers a board too large for any request as a failed board of the batch, and sends the others', async () => {
    const { api, client: c } = client();
    const huge = '1'.repeat(MAX_BODY_BYTES);
    const results = await c.solveMany([EASY, huge, EASY]);
    expect(api.sent.map((r) => boardsIn(r.body))).toEqual([1, 1]);
    expect(results[1]).toEqual({
      index: 1,
      status: 400,
      problems: [
        {
          code: 'WRONG_LENGTH',
          message: expect.stringMatching(/over the 1048576 bytes/),
          pointer: '/boards/1',
          index: 1,
        },
      ],
      problemsTotal: 1,
    });
    expect(results[2]).toMatchObject({ index: 2, solution: EASY });
  });

  it('counts non-blank lines against the 1,000 of a text/plain request, as the API does, and sends no request of blank lines only', async () => {
    const puzzles = [...Array.from({ length: MAX_BOARDS }, () => EASY), '', '  ', EASY];
    expect(cutRequests(puzzles, lines).spans).toEqual([
      [0, 1002],
      [1002, 1003],
    ]);
    const { api, client: c } = client((request) => new Response(request.body, { status: 200 }));
    const answers = await c.solveLines(['', '', EASY, ''], {});
    expect(answers).toEqual(['', '', EASY, '']);
    expect(api.sent).toHaveLength(1);
    const blank = client();
    expect(await blank.client.solveLines(['', ' '])).toEqual(['', '']);
    expect(blank.api.sent).toEqual([]);
  });
});
