// One request of each category the issue-26 fuzz sent (224,008 requests in 30 categories) to the
// local server, every answer checked against the OpenAPI document the server itself serves: the
// status is one the document lists for that route and method (or under x-unlisted), the body valid
// against the schema of its media type, and every 4xx problem+json or API Gateway's own JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/handler/index.js';
import { GATEWAY_ANSWERS } from '../../../functions/http/gateway-answers.js';
import { MAX_BODY_BYTES } from '../../../functions/http/index.js';
import { startHttpServer, type LambdaHandler, type RunningHttpServer } from '../../../twin/gateway/http-server.js';
import { EASY, MULTIPLE, NO_SOLUTION, DUPLICATE, toChars, toDrawing, toNumbers } from '../../helpers/boards.js';
import { openApiMismatches } from '../../http/openapi-conformance.js';
import { exchange, type Raw, rawRequest as request } from '../../helpers/raw-http.js';

interface Sent {
  name: string;
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

const json = (value: unknown) => JSON.stringify(value);
const solveJson = (name: string, body: string | Buffer, contentType = 'application/json'): Sent => ({
  name,
  method: 'POST',
  target: '/solve',
  headers: { 'content-type': contentType },
  body,
});
const nested = (depth: number) => `{"board":${'['.repeat(depth)}${']'.repeat(depth)}}`;
const random = (n: number, seed: number) => {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
};

/** The fuzz's categories, one request (or a few) each. */
const CATEGORIES: Record<string, Sent[]> = {
  'every board shape': [
    solveJson('string', json({ board: EASY })),
    solveJson('chars', json({ board: toChars(EASY) })),
    solveJson('numbers', json({ board: toNumbers(EASY) })),
    solveJson('drawn grid', json({ board: toDrawing(EASY) })),
    solveJson('batch', json({ boards: [EASY, toChars(EASY), DUPLICATE, NO_SOLUTION, 'x'.repeat(200)] })),
    solveJson('text lines', `${EASY}\n\n12x\n${MULTIPLE}\n`, 'text/plain'),
    solveJson('no solution', json({ board: NO_SOLUTION })),
    solveJson('repeated givens', json({ board: '1'.repeat(81) })),
    solveJson('wrong length', json({ board: EASY.slice(1) })),
    solveJson('bad characters past the board', json({ board: `${'.'.repeat(81)}xyz` })),
  ],
  'bad types': [
    solveJson('null board', json({ board: null })),
    solveJson('number board', json({ board: 7 })),
    solveJson('object board', json({ board: { a: 1 } })),
    solveJson('boards not an array', json({ boards: 'x' })),
    solveJson('both', json({ board: EASY, boards: [EASY] })),
    solveJson('array body', json([EASY])),
    solveJson('string body', json(EASY)),
    solveJson('ragged grid', json({ board: [[1, 2], [3]] })),
    solveJson('floats', json({ board: Array.from({ length: 9 }, () => Array(9).fill(1.5)) })),
  ],
  unicode: [
    solveJson('emoji', json({ board: '\u{1F600}'.repeat(81) })),
    solveJson('lone surrogate', '{"board":"\\ud800"}'),
    solveJson('NBSP and RTL marks', json({ board: `\u00a0\u200f${EASY}\u202e` })),
    solveJson('fullwidth digits', json({ board: EASY.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))) })),
    solveJson('text emoji', `${'\u{1F600}'.repeat(81)}\n`, 'text/plain'),
  ],
  'deep nesting': [
    solveJson('100,000 deep', nested(100_000)),
    solveJson('deep object', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`),
  ],
  'duplicate keys': [
    solveJson('board twice', `{"board":"x","board":${JSON.stringify(EASY)}}`),
    solveJson('__proto__', `{"__proto__":{"board":${JSON.stringify(EASY)}}}`),
  ],
  'wrong content types': [
    solveJson('form', 'board=1', 'application/x-www-form-urlencoded'),
    solveJson('octet-stream', json({ board: EASY }), 'application/octet-stream'),
    solveJson('latin1', json({ board: EASY }), 'application/json; charset=latin1'),
    solveJson('us-ascii', json({ board: EASY }), 'application/json; charset=us-ascii'),
    solveJson('us-ascii mislabelled', json({ board: 'é' }), 'text/plain; charset=us-ascii'),
    solveJson('problem+json', json({ board: EASY }), 'application/problem+json'),
    solveJson('garbage type', json({ board: EASY }), ';;;'),
    { name: 'no content type', method: 'POST', target: '/solve', body: json({ board: EASY }) },
    {
      name: 'gzip body',
      method: 'POST',
      target: '/solve',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: random(64, 1),
    },
  ],
  BOMs: [
    solveJson('BOM before JSON', `\ufeff${json({ board: EASY })}`),
    solveJson('BOM in text', `\ufeff${EASY}\n`, 'text/plain'),
    solveJson('UTF-16 BOM', Buffer.from(`\ufeff${json({ board: EASY })}`, 'utf16le')),
  ],
  'huge bodies': [
    solveJson('1 MiB + 1', `${json({ board: EASY }).slice(0, -1)}${' '.repeat(MAX_BODY_BYTES)}}`),
    solveJson('10 MiB + 1', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)),
    solveJson('1001 boards', json({ boards: Array(1001).fill(EASY) })),
    solveJson('100,000 bad characters', json({ board: 'x'.repeat(100_000) })),
  ],
  'random bytes': [
    solveJson('random as JSON', random(300, 2)),
    solveJson('random as text', random(300, 3), 'text/plain'),
    solveJson('invalid UTF-8', Buffer.from([0x7b, 0xc3, 0x28, 0x7d])),
  ],
  'route and method variants': [
    {
      name: 'trailing slash',
      method: 'POST',
      target: '/solve/',
      headers: { 'content-type': 'text/plain' },
      body: EASY,
    },
    { name: 'upper case', method: 'GET', target: '/SOLVE' },
    { name: 'double slash', method: 'GET', target: '//solve' },
    { name: 'query', method: 'GET', target: '/health?x=1&x=2' },
    { name: 'sub path', method: 'GET', target: '/solve/x' },
    { name: 'percent-encoded', method: 'GET', target: '/%73olve' },
    { name: 'prototype key', method: 'GET', target: '/__proto__' },
    { name: 'GET /solve', method: 'GET', target: '/solve' },
    { name: 'PUT /solve', method: 'PUT', target: '/solve', body: 'x' },
    { name: 'DELETE /health', method: 'DELETE', target: '/health' },
    { name: 'PATCH /', method: 'PATCH', target: '/', body: '' },
    { name: 'HEAD /health', method: 'HEAD', target: '/health' },
    { name: 'HEAD /', method: 'HEAD', target: '/' },
    { name: 'HEAD /solve', method: 'HEAD', target: '/solve' },
    { name: 'GET /openapi.json', method: 'GET', target: '/openapi.json' },
    { name: 'GET /', method: 'GET', target: '/' },
    { name: 'an unknown method', method: 'FOO', target: '/solve' },
    { name: 'an unknown path', method: 'GET', target: '/solutions' },
  ],
  'CORS preflight': [
    ...['/solve', '/health', '/', '/openapi.json', '/nope'].map((target) => ({
      name: `preflight ${target}`,
      method: 'OPTIONS',
      target,
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    })),
    { name: 'OPTIONS, not a preflight', method: 'OPTIONS', target: '/solve' },
    {
      name: 'cross-origin POST',
      method: 'POST',
      target: '/solve',
      headers: { origin: 'https://app.example.com', 'content-type': 'application/json' },
      body: json({ board: EASY }),
    },
  ],
};

/** Malformed HTTP: bytes no client library would send. Node's parser refuses each; the gateway answers 400. */
const MALFORMED: Record<string, string> = {
  'two Content-Lengths': 'POST /solve HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}',
  'Content-Length with Transfer-Encoding':
    'POST /solve HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
  'a NUL in a header': 'GET /health HTTP/1.1\r\nhost: x\r\nx-a: a\u0000b\r\n\r\n',
  'a bare LF': 'GET /health HTTP/1.1\nhost: x\n\n',
  'an unknown protocol': 'GET /health HTTP/9.9\r\nhost: x\r\n\r\n',
};

let server: RunningHttpServer;
let openApi: unknown;

beforeAll(async () => {
  server = await startHttpServer({ port: 0, handler, onHandlerError: () => undefined });
  openApi = JSON.parse((await exchange(server.url, request({ method: 'GET', target: '/openapi.json' }))).body);
});
afterAll(() => server.close());

/** The answer checked against the served document; the path as the router sees it (no query). */
function expectDocumented(sent: { method: string; target: string }, answer: Raw): void {
  const mismatches = openApiMismatches(openApi, {
    method: sent.method,
    path: sent.target.split('?')[0]!,
    status: answer.status,
    contentType: answer.headers['content-type'],
    body: answer.body,
  });
  expect(mismatches, `${sent.method} ${sent.target} -> ${answer.status} ${answer.body.slice(0, 200)}`).toEqual([]);
  if (answer.status >= 400 && sent.method !== 'HEAD') {
    const type = answer.headers['content-type'];
    if (type === 'application/json') {
      expect(Object.values(GATEWAY_ANSWERS).map((a) => JSON.stringify({ message: a.message }))).toContain(answer.body);
    } else expect(type).toBe('application/problem+json');
  }
}

describe('one request of each fuzz category, against the served OpenAPI document', () => {
  for (const [category, requests] of Object.entries(CATEGORIES)) {
    it(category, async () => {
      for (const sent of requests) {
        const answer = await exchange(server.url, request(sent));
        expectDocumented(sent, answer);
        expect(answer.status, sent.name).toBeLessThan(500);
      }
    });
  }

  it('raw malformed HTTP gets the gateway 400 {"message":"Bad Request"}, as documented for the route', async () => {
    for (const [name, bytes] of Object.entries(MALFORMED)) {
      const answer = await exchange(server.url, bytes);
      expect(answer.status, name).toBe(400);
      expect(answer.headers['content-type'], name).toBe('application/json');
      expect(JSON.parse(answer.body), name).toEqual({ message: 'Bad Request' });
      const [method, target] = bytes.split(' ');
      expectDocumented({ method: method!, target: target! }, answer);
    }
  });

  it('headers too large get the gateway 431 JSON', async () => {
    const answer = await exchange(
      server.url,
      `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(70_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expectDocumented({ method: 'GET', target: '/health' }, answer);
  });

  it('the gateway answers a body over 10 MiB 413 {"message":"Request Entity Too Large"}, as documented', async () => {
    const sent = solveJson('10 MiB + 1', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    const answer = await exchange(server.url, request(sent));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: 'Request Entity Too Large' });
  });
});

describe("the gateway's throttle and the function's pool, against the document", () => {
  it('a throttled request (429) and a full pool (500) are answered as documented for every route', async () => {
    const slow: LambdaHandler = async (event, context) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return handler(event, context);
    };
    const limited = await startHttpServer({
      port: 0,
      handler: slow,
      onHandlerError: () => undefined,
      limits: { routeThrottles: { $default: { rate: 0.001, burst: 2 } }, reservedConcurrency: 1 },
    });
    try {
      const targets = [
        { method: 'POST', target: '/solve' },
        { method: 'GET', target: '/health' },
      ];
      const sent = targets.map((t) => ({
        ...t,
        name: t.target,
        headers: { 'content-type': 'text/plain' },
        body: EASY,
      }));
      const answers = await Promise.all([...sent, ...sent].map((s) => exchange(limited.url, request(s))));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toContain(429);
      expect(statuses).toContain(500);
      answers.forEach((answer, i) => {
        expectDocumented(sent[i % sent.length]!, answer);
      });
    } finally {
      await limited.close();
    }
  });
});
