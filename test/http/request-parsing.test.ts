import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/handler/index.js';
import { MAX_BOARDS, MAX_BODY_BYTES, type HttpResponse } from '../../functions/http/index.js';
import { parseMediaType } from '../../functions/http/content-type.js';
import { routePath } from '../../functions/http/request.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { EASY, EASY_SOLUTION, HARD, HARD_SOLUTION, toChars } from '../helpers/boards.js';

const context = createLambdaContext();

async function post(
  body: string,
  contentType: string,
  transform?: (e: ReturnType<typeof buildHttpApiEvent>) => void,
): Promise<HttpResponse> {
  const event = buildHttpApiEvent({ method: 'POST', url: '/solve', headers: { 'content-type': contentType }, body });
  transform?.(event);
  return (await handler(event, context)) as HttpResponse;
}

const base64 = (e: ReturnType<typeof buildHttpApiEvent>) => {
  e.body = Buffer.from(e.body ?? '').toString('base64');
  e.isBase64Encoded = true;
};

describe('request parsing', () => {
  it('decodes a base64-encoded JSON body (isBase64Encoded)', async () => {
    const result = await post(JSON.stringify({ board: toChars(HARD) }), 'application/json', base64);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).solution).toEqual(toChars(HARD_SOLUTION));
  });

  it('decodes a base64-encoded text/plain body', async () => {
    const result = await post(`${EASY}\n${HARD}`, 'text/plain', base64);
    expect(result.body).toBe(`${EASY_SOLUTION}\n${HARD_SOLUTION}`);
  });

  it('accepts a body of exactly the byte limit and refuses one byte more with 413', async () => {
    const json = JSON.stringify({ board: EASY });
    const padded = (size: number) => `${json.slice(0, -1) + ' '.repeat(size - json.length)}}`;
    expect((await post(padded(MAX_BODY_BYTES), 'application/json')).statusCode).toBe(200);
    expect((await post(padded(MAX_BODY_BYTES + 1), 'application/json')).statusCode).toBe(413);
  });

  it('counts the limit in UTF-8 bytes after base64 decoding, not in characters', async () => {
    const json = JSON.stringify({ board: EASY, note: 'é'.repeat(MAX_BODY_BYTES / 2) });
    expect((await post(json, 'application/json')).statusCode).toBe(413);
    expect((await post(json, 'application/json', base64)).statusCode).toBe(413);
  });

  it(`solves exactly ${MAX_BOARDS} boards and refuses ${MAX_BOARDS + 1} with 413, in JSON and in text lines`, async () => {
    const ok = await post(JSON.stringify({ boards: Array(MAX_BOARDS).fill(EASY) }), 'application/json');
    expect(JSON.parse(ok.body).solved).toBe(MAX_BOARDS);
    expect(
      (await post(JSON.stringify({ boards: Array(MAX_BOARDS + 1).fill(EASY) }), 'application/json')).statusCode,
    ).toBe(413);
    expect((await post(`${EASY}\n`.repeat(MAX_BOARDS), 'text/plain')).statusCode).toBe(200);
    const tooMany = await post(`${EASY}\n`.repeat(MAX_BOARDS + 1), 'text/plain');
    expect(tooMany.statusCode).toBe(413);
    expect(JSON.parse(tooMany.body)).toMatchObject({
      limit: MAX_BOARDS,
      type: expect.stringContaining('too-many-boards'),
    });
  });

  it('answers an empty batch with no results', async () => {
    const result = await post('{"boards":[]}', 'application/json');
    expect(JSON.parse(result.body)).toEqual({ results: [], solved: 0, failed: 0 });
  });

  it('answers 400 for a text body with no puzzle lines', async () => {
    expect((await post('\n \r\n', 'text/plain')).statusCode).toBe(400);
    expect((await post('', 'text/plain')).statusCode).toBe(400);
  });

  it('answers 400 for an empty JSON body', async () => {
    expect(JSON.parse((await post('', 'application/json')).body).type).toContain('malformed-json');
  });

  it('keeps a UTF-8 BOM, CRLF line ends and a missing final newline out of the answer lines', async () => {
    const result = await post(`\uFEFF${EASY}\r\n${HARD}`, 'text/plain');
    expect(result.body).toBe(`${EASY_SOLUTION}\n${HARD_SOLUTION}`);
  });

  it('names the input line and every problem on an error line', async () => {
    const duplicate = `55${EASY.slice(2)}`;
    const result = await post(`\n${duplicate}\n`, 'text/plain');
    const lines = result.body.split('\n');
    expect(lines[0]).toBe('');
    expect(lines[1]).toMatch(/^error line 2: DUPLICATE_IN_ROW: Digit 5 is given twice .*; DUPLICATE_IN_BOX: /);
  });

  it('takes a JSON content type with parameters in any case', async () => {
    expect((await post(JSON.stringify({ board: EASY }), 'Application/JSON; Charset="UTF-8"')).statusCode).toBe(200);
  });

  it('never lets a __proto__ member stand in for "board"', async () => {
    const result = await post('{"__proto__": {"board": "x"}}', 'application/json');
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body).type).toContain('invalid-request');
  });
});

describe('routing', () => {
  it('routes behind a named stage as behind $default', () => {
    expect(routePath('/prod/solve', 'prod')).toBe('/solve');
    expect(routePath('/prod', 'prod')).toBe('/');
    expect(routePath('/production/solve', 'prod')).toBe('/production/solve');
    expect(routePath('/solve', '$default')).toBe('/solve');
  });

  it('serves each route at one URL: a trailing slash is a 404 that names the route meant', async () => {
    expect(routePath('/health/', '$default')).toBe('/health/');
    expect(routePath('/', '$default')).toBe('/');
    for (const [method, url] of [
      ['POST', '/solve/'],
      ['GET', '/health/'],
      ['GET', '/openapi.json/'],
    ] as const) {
      const result = (await handler(
        buildHttpApiEvent({ method, url, headers: { 'content-type': 'application/json' }, body: '{}' }),
        context,
      )) as HttpResponse;
      expect(result.statusCode, url).toBe(404);
      expect(result.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(result.body).detail).toContain(`without the trailing slash: ${url.slice(0, -1)}`);
    }
  });

  it('answers HEAD on a GET route as GET without the body; Allow lists HEAD', async () => {
    for (const url of ['/', '/health', '/openapi.json']) {
      const get = (await handler(buildHttpApiEvent({ method: 'GET', url }), context)) as HttpResponse;
      const head = (await handler(buildHttpApiEvent({ method: 'HEAD', url }), context)) as HttpResponse;
      expect(head.statusCode, url).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
    }
    const post = (await handler(buildHttpApiEvent({ method: 'POST', url: '/health' }), context)) as HttpResponse;
    expect(post.headers.allow).toBe('GET, HEAD');
    const headSolve = (await handler(buildHttpApiEvent({ method: 'HEAD', url: '/solve' }), context)) as HttpResponse;
    expect(headSolve.statusCode).toBe(405);
    expect(headSolve.headers.allow).toBe('POST');
  });

  it('answers 405 for an OPTIONS that is not a CORS preflight, on known routes', async () => {
    const result = (await handler(buildHttpApiEvent({ method: 'OPTIONS', url: '/health' }), context)) as HttpResponse;
    expect(result.statusCode).toBe(405);
  });

  it('answers 404 for paths that only look like routes', async () => {
    for (const url of ['/Solve', '/solve/x', '/constructor', '/__proto__', '/toString']) {
      const result = (await handler(buildHttpApiEvent({ method: 'GET', url }), context)) as HttpResponse;
      expect(result.statusCode, url).toBe(404);
    }
  });
});

describe('charset and content coding', () => {
  it('takes charset=us-ascii (a subset of UTF-8) for an ASCII body, and refuses non-ASCII labelled so with 400', async () => {
    for (const type of ['application/json; charset=us-ascii', 'text/plain; charset=US-ASCII']) {
      const body = type.startsWith('application/json') ? JSON.stringify({ board: EASY }) : EASY;
      expect((await post(body, type)).statusCode, type).toBe(200);
      const mislabelled = await post(type.startsWith('application/json') ? '{"board":"é"}' : 'é', type);
      expect(mislabelled.statusCode, type).toBe(400);
      expect(JSON.parse(mislabelled.body).type).toMatch(/invalid-encoding$/);
    }
  });

  it('refuses any other charset with 415', async () => {
    for (const charset of ['latin1', 'iso-8859-1', 'utf-16', 'ascii-ish']) {
      expect((await post(EASY, `text/plain; charset=${charset}`)).statusCode, charset).toBe(415);
    }
  });

  it('refuses a compressed body with 415 unsupported-content-encoding and Accept-Encoding: identity, not a base64 message', async () => {
    const gzipped = gzipSync(JSON.stringify({ board: EASY }));
    const event = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipped,
    });
    const result = (await handler(event, context)) as HttpResponse;
    expect(result.statusCode).toBe(415);
    expect(result.headers['accept-encoding']).toBe('identity');
    const details = JSON.parse(result.body);
    expect(details.type).toMatch(/unsupported-content-encoding$/);
    expect(details.detail).not.toMatch(/base64/);
    // identity is no coding at all
    const identity = await post(JSON.stringify({ board: EASY }), 'application/json', (e) => {
      e.headers['content-encoding'] = 'identity';
    });
    expect(identity.statusCode).toBe(200);
  });
});

describe('content-type parsing', () => {
  it('reads the essence and parameters of a media type', () => {
    expect(parseMediaType('text/plain; charset="utf-8"; x=1')).toEqual({
      essence: 'text/plain',
      params: { charset: 'utf-8', x: '1' },
    });
  });

  it('gives undefined for a missing or malformed header', () => {
    expect(parseMediaType(undefined)).toBeUndefined();
    expect(parseMediaType('json')).toBeUndefined();
    expect(parseMediaType('; charset=utf-8')).toBeUndefined();
  });
});
