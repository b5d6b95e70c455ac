import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/handler/index.js';
import type { HttpResponse } from '../../functions/http/index.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { acceptsGzip, contentSecurityPolicy, inlineBlockHashes } from '../../functions/web/index.js';
import { pageHtml } from '../../scripts/page-html.mjs';
import { root } from './local-system.js';

const webDir = path.join(root, 'functions', 'web');
/** page.html as written: markup and style, and where the script goes. */
const template = readFileSync(path.join(webDir, 'page.html'), 'utf8');
/** The page as served: the script (functions/web/page/*.ts) bundled and inlined. */
const { html } = pageHtml(webDir);

async function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<HttpResponse> {
  return (await handler(buildHttpApiEvent({ method, url, headers }), createLambdaContext())) as HttpResponse;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('GET / (the handler, run from source)', () => {
  it('answers the page as text/html, identity-encoded when the client does not take gzip', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBe('accept-encoding');
    expect(response.isBase64Encoded).toBe(false);
    expect(response.body).toBe(html);
  });

  it('answers it gzip-compressed, base64 as API Gateway takes binary bodies, when Accept-Encoding allows', async () => {
    const response = await get('/', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('accept-encoding');
    expect(response.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(response.body, 'base64')).toString('utf8')).toBe(html);
  });

  it('also through a named stage and with a trailing slash; other methods get 405 problem+json', async () => {
    const event = buildHttpApiEvent({ method: 'GET', url: '/prod/' });
    event.requestContext.stage = 'prod';
    const staged = (await handler(event, createLambdaContext())) as HttpResponse;
    expect(staged.statusCode).toBe(200);
    const post = await get('/', {}, 'POST');
    expect(post.statusCode).toBe(405);
    expect(post.headers['content-type']).toBe('application/problem+json');
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('sends a CSP that admits exactly the inline script and style of the page, and nothing from elsewhere', async () => {
    const csp = (await get('/')).headers['content-security-policy']!;
    const script = html.match(/<script type="module">([\s\S]*?)<\/script>/)![1]!;
    const style = html.match(/<style>([\s\S]*?)<\/style>/)![1]!;
    expect(csp).toContain(`script-src ${sha256(script)}`);
    expect(csp).toContain(`style-src ${sha256(style)}`);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:|unsafe|\*/);
    expect(inlineBlockHashes('<script>a</script><p><script type="module">b</script>', 'script')).toEqual([
      sha256('a'),
      sha256('b'),
    ]);
    expect(contentSecurityPolicy({ scriptHashes: [], styleHashes: [] })).toContain("script-src 'none'");
  });
});

describe('the page itself', () => {
  it('loads nothing from another host and calls the API by relative URLs only', () => {
    expect(html).not.toMatch(/(src|href|action)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/@import|url\(/);
    // The client's base is the page's own folder: the API's routes sit beside the page, on its origin and stage.
    expect(html).toMatch(/baseUrl:new URL\(["']\.["'],location\.href\)\.href/);
    expect(html).toContain('href="openapi.json"');
  });

  it('keeps markup and style in page.html; its script, bundled from the TypeScript modules, is the one inline script served', () => {
    expect(template).toMatch(/<script type="module" src="page\/main.ts"><\/script>/);
    expect(template.match(/<script\b/g)).toHaveLength(1);
    expect(html).not.toContain('src="page/main.ts"');
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html.match(/<script type="module">([\s\S]*?)<\/script>/)![1]!.length).toBeGreaterThan(10_000);
    expect(html.replace(/<script type="module">[\s\S]*?<\/script>/, '')).toBe(
      template.replace(/<script type="module" src="page\/main.ts"><\/script>/, ''),
    );
  });

  it("splits files through the typed client, which cuts by the API's limits as the router enforces them (one source: functions/contract/api-limits.ts)", () => {
    const batch = readFileSync(path.join(webDir, 'page', 'batch.ts'), 'utf8');
    expect(batch).toMatch(/\bclient\.solveLines\(/);
    const cutting = readFileSync(path.join(webDir, '..', 'client', 'request-cutting.ts'), 'utf8');
    expect(cutting).toMatch(/import \{ MAX_BOARDS, MAX_BODY_BYTES \} from '..\/contract\/api-limits.js';/);
  });

  // Issue 25 made it a place to play (hints, checks, pencil marks, files of any length): 54 KB raw
  // and 17 KB gzip; its script minified since issue 38, 39 KB and 14 KB. The budget keeps it there.
  it('stays small: under 64 KiB raw and 20 KiB gzip-compressed', async () => {
    const gzipped = Buffer.from((await get('/', { 'accept-encoding': 'gzip' })).body, 'base64');
    expect(Buffer.byteLength(html)).toBeLessThan(64 * 1024);
    expect(gzipped.length).toBeLessThan(20 * 1024);
  });
});

describe('Accept-Encoding', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZIP;q=0.5', true],
    ['deflate, br', false],
    ['br, gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*', true],
    ['*;q=0', false],
    ['identity, x-gzip', true],
  ])('%s -> gzip %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('GET / from the built bundle (dist/handler), as deployed', () => {
  it('serves the same page, precompressed at build time, under the same CSP', () => {
    const bundle = path.join(root, 'dist', 'handler', 'index.mjs');
    if (!existsSync(bundle)) throw new Error('dist/handler/index.mjs is missing: run `npm run build`');
    // The bundle holds the page inline: it must not read functions/web/page.html at run time.
    expect(readFileSync(bundle, 'utf8')).not.toContain('page.html');
    const runner = `
      const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
      const event = (ae) => ({ version: '2.0', routeKey: '$default', rawPath: '/', rawQueryString: '',
        headers: ae ? { 'accept-encoding': ae } : {}, requestContext: { http: { method: 'GET', path: '/', protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1', userAgent: 't' }, requestId: 'r', routeKey: '$default', stage: '$default', time: '', timeEpoch: 0 },
        isBase64Encoded: false });
      const ctx = { getRemainingTimeInMillis: () => 30000, awsRequestId: 'x', functionName: 'f' };
      process.stdout.write(JSON.stringify([await handler(event('gzip'), ctx), await handler(event(), ctx)]));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', runner], {
      cwd: path.dirname(bundle),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    });
    expect(run.status, run.stderr).toBe(0);
    const [gzipped, plain] = JSON.parse(run.stdout) as [HttpResponse, HttpResponse];
    expect(gzipped.isBase64Encoded).toBe(true);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gzipped.body, 'base64')).toString('utf8')).toBe(html);
    expect(plain.body).toBe(html);
    // The hashes computed at build time (scripts/bundles.mjs) are those computed from source.
    expect(plain.headers['content-security-policy']).toBe(
      contentSecurityPolicy({
        scriptHashes: inlineBlockHashes(html, 'script'),
        styleHashes: inlineBlockHashes(html, 'style'),
      }),
    );
    expect(gzipped.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
  });
});
