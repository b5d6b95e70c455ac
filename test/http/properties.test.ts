import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/handler/index.js';
import { openApiDocument, type HttpResponse } from '../../functions/http/index.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { EASY, EASY_SOLUTION, toChars, toNumbers } from '../helpers/boards.js';
import { SchemaChecker, type Schema } from './json-schema-check.js';
import { openApiMismatches } from './openapi-conformance.js';

const context = createLambdaContext();
const checker = new SchemaChecker(openApiDocument as unknown as Schema);
const problemSchema = openApiDocument.components.schemas.ProblemDetails as unknown as Schema;

const method = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
  fc.string({ maxLength: 10 }),
);
const path = fc.oneof(
  fc.constantFrom(
    '/solve',
    '/health',
    '/openapi.json',
    '/',
    '/solve/',
    '/SOLVE',
    '/solve/x',
    '/prod/solve',
    '//solve',
    '/openapi.json/..',
  ),
  fc.string({ maxLength: 30 }).map((s) => `/${s}`),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset="UTF-8"',
    'text/plain',
    'text/plain; charset=utf-8',
    'text/plain; charset=latin1',
    'application/problem+json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    ';',
    '',
  ),
  fc.string({ maxLength: 40 }),
  fc.constant(undefined),
);

/** Board-like values: solvable boards in every shape, random strings and grids, and junk. */
const solvableString = fc
  .array(fc.boolean(), { minLength: 81, maxLength: 81 })
  .map((keep) => [...EASY_SOLUTION].map((d, i) => (keep[i] ? d : '.')).join(''));
const boardLike = fc.oneof(
  solvableString,
  solvableString.map(toChars),
  solvableString.map(toNumbers),
  fc.string({ unit: fc.constantFrom(...'.0123456789|-+ \nx'), minLength: 70, maxLength: 95 }),
  fc.array(
    fc.array(fc.oneof(fc.integer({ min: -2, max: 12 }), fc.constantFrom('1', '.', '', '10')), { maxLength: 10 }),
    { maxLength: 10 },
  ),
  fc.constantFrom(EASY, null, 0, true, {}, []),
  fc.anything({ maxDepth: 3 }),
);
const body = fc.oneof(
  fc.record({ board: boardLike }).map((v) => JSON.stringify(v)),
  fc.record({ boards: fc.array(boardLike, { maxLength: 8 }) }).map((v) => JSON.stringify(v)),
  fc
    .record({ board: boardLike, boards: fc.array(boardLike, { maxLength: 2 }) }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v)),
  fc
    .tuple(
      fc.array(fc.oneof(solvableString, fc.string({ maxLength: 90 }), fc.constant('')), { maxLength: 8 }),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([lines, eol]) => lines.join(eol)),
  fc.json({ maxDepth: 4 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constant(undefined),
);

interface Sent {
  event: APIGatewayProxyEventV2;
  method: string;
}

/** Most requests aim at POST /solve with a content type it takes, so the solving paths get most of the runs. */
const aimed = fc.record({
  method: fc.constant('POST'),
  path: fc.constant('/solve'),
  contentType: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8'),
  body,
  base64: fc.boolean(),
  bytes: fc.constant(null),
  stage: fc.constantFrom('$default', 'prod'),
});
/** POST /solve with any content type. */
const anyType = fc.record({
  method: fc.constant('POST'),
  path: fc.constant('/solve'),
  contentType,
  body,
  base64: fc.boolean(),
  bytes: fc.option(fc.uint8Array({ maxLength: 64 })),
  stage: fc.constant('$default'),
});
const anything = fc.record({
  method,
  path,
  contentType,
  body,
  base64: fc.boolean(),
  bytes: fc.option(fc.uint8Array({ maxLength: 64 })),
  stage: fc.constantFrom('$default', 'prod'),
});

/** Random requests, built as API Gateway would deliver them, sometimes base64-encoded or through a named stage. */
const request = fc
  .oneof({ arbitrary: aimed, weight: 3 }, { arbitrary: anyType, weight: 1 }, { arbitrary: anything, weight: 2 })
  .map(({ method, path, contentType, body, base64, bytes, stage }): Sent => {
    const event = buildHttpApiEvent({
      method: method || 'GET',
      url: path,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
      ...(bytes ? { body: Buffer.from(bytes) } : body === undefined ? {} : { body }),
    });
    if (base64 && event.body !== undefined && !event.isBase64Encoded) {
      event.body = Buffer.from(event.body).toString('base64');
      event.isBase64Encoded = true;
    }
    if (stage !== '$default') {
      event.requestContext.stage = stage;
      event.rawPath = `/${stage}${event.rawPath}`;
    }
    // The gateway never sends an empty method; a random one is still sent as given.
    event.requestContext.http.method = method;
    return { event, method };
  });

function routePathOf(event: APIGatewayProxyEventV2): string {
  const stage = event.requestContext.stage;
  // As the adapter (functions/http/request.ts): an empty path is the root, now served (GET /).
  return (stage !== '$default' ? event.rawPath.slice(stage.length + 1) : event.rawPath) || '/';
}

describe('the handler under random HTTP requests', () => {
  it('never answers 5xx or throws, and every 4xx is valid problem+json with the same status', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async ({ event }) => {
        const result = (await handler(event, context)) as HttpResponse;
        seen.set(result.statusCode, (seen.get(result.statusCode) ?? 0) + 1);
        expect(result.statusCode).toBeGreaterThanOrEqual(200);
        expect(result.statusCode).toBeLessThan(500);
        if (result.statusCode >= 400) {
          expect(result.headers['content-type']).toBe('application/problem+json');
          const details = JSON.parse(result.body) as { status: number };
          expect(checker.errors(details, problemSchema)).toEqual([]);
          expect(details.status).toBe(result.statusCode);
        }
      }),
      { numRuns: 600 },
    );
    // The generator must reach the answers it claims to test, not only 404s.
    expect([...seen.keys()].sort()).toEqual(expect.arrayContaining([200, 400, 404, 405, 415]));
    expect(seen.get(200)).toBeGreaterThan(50);
  });

  it('answers every random request as the OpenAPI document describes', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ event, method }) => {
        const result = (await handler(event, context)) as HttpResponse;
        const path = routePathOf(event);
        const mismatches = openApiMismatches(openApiDocument, {
          method: method.toUpperCase(),
          path,
          status: result.statusCode,
          contentType: result.headers['content-type'],
          body: result.body,
        });
        expect(mismatches).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('answers a text/plain body with exactly one line per input line', async () => {
    const lines = fc.array(
      fc.oneof(
        solvableString,
        fc.string({ maxLength: 90 }).filter((s) => !s.includes('\n')),
        fc.constant(''),
      ),
      { minLength: 1, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(lines, async (input) => {
        const event = buildHttpApiEvent({
          method: 'POST',
          url: '/solve',
          headers: { 'content-type': 'text/plain' },
          body: input.join('\n'),
        });
        const result = (await handler(event, context)) as HttpResponse;
        if (input.every((l) => l.trim() === '')) {
          expect(result.statusCode).toBe(400);
          return;
        }
        expect(result.statusCode).toBe(200);
        const out = result.body.split('\n');
        expect(out).toHaveLength(input.length);
        out.forEach((line, i) => {
          if (input[i]!.trim() === '') expect(line).toBe('');
          else expect(line).toMatch(new RegExp(`^([1-9]{81}|error line ${i + 1}: [A-Z_]+: .+)$`));
        });
      }),
      { numRuns: 300 },
    );
  });
});
