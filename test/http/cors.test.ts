import { describe, expect, it } from 'vitest';
import { CORS } from '../../functions/contract/service-layout.js';
import { allowedOrigins, handleHttpEvent } from '../../functions/http/index.js';
import { preflightResponse, withCorsHeaders } from '../../functions/http/cors.js';
import { toHttpRequest } from '../../functions/http/request.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { EASY } from '../helpers/boards.js';

const APP = 'https://app.example.com';

function preflight(url: string, origin = APP, method = 'POST') {
  return buildHttpApiEvent({
    method: 'OPTIONS',
    url,
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'content-type',
    },
  });
}

describe('CORS preflight', () => {
  it('answers a preflight for each route with 204 and the CORS headers the stack configures', async () => {
    for (const url of ['/solve', '/health', '/openapi.json']) {
      const response = await handleHttpEvent(preflight(url));
      expect(response.statusCode, url).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers).toEqual({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': CORS.allowMethods.join(', '),
        'access-control-allow-headers': CORS.allowHeaders.join(', '),
        'access-control-max-age': '86400',
      });
    }
  });

  it('allows only the configured origins when they are listed, and says the answer varies by origin', async () => {
    const origins = allowedOrigins({ [CORS.originsEnv]: `${APP}, https://admin.example.com` });
    expect(origins).toEqual([APP, 'https://admin.example.com']);
    const allowed = preflightResponse(toHttpRequest(preflight('/solve')), origins);
    expect(allowed.headers).toMatchObject({ 'access-control-allow-origin': APP, vary: 'origin' });
    const refused = preflightResponse(toHttpRequest(preflight('/solve', 'https://evil.example')), origins);
    expect(refused.statusCode).toBe(204);
    expect(refused.headers).toEqual({ vary: 'origin' });
    expect(allowedOrigins({})).toEqual(['*']);
  });

  it('answers a preflight for a path the API does not serve with its 404', async () => {
    const response = await handleHttpEvent(preflight('/nowhere'));
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/problem+json');
  });

  it('still answers 405 to an OPTIONS that is not a preflight (no Origin or no requested method)', async () => {
    expect((await handleHttpEvent(buildHttpApiEvent({ method: 'OPTIONS', url: '/solve' }))).statusCode).toBe(405);
    const originOnly = buildHttpApiEvent({ method: 'OPTIONS', url: '/solve', headers: { origin: APP } });
    expect((await handleHttpEvent(originOnly)).statusCode).toBe(405);
  });
});

describe('CORS on actual calls', () => {
  it('lets a cross-origin script read answers and problems, and exposes the text/plain counts', async () => {
    const solved = await handleHttpEvent(
      buildHttpApiEvent({
        method: 'POST',
        url: '/solve',
        headers: { origin: APP, 'content-type': 'text/plain' },
        body: `${EASY}\n`,
      }),
    );
    expect(solved.statusCode).toBe(200);
    expect(solved.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': CORS.exposeHeaders.join(', '),
      'x-sudoku-solved': '1',
    });
    const problem = await handleHttpEvent(
      buildHttpApiEvent({
        method: 'POST',
        url: '/solve',
        headers: { origin: APP, 'content-type': 'application/json' },
        body: '{',
      }),
    );
    expect(problem.statusCode).toBe(400);
    expect(problem.headers['access-control-allow-origin']).toBe('*');
  });

  it('adds nothing to a same-origin call (no Origin header)', async () => {
    const response = await handleHttpEvent(buildHttpApiEvent({ method: 'GET', url: '/health' }));
    expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const request = toHttpRequest(
      buildHttpApiEvent({ method: 'GET', url: '/health', headers: { origin: 'https://x.example' } }),
    );
    expect(withCorsHeaders(request, response, [APP]).headers).toEqual({ ...response.headers, vary: 'origin' });
  });
});
