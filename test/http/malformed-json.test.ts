// A body that is not JSON is answered 400 malformed-json with the place where it stops being JSON,
// in fields a program reads (position, line, column), whatever V8's message says. Checked against
// V8's own position wherever its message gives one, on random damaged JSON texts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/handler/index.js';
import type { HttpResponse } from '../../functions/http/index.js';
import { jsonErrorPlace } from '../../functions/http/json-body.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';

const context = createLambdaContext();

async function post(url: string, body: string): Promise<{ status: number; problem: Record<string, unknown> }> {
  const event = buildHttpApiEvent({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body });
  const response = (await handler(event, context)) as HttpResponse;
  return { status: response.statusCode, problem: JSON.parse(response.body ?? '{}') as Record<string, unknown> };
}

/** V8's position (0-based, UTF-16 units) when its message names one. */
function v8Position(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const match = /at position (\d+)/.exec((error as Error).message);
    if (match) return Number(match[1]);
    return /Unexpected end of JSON input/.test((error as Error).message) ? text.length : undefined;
  }
}

describe('a body that is not JSON', () => {
  it.each([
    ['{"board": [1,2,}', 16, 1, 16],
    ['{"board": "1.3', 15, 1, 15],
    ['', 1, 1, 1],
    ['{\n  "board": x\n}', 14, 2, 12],
    ['{"board": "é"} tail', 16, 1, 16],
    ['{"board": "\u{1F600}",}', 15, 1, 15],
  ])(
    '%j: 400 malformed-json at position %i (line %i, column %i) on every route',
    async (body, position, line, column) => {
      for (const url of ['/solve', '/grade', '/hint']) {
        const { status, problem } = await post(url, body);
        expect(status).toBe(400);
        expect(problem).toMatchObject({ type: expect.stringMatching(/malformed-json$/), position, line, column });
      }
    },
  );

  it('is placed where V8 places it, whenever V8 names a place (random damaged JSON)', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.json({ maxDepth: 3 }),
        fc.nat(),
        fc.constantFrom('', '}', ']', ',', ':', 'x', '"', '\u0001', '{'),
        (json, at, insert) => {
          const cut = at % (json.length + 1);
          const text = json.slice(0, cut) + insert + json.slice(insert === '' ? Math.max(cut, 1) : cut);
          const expected = v8Position(text);
          if (expected === undefined || /[\u{10000}-\u{10FFFF}]/u.test(text.slice(0, expected))) return;
          compared++;
          expect(jsonErrorPlace(text).position).toBe(expected + 1);
        },
      ),
      { numRuns: 2000 },
    );
    expect(compared).toBeGreaterThan(500);
  });

  it('is scanned without recursion: a body nested a million deep gets its place too', async () => {
    const body = `{"board": ${'['.repeat(1_000_000)}}`;
    expect(jsonErrorPlace(body)).toEqual({ position: 1_000_011, line: 1, column: 1_000_011 });
  });
});
