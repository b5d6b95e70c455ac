// The local stand-in for API Gateway does what the deployed API does at its edges: browser CORS
// (preflight, then the call) through the deployed bundle, and Lambda's 6 MB result limit.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CORS } from '../../../functions/contract/service-layout.js';
import { loadDeployedHandler } from '../../../twin/lambda/deployed-handler.js';
import {
  LAMBDA_MAX_RESULT_BYTES,
  type LambdaHandler,
  type RunningHttpServer,
  startHttpServer,
} from '../../../twin/gateway/http-server.js';
import { EASY, EASY_SOLUTION } from '../../helpers/boards.js';

const APP = 'http://localhost:5173';

describe('a browser on another origin, against the deployed bundle behind the local server', () => {
  let server: RunningHttpServer;
  beforeAll(async () => {
    server = await startHttpServer({ port: 0, handler: await loadDeployedHandler() });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('gets its preflight answered with 204 and the CORS headers, then may read the answer to its POST', async () => {
    const preflight = await fetch(`${server.url}/solve`, {
      method: 'OPTIONS',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(await preflight.text()).toBe('');
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    expect(preflight.headers.get('access-control-max-age')).toBe(String(CORS.maxAgeSeconds));

    const call = await fetch(`${server.url}/solve`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ board: EASY }),
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBe('*');
    expect(call.headers.get('access-control-expose-headers')).toContain('x-sudoku-solved');
    expect(((await call.json()) as { solution: string }).solution).toBe(EASY_SOLUTION);
  });
});

describe("Lambda's 6 MB result limit at the local gateway", () => {
  let server: RunningHttpServer | undefined;
  const errors: unknown[] = [];
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A handler whose result, serialized as JSON, is exactly `bytes` long. */
  function resultOf(bytes: number): LambdaHandler {
    const empty = JSON.stringify({ statusCode: 200, body: '' }).length;
    return async () => ({ statusCode: 200, body: 'A'.repeat(bytes - empty) });
  }

  it('passes a result of exactly the limit, and answers 500 as API Gateway does for one byte more', async () => {
    for (const [bytes, status] of [
      [LAMBDA_MAX_RESULT_BYTES, 200],
      [LAMBDA_MAX_RESULT_BYTES + 1, 500],
    ] as const) {
      server = await startHttpServer({ port: 0, handler: resultOf(bytes), onHandlerError: (e) => errors.push(e) });
      const response = await fetch(`${server.url}/solve`, { method: 'POST', body: '' });
      expect(response.status, `${bytes} bytes`).toBe(status);
      const text = await response.text();
      if (status === 500) {
        expect(JSON.parse(text)).toEqual({ message: 'Internal Server Error' });
        expect(String(errors.at(-1))).toMatch(/ResponseSizeTooLarge/);
      } else {
        expect(text).toHaveLength(bytes - JSON.stringify({ statusCode: 200, body: '' }).length);
      }
      await server.close();
      server = undefined;
    }
  });
});
