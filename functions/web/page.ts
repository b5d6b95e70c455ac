import { createRequire } from 'node:module';
import { pageSource, type PageSource } from './page-source.js';

/**
 * node:zlib is loaded only to answer a client that does not take gzip (browsers all do): the
 * handler does not import it otherwise, and loading it would cost every cold start.
 */
const load = createRequire(import.meta.url);
const zlib = () => load('node:zlib') as typeof import('node:zlib');

/** The page's HTTP answer, in the shape of an API Gateway (payload 2.0) result without its status. */
export interface PageResponse {
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

interface Page {
  source: PageSource;
  headers: Record<string, string>;
  /** Decoded on the first request that does not accept gzip. */
  html?: string;
}

let page: Page | undefined;

/** Built once per container, on the first GET /. */
function loadPage(): Page {
  if (page) return page;
  const source = pageSource();
  page = {
    source,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(source),
      // The same URL answers gzip or identity depending on the request: caches must key on it.
      vary: 'accept-encoding',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    },
  };
  return page;
}

/**
 * Nothing from another origin: scripts and styles only as the inline blocks of this page (by
 * their sha256), requests only to the API itself, no framing, no form posts elsewhere.
 */
export function contentSecurityPolicy(hashes: Pick<PageSource, 'scriptHashes' | 'styleHashes'>): string {
  return [
    "default-src 'self'",
    `script-src ${hashes.scriptHashes.join(' ') || "'none'"}`,
    `style-src ${hashes.styleHashes.join(' ') || "'none'"}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Whether an Accept-Encoding header (RFC 9110 §12.5.3) admits gzip. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name === 'gzip' || name === 'x-gzip') return allowed;
    if (name === '*') star = allowed;
  }
  return star;
}

/** GET /: the page, gzip-compressed (base64, as API Gateway passes binary bodies) when the client takes it. */
export function pageResponse(acceptEncoding: string | undefined): PageResponse {
  const loaded = loadPage();
  if (acceptsGzip(acceptEncoding)) {
    return {
      headers: { ...loaded.headers, 'content-encoding': 'gzip' },
      body: loaded.source.gzipBase64,
      isBase64Encoded: true,
    };
  }
  loaded.html ??= zlib().gunzipSync(Buffer.from(loaded.source.gzipBase64, 'base64')).toString('utf8');
  return { headers: { ...loaded.headers }, body: loaded.html, isBase64Encoded: false };
}
