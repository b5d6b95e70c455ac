import { describe, expect, it } from 'vitest';
import { buildHttpApiEvent } from '../../../twin/gateway/http-api-event.js';
import { isHttpApiEvent } from '../../../functions/http/index.js';

describe('buildHttpApiEvent (what the local server hands the handler)', () => {
  const event = buildHttpApiEvent({
    method: 'post',
    url: '/solve?a=1&a=2&b=x%20y',
    headers: {
      'Content-Type': 'application/json',
      'X-Multi': ['1', '2'],
      Cookie: 'c1=1; c2=2',
      Host: '127.0.0.1:3000',
      'User-Agent': 'curl/8',
    },
    body: '{"board":"x"}',
    time: new Date(Date.UTC(2026, 10, 29, 15, 3, 58)),
  });

  it('is recognised as an HTTP API 2.0 event', () => {
    expect(isHttpApiEvent(event)).toBe(true);
  });

  it('has the payload 2.0 top level: version, $default route, raw path and query', () => {
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/solve',
      rawQueryString: 'a=1&a=2&b=x%20y',
    });
  });

  it('lower-cases header names, joins repeated headers with commas, and moves cookies to `cookies`', () => {
    expect(event.headers).toEqual({
      'content-type': 'application/json',
      'x-multi': '1,2',
      host: '127.0.0.1:3000',
      'user-agent': 'curl/8',
    });
    expect(event.cookies).toEqual(['c1=1', 'c2=2']);
  });

  it('parses the query, joining repeated parameters with commas', () => {
    expect(event.queryStringParameters).toEqual({ a: '1,2', b: 'x y' });
  });

  it('fills requestContext as API Gateway does, with http method, path, source ip and time', () => {
    expect(event.requestContext).toMatchObject({
      http: { method: 'POST', path: '/solve', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'curl/8' },
      routeKey: '$default',
      stage: '$default',
      time: '29/Nov/2026:15:03:58 +0000',
      timeEpoch: Date.UTC(2026, 10, 29, 15, 3, 58),
      domainName: '127.0.0.1:3000',
    });
    expect(event.requestContext.requestId).toMatch(/^[A-Za-z0-9+/]{14}==$/);
  });

  it('passes a JSON or text body as text', () => {
    expect(event).toMatchObject({ body: '{"board":"x"}', isBase64Encoded: false });
  });

  it('base64-encodes a body of a binary content type, and a text body that is not UTF-8', () => {
    const binary = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'abc',
    });
    expect(binary).toMatchObject({ body: 'YWJj', isBase64Encoded: true });
    const latin1 = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from([0xe9]),
    });
    expect(latin1).toMatchObject({ body: '6Q==', isBase64Encoded: true });
  });

  it('leaves out body, cookies and queryStringParameters when there are none', () => {
    const get = buildHttpApiEvent({ method: 'GET', url: '/health' });
    expect(Object.keys(get)).not.toContain('body');
    expect(Object.keys(get)).not.toContain('cookies');
    expect(Object.keys(get)).not.toContain('queryStringParameters');
    expect(get.rawQueryString).toBe('');
  });
});
