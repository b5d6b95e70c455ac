// POST /grade, POST /hint and GET /puzzle over real HTTP through the local server (npm start's),
// each answer checked against the OpenAPI document the server serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/handler/index.js';
import { PROBLEM_TYPE_URI_PREFIX } from '../../../functions/http/index.js';
import { type RunningHttpServer, startHttpServer } from '../../../twin/gateway/http-server.js';
import { DUPLICATE, EASY, EASY_SOLUTION, HARD } from '../../helpers/boards.js';
import { openApiMismatches } from '../../http/openapi-conformance.js';

let server: RunningHttpServer;
let openApi: unknown;

beforeAll(async () => {
  server = await startHttpServer({ port: 0, handler });
  openApi = await (await fetch(`${server.url}/openapi.json`)).json();
});
afterAll(() => server.close());

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
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
  return { status: response.status, json: JSON.parse(text) };
}

describe('the toolkit routes on the local server', () => {
  it('POST /grade grades a board and a batch', async () => {
    const one = await call('POST', '/grade', { board: EASY });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ grade: { level: 'easy', hardest: 'hidden-single' }, solution: EASY_SOLUTION });
    const many = await call('POST', '/grade', { boards: [HARD, DUPLICATE] });
    expect(many.json).toMatchObject({ graded: 1, failed: 1 });
  });

  it('POST /hint gives a placement that is the solution digit', async () => {
    const answer = await call('POST', '/hint', { puzzle: EASY, board: EASY });
    expect(answer.status).toBe(200);
    const { row, col, digit } = answer.json.hint.placement;
    expect(Number(EASY_SOLUTION[(row - 1) * 9 + col - 1])).toBe(digit);
  });

  it('GET /puzzle generates the same puzzle for the same seed, and names a bad parameter', async () => {
    const first = await call('GET', '/puzzle?level=hard&seed=3');
    const again = await call('GET', '/puzzle?level=hard&seed=3');
    expect(first.status).toBe(200);
    expect(again.json).toEqual(first.json);
    const bad = await call('GET', '/puzzle?level=hard&seed=minus');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ type: `${PROBLEM_TYPE_URI_PREFIX}invalid-parameter`, parameter: 'seed' });
  });
});
