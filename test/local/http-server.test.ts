import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type LambdaHandler, type RunningHttpServer } from '../../functions/local/http-server.js';

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

  it('stops listening on close', async () => {
    const url = await serve(async () => ({ statusCode: 200 }));
    await server!.close();
    server = undefined;
    await expect(fetch(url)).rejects.toThrow();
  });
});
