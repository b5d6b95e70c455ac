// The twin's gateway with the routes' authorization of the stack synthesized with apiAuth=iam: a
// browser opens the page unsigned, every API route refuses an unsigned request with API Gateway's 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey } from '../../../functions/contract/api-routes.js';
import { gatewayAuthorization } from '../../../twin/gateway/gateway-authorization.js';
import { type RunningHttpServer, startHttpServer } from '../../../twin/gateway/http-server.js';
import { loadStackTemplate } from '../../../twin/iam/stack-template.js';

const SIGNED =
  'AWS4-HMAC-SHA256 Credential=LOCALCLIENT/20261205/us-east-1/execute-api/aws4_request, SignedHeaders=host, Signature=00';

let server: RunningHttpServer;
let invoked: string[];
beforeAll(async () => {
  const authorization = gatewayAuthorization(await loadStackTemplate({ apiAuth: 'iam' }));
  invoked = [];
  server = await startHttpServer({
    port: 0,
    authorization,
    handler: async (event) => {
      invoked.push((event as { routeKey: string; rawPath: string }).rawPath);
      return { statusCode: 200, body: 'ok' };
    },
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('the gateway with apiAuth=iam', () => {
  it('serves the page (GET /) to an unsigned browser request', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(invoked).toContain('/');
  });

  it('refuses an unsigned request to every API route with 403 {"message":"Forbidden"}, the function never invoked', async () => {
    const before = invoked.length;
    for (const name of ['solve', 'grade', 'hint', 'puzzle', 'health', 'openapi'] as const) {
      const [method, path] = routeKey(name).split(' ') as [string, string];
      const answer = await fetch(`${server.url}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(answer.status, name).toBe(403);
      expect(await answer.json()).toEqual({ message: 'Forbidden' });
    }
    // $default too: a path no route names.
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(403);
    expect(invoked.length).toBe(before);
  });

  it('passes a signed request to an API route, and an unsigned CORS preflight', async () => {
    const signed = await fetch(`${server.url}/solve`, {
      method: 'POST',
      body: '{}',
      headers: { authorization: SIGNED },
    });
    expect(signed.status).toBe(200);
    const preflight = await fetch(`${server.url}/solve`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(200);
  });
});
