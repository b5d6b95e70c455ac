import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/handler/index.js';
import { MAX_BOARDS, MAX_BODY_BYTES, PROBLEM_TYPE_URI_PREFIX } from '../../../functions/http/index.js';
import { startHttpServer, type RunningHttpServer } from '../../../twin/gateway/http-server.js';
import {
  DUPLICATE,
  EASY,
  EASY_SOLUTION,
  HARD,
  HARD_SOLUTION,
  NO_SOLUTION,
  toChars,
  toDrawing,
  toNumbers,
} from '../../helpers/boards.js';
import { openApiMismatches } from '../../http/openapi-conformance.js';

let server: RunningHttpServer;
let openApi: unknown;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: () => Record<string, unknown>;
}

/** A real request over loopback; every answer is also checked against the served OpenAPI document. */
async function call(method: string, path: string, body?: string | Uint8Array, contentType?: string): Promise<Answer> {
  const response = await fetch(server.url + path, {
    method,
    ...(body === undefined ? {} : { body }),
    headers: contentType ? { 'content-type': contentType } : {},
  });
  const text = await response.text();
  const mismatches = openApiMismatches(openApi, {
    method,
    path: path.split('?')[0]!,
    status: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    body: text,
  });
  expect(mismatches, `${method} ${path} -> ${response.status}: ${text.slice(0, 300)}`).toEqual([]);
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

const postJson = (value: unknown) => call('POST', '/solve', JSON.stringify(value), 'application/json');

function expectProblem(answer: Answer, status: number, slug: string): Record<string, unknown> {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  const details = answer.json();
  expect(details.status).toBe(status);
  expect(details.type).toBe(PROBLEM_TYPE_URI_PREFIX + slug);
  expect(typeof details.detail).toBe('string');
  return details;
}

beforeAll(async () => {
  server = await startHttpServer({ port: 0, handler });
  openApi = await (await fetch(`${server.url}/openapi.json`)).json();
});
afterAll(() => server.close());

describe('local HTTP API over real HTTP', () => {
  it('listens on 127.0.0.1 on the port it was given (0: an ephemeral one)', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('GET /health answers 200 {"status":"ok"}', async () => {
    const answer = await call('GET', '/health');
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ status: 'ok' });
  });

  it('GET /openapi.json serves an OpenAPI 3.1 document describing every route', async () => {
    const answer = await call('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const doc = answer.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/',
      '/grade',
      '/health',
      '/hint',
      '/openapi.json',
      '/puzzle',
      '/solve',
    ]);
  });

  it('POST /solve solves a string board and answers a string, unique, with stats', async () => {
    const answer = await postJson({ board: EASY });
    expect(answer.status).toBe(200);
    const body = answer.json();
    expect(body.solution).toBe(EASY_SOLUTION);
    expect(body.unique).toBe(true);
    expect(body.stats).toEqual({ guesses: expect.any(Number), micros: expect.any(Number) });
  });

  it('POST /solve solves a 9x9 board of one-character strings and answers in that shape', async () => {
    const answer = await postJson({ board: toChars(HARD) });
    expect(answer.status).toBe(200);
    expect(answer.json().solution).toEqual(toChars(HARD_SOLUTION));
  });

  it('POST /solve solves a 9x9 board of numbers and answers in that shape', async () => {
    const answer = await postJson({ board: toNumbers(EASY) });
    expect(answer.status).toBe(200);
    expect(answer.json().solution).toEqual(toNumbers(EASY_SOLUTION));
  });

  it('POST /solve accepts a string board drawn with whitespace and | - + and zeros for empty cells', async () => {
    const answer = await postJson({ board: toDrawing(EASY.replaceAll('.', '0')) });
    expect(answer.status).toBe(200);
    expect(answer.json().solution).toBe(EASY_SOLUTION);
  });

  it('POST /solve reports unique: false for a board with more than one solution', async () => {
    const answer = await postJson({ board: '.'.repeat(81) });
    expect(answer.status).toBe(200);
    expect(answer.json().unique).toBe(false);
  });

  it('POST /solve with "boards" answers one result per board in order; a bad board does not fail the others', async () => {
    const answer = await postJson({ boards: [EASY, DUPLICATE, toNumbers(HARD), NO_SOLUTION, 42] });
    expect(answer.status).toBe(200);
    const body = answer.json() as { results: Array<Record<string, unknown>>; solved: number; failed: number };
    expect(body.results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(body.results[0]!.solution).toBe(EASY_SOLUTION);
    expect(body.results[1]).toMatchObject({
      status: 400,
      problems: [{ code: 'DUPLICATE_IN_ROW', index: 1, row: 1, col: 2 }, { code: 'DUPLICATE_IN_BOX' }],
    });
    expect(body.results[2]!.solution).toEqual(toNumbers(HARD_SOLUTION));
    expect(body.results[3]).toMatchObject({ status: 422, problems: [{ code: 'NO_SOLUTION', index: 3 }] });
    expect(body.results[4]).toMatchObject({ status: 400, problems: [{ code: 'WRONG_TYPE', index: 4 }] });
    expect([body.solved, body.failed]).toEqual([2, 3]);
  });

  it('POST /solve with text/plain answers one line per input line, blank lines blank, failures as error lines', async () => {
    const bad = `${EASY.slice(0, 40)}x${EASY.slice(41)}`;
    const answer = await call('POST', '/solve', `${EASY}\r\n\r\n${HARD}\n${bad}\n`, 'text/plain; charset=utf-8');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = answer.text.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 3)).toEqual([EASY_SOLUTION, '', HARD_SOLUTION]);
    expect(lines[3]).toMatch(/^error line 4: BAD_CHARACTER: Cell at row 5, column 5 is 'x'/);
    expect(lines[4]).toBe('');
    expect([answer.headers.get('x-sudoku-solved'), answer.headers.get('x-sudoku-failed')]).toEqual(['2', '1']);
  });

  it('answers 400 with problem+json for malformed JSON', async () => {
    expectProblem(await call('POST', '/solve', '{"board":', 'application/json'), 400, 'malformed-json');
  });

  it('answers 400 for a JSON body without "board" or "boards", or with both', async () => {
    expectProblem(await postJson({ bord: EASY }), 400, 'invalid-request');
    expectProblem(await postJson({ board: EASY, boards: [] }), 400, 'invalid-request');
    expectProblem(await postJson([EASY]), 400, 'invalid-request');
    expectProblem(await postJson({ boards: EASY }), 400, 'invalid-request');
  });

  it('answers 400 naming the cell for a bad character, and both cells for a repeated given', async () => {
    const bad = expectProblem(await postJson({ board: `x${EASY.slice(1)}` }), 400, 'invalid-board');
    expect(bad.problems).toEqual([expect.objectContaining({ code: 'BAD_CHARACTER', row: 1, col: 1 })]);
    const duplicate = expectProblem(await postJson({ board: toChars(DUPLICATE) }), 400, 'invalid-board');
    expect(duplicate.problems).toContainEqual(
      expect.objectContaining({
        code: 'DUPLICATE_IN_ROW',
        cells: [
          { row: 1, col: 1 },
          { row: 1, col: 2 },
        ],
      }),
    );
  });

  it('answers 400 for a board of the wrong length or shape', async () => {
    const short = expectProblem(await postJson({ board: EASY.slice(1) }), 400, 'invalid-board');
    expect(short.problems).toEqual([expect.objectContaining({ code: 'WRONG_LENGTH' })]);
    const shape = expectProblem(await postJson({ board: toNumbers(EASY).slice(1) }), 400, 'invalid-board');
    expect(shape.problems).toEqual([expect.objectContaining({ code: 'WRONG_SHAPE' })]);
    const range = expectProblem(
      await postJson({ board: [[10, ...toNumbers(EASY)[0]!.slice(1)], ...toNumbers(EASY).slice(1)] }),
      400,
      'invalid-board',
    );
    expect(range.problems).toEqual([expect.objectContaining({ code: 'DIGIT_OUT_OF_RANGE', row: 1, col: 1 })]);
  });

  it('answers 400 invalid-encoding for a body that is not UTF-8 (sent to the handler base64-encoded)', async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    expectProblem(await call('POST', '/solve', bytes, 'application/json'), 400, 'invalid-encoding');
  });

  it('answers 404 for an unknown route', async () => {
    const details = expectProblem(await call('GET', '/solutions?page=2'), 404, 'not-found');
    expect(details.detail).toContain('/solve');
  });

  it('answers 405 with an Allow header for a known route and a wrong method', async () => {
    const get = await call('GET', '/solve');
    expect(expectProblem(get, 405, 'method-not-allowed').allow).toEqual(['POST']);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await call('POST', '/health', '{}', 'application/json')).headers.get('allow')).toBe('GET, HEAD');
    expectProblem(await call('DELETE', '/openapi.json'), 405, 'method-not-allowed');
  });

  it(`answers 413 for a body over ${MAX_BODY_BYTES} bytes, saying the limit`, async () => {
    const details = expectProblem(
      await call('POST', '/solve', `${EASY}\n`.repeat(Math.ceil(MAX_BODY_BYTES / 82) + 1), 'text/plain'),
      413,
      'body-too-large',
    );
    expect(details.limit).toBe(MAX_BODY_BYTES);
    expect(details.detail).toContain(String(MAX_BODY_BYTES));
  });

  it(`answers 413 for more than ${MAX_BOARDS} boards, saying the limit`, async () => {
    const details = expectProblem(await postJson({ boards: Array(MAX_BOARDS + 1).fill(EASY) }), 413, 'too-many-boards');
    expect(details.limit).toBe(MAX_BOARDS);
    expect(details.detail).toContain(String(MAX_BOARDS));
  });

  it('answers 415 for another content type or none, listing the accepted ones', async () => {
    const form = expectProblem(
      await call('POST', '/solve', `board=${EASY}`, 'application/x-www-form-urlencoded'),
      415,
      'unsupported-media-type',
    );
    expect(form.accept).toEqual(['application/json', 'text/plain']);
    expectProblem(
      await call('POST', '/solve', new TextEncoder().encode(JSON.stringify({ board: EASY }))),
      415,
      'unsupported-media-type',
    );
    expectProblem(await call('POST', '/solve', EASY, 'text/plain; charset=latin1'), 415, 'unsupported-media-type');
  });

  it('answers 422 for a well-formed board that has no solution', async () => {
    const details = expectProblem(await postJson({ board: NO_SOLUTION }), 422, 'unsolvable-board');
    expect(details.problems).toEqual([expect.objectContaining({ code: 'NO_SOLUTION' })]);
  });

  it('returns the gateway request id, and the same id in problem details', async () => {
    const answer = await call('GET', '/nope');
    expect(answer.json().requestId).toBe(answer.headers.get('apigw-requestid'));
  });
});
