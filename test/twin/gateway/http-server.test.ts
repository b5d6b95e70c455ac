import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY_ANSWERS, GATEWAY_MAX_REQUEST_LINE_AND_HEADER_BYTES } from '../../../functions/http/gateway-answers.js';
import { startHttpServer, type LambdaHandler, type RunningHttpServer } from '../../../twin/gateway/http-server.js';
import { exchange, rawRequest } from '../../helpers/raw-http.js';

let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: LambdaHandler): Promise<string> {
  server = await startHttpServer({ port: 0, handler, onHandlerError: () => undefined });
  return server.url;
}

describe('startHttpServer (the local stand-in for API Gateway)', () => {
  it('hands the handler a payload 2.0 event of the real request, with a Lambda context', async () => {
    let seen: APIGatewayProxyEventV2 | undefined;
    let requestId = '';
    const url = await serve(async (event, context) => {
      seen = event as APIGatewayProxyEventV2;
      requestId = context.awsRequestId;
      return { statusCode: 204 };
    });
    const response = await fetch(`${url}/solve?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'X-Custom': 'A' },
      body: 'hello',
    });
    expect(response.status).toBe(204);
    expect(seen).toMatchObject({
      version: '2.0',
      rawPath: '/solve',
      rawQueryString: 'x=1',
      body: 'hello',
      isBase64Encoded: false,
      headers: { 'x-custom': 'A' },
    });
    expect(seen!.requestContext.http.method).toBe('POST');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('apigw-requestid')).toBe(seen!.requestContext.requestId);
  });

  it('answers with the structured result: status, headers, cookies, and a base64 body decoded', async () => {
    const url = await serve(async () => ({
      statusCode: 201,
      headers: { 'content-type': 'application/octet-stream', 'x-n': 1 },
      cookies: ['a=1', 'b=2'],
      body: Buffer.from([0, 1, 255]).toString('base64'),
      isBase64Encoded: true,
    }));
    const response = await fetch(url);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-n')).toBe('1');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0, 1, 255]);
  });

  it('answers a result without statusCode as 200 JSON, as API Gateway infers it', async () => {
    const url = await serve(async () => ({ hello: 'world' }));
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ hello: 'world' });
  });

  it('answers 500 {"message":"Internal Server Error"} when the handler throws, as API Gateway does', async () => {
    const url = await serve(async () => {
      throw new Error('boom');
    });
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: 'Internal Server Error' });
  });

  it('refuses a body over 10 MB with 413 before the handler runs, as API Gateway does', async () => {
    let called = false;
    const url = await serve(async () => {
      called = true;
      return { statusCode: 200 };
    });
    const response = await fetch(`${url}/solve`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(called).toBe(false);
  });

  it("refuses a request line and header values over API Gateway's 10,240 bytes with its 431, names not counted", async () => {
    const seen: string[] = [];
    const url = await serve(async (event) => {
      seen.push((event as APIGatewayProxyEventV2).rawPath);
      return { statusCode: 204 };
    });
    // rawRequest sends `host: 127.0.0.1` and `connection: close`: their values count, as the line does.
    const fixed = Buffer.byteLength('GET /health HTTP/1.1') + '127.0.0.1'.length + 'close'.length;
    const padded = (path: string, valueBytes: number, names = 1) => {
      const headers: Record<string, string> = {};
      const each = Math.floor(valueBytes / names);
      for (let i = 0; i < names; i++) {
        const name = `x-${'n'.repeat(1000)}-${i}`;
        headers[name] = 'v'.repeat(i === names - 1 ? valueBytes - each * (names - 1) : each);
      }
      return rawRequest({ method: 'GET', target: path, headers });
    };
    const limit = GATEWAY_MAX_REQUEST_LINE_AND_HEADER_BYTES - fixed;
    const atLimit = await exchange(url, padded('/health', limit));
    expect(atLimit.status).toBe(204);
    // Over 16 KiB of head, Node's own default, with the values still within the quota.
    const longNames = await exchange(url, padded('/health', limit, 16));
    expect(longNames.status).toBe(204);
    const over = await exchange(url, padded('/health', limit + 1));
    expect(over.status).toBe(431);
    expect(over.headers['content-type']).toBe('application/json');
    expect(JSON.parse(over.body)).toEqual({ message: GATEWAY_ANSWERS.headersTooLarge.message });
    expect(over.headers['apigw-requestid']).toMatch(/^[A-Za-z0-9+/]{14}==$/);
    expect(seen).toEqual(['/health', '/health']);
  });

  it("puts the apigw-requestid of the event on every answer, the gateway's own included", async () => {
    const ids: string[] = [];
    server = await startHttpServer({
      port: 0,
      onHandlerError: () => undefined,
      limits: { routeThrottles: { 'GET /throttled': { rate: 0.001, burst: 0 } }, reservedConcurrency: 0 },
      handler: async (event) => {
        const { rawPath, requestContext } = event as APIGatewayProxyEventV2;
        ids.push(requestContext.requestId);
        if (rawPath === '/boom') throw new Error('boom');
        return { statusCode: 404, body: '{}' };
      },
    });
    const handled = await fetch(`${server.url}/nowhere`);
    expect(handled.status).toBe(404);
    expect(handled.headers.get('apigw-requestid')).toBe(ids.at(-1));
    const failed = await fetch(`${server.url}/boom`);
    expect(failed.status).toBe(500);
    expect(failed.headers.get('apigw-requestid')).toBe(ids.at(-1));
    const gatewayOnly = [
      await fetch(`${server.url}/throttled`),
      await fetch(`${server.url}/solve`, { method: 'POST', body: 'x'.repeat(10 * 1024 * 1024 + 1) }),
      await fetch(`${server.url}/health`, {
        headers: { 'x-big': 'x'.repeat(GATEWAY_MAX_REQUEST_LINE_AND_HEADER_BYTES) },
      }),
    ];
    expect(gatewayOnly.map((r) => r.status)).toEqual([429, 413, 431]);
    const malformed = await exchange(
      server.url,
      'GET /health HTTP/1.1\r\nhost: x\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n',
    );
    expect(malformed.status).toBe(400);
    const gatewayIds = [
      ...gatewayOnly.map((r) => r.headers.get('apigw-requestid')),
      malformed.headers['apigw-requestid'],
    ];
    for (const id of gatewayIds) expect(id).toMatch(/^[A-Za-z0-9+/]{14}==$/);
    expect(new Set([...gatewayIds, ...ids]).size).toBe(gatewayIds.length + ids.length);
    expect(ids).toHaveLength(2);
  });

  it('stops listening on close', async () => {
    const url = await serve(async () => ({ statusCode: 200 }));
    await server!.close();
    server = undefined;
    await expect(fetch(url)).rejects.toThrow();
  });
});
