import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  handleHttpEvent,
  MAX_BOARDS,
  MAX_BODY_BYTES,
  MAX_SOLVE_MS,
  openApiDocument,
  SolveBudget,
  type BoardsResponse,
  type HttpResponse,
  type ProblemDetails,
} from '../../functions/http/index.js';
import { MAX_PROBLEMS_PER_BOARD, MAX_RESPONSE_BYTES } from '../../functions/http/constants.js';
import { jsonStringBytes, lambdaResultBytes, withinResponseLimit } from '../../functions/http/response-size.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { EASY, toChars } from '../helpers/boards.js';
import { openApiMismatches } from './openapi-conformance.js';

/** 81 equal digits: every row, column and box repeats, over 200 problems for one board. */
const ALL_ONES = '1'.repeat(81);

/**
 * The API's own budget on a clock that does not move: these answers are about size, and thousands of
 * boards solved on a loaded machine must not turn them into a 413 solve-time-exceeded. The budget
 * still gives each board the allowance of a request with all its time left.
 */
const stoppedClock = () => new SolveBudget(MAX_SOLVE_MS, () => 0);

async function post(
  body: string,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  const response = await handleHttpEvent(
    buildHttpApiEvent({ method: 'POST', url: '/solve', headers: { 'content-type': contentType, ...headers }, body }),
    undefined,
    stoppedClock(),
  );
  const mismatches = openApiMismatches(openApiDocument, {
    method: 'POST',
    path: '/solve',
    status: response.statusCode,
    contentType: response.headers['content-type'],
    body: response.body,
  });
  expect(mismatches).toEqual([]);
  return response;
}

describe('problems listed per board', () => {
  it(`lists the first ${MAX_PROBLEMS_PER_BOARD} of a board's problems and counts them all`, async () => {
    const response = await post(JSON.stringify({ boards: Array.from({ length: MAX_BOARDS }, () => ALL_ONES) }));
    expect(response.statusCode).toBe(200);
    const answer = JSON.parse(response.body) as BoardsResponse;
    expect(answer.failed).toBe(MAX_BOARDS);
    const first = answer.results[0]!;
    expect('problems' in first && first.problems).toHaveLength(MAX_PROBLEMS_PER_BOARD);
    expect('problemsTotal' in first && first.problemsTotal).toBeGreaterThan(200);
    // Listed in full, these problems made a 43 MB answer; a Lambda result is at most 6 MB.
    expect(lambdaResultBytes(response)).toBeLessThan(MAX_RESPONSE_BYTES / 2);
  });

  it('caps the problems of a single board and says how many more there are', async () => {
    const response = await post(JSON.stringify({ board: ALL_ONES }));
    expect(response.statusCode).toBe(400);
    const problem = JSON.parse(response.body) as ProblemDetails;
    expect(problem.problems).toHaveLength(MAX_PROBLEMS_PER_BOARD);
    const more = problem.problemsTotal! - MAX_PROBLEMS_PER_BOARD;
    expect(more).toBeGreaterThan(0);
    expect(problem.detail).toMatch(new RegExp(`\\(and ${more} more problems\\)$`));
  });

  it('caps the problems of a text/plain error line too', async () => {
    const response = await post(`${EASY}\n${ALL_ONES}\n`, 'text/plain');
    const [, line] = response.body.split('\n');
    expect(line!.match(/DUPLICATE_IN_/g)).toHaveLength(MAX_PROBLEMS_PER_BOARD);
    expect(line).toMatch(/; and \d+ more problems$/);
  });
});

describe('the size of a Lambda result', () => {
  const serialized = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
  // Any UTF-16 code units: controls, quotes, backslashes, 2- and 3-byte characters, surrogate
  // pairs and lone surrogates (which JSON.stringify writes as \uDXXX).
  const anyText = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.array(fc.integer({ min: 0, max: 0xffff })).map((units) => String.fromCharCode(...units)),
    fc
      .array(fc.constantFrom('"', '\\', '\n', '\u0001', '\u007f', 'é', '€', '\u2028', '\ud83d', '\ude00', 'a'))
      .map((parts) => parts.join('')),
  );

  it('counts a string as JSON.stringify writes it, in UTF-8 bytes, without writing it', async () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(jsonStringBytes(text)).toBe(serialized(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('is the whole response serialized: status, headers and the escaped body', async () => {
    fc.assert(
      fc.property(anyText, fc.dictionary(fc.string(), fc.string()), fc.boolean(), (body, headers, isBase64Encoded) => {
        const response: HttpResponse = { statusCode: 200, headers, body, isBase64Encoded };
        expect(lambdaResultBytes(response)).toBe(serialized(response));
      }),
    );
  });
});

describe('answers within Lambda’s limit', () => {
  it('stays under the limit for the largest answers the request limits allow', async () => {
    // The widest answer shapes, as many as one request may hold, with the JSON escaping of the body counted.
    const widestSolved = JSON.stringify({ boards: Array.from({ length: MAX_BOARDS }, () => toChars(EASY)) });
    const widestFailed = JSON.stringify({
      boards: Array.from({ length: MAX_BOARDS }, () => Array.from({ length: 9 }, () => Array(9).fill(1))),
    });
    for (const body of [widestSolved, widestFailed]) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES);
      const response = await post(body);
      expect(response.statusCode).toBe(200);
      expect(lambdaResultBytes(response)).toBeLessThan(MAX_RESPONSE_BYTES);
    }
  });

  it('counts a result as Lambda does: serialized as JSON, escapes and multi-byte characters included', async () => {
    const response: HttpResponse = { statusCode: 200, headers: {}, body: '"é"', isBase64Encoded: false };
    expect(lambdaResultBytes(response)).toBe(
      Buffer.byteLength('{"statusCode":200,"headers":{},"body":"\\"é\\"","isBase64Encoded":false}'),
    );
  });

  it('turns an answer over the limit into a 413 that says to send the puzzles as a file, keeping its CORS headers', async () => {
    const answer = await post(JSON.stringify({ boards: Array.from({ length: 100 }, () => EASY) }), 'application/json', {
      origin: 'https://app.example.com',
    });
    const limit = lambdaResultBytes(answer) - 1;
    expect(withinResponseLimit(answer, 'req-1', limit + 1)).toBe(answer);
    const tooLarge = withinResponseLimit(answer, 'req-1', limit);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.headers['access-control-allow-origin']).toBe('*');
    const problem = JSON.parse(tooLarge.body) as ProblemDetails;
    expect(problem).toMatchObject({ status: 413, limit, requestId: 'req-1' });
    expect(problem.type).toMatch(/response-too-large$/);
    expect(problem.detail).toMatch(/incoming\//);
    expect(
      openApiMismatches(openApiDocument, {
        method: 'POST',
        path: '/solve',
        status: 413,
        contentType: tooLarge.headers['content-type'],
        body: tooLarge.body,
      }),
    ).toEqual([]);
  });
});
