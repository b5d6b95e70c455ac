import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { pageGzipBase64 } from './page-source.js';

/** The page's HTTP answer, in the shape of an API Gateway (payload 2.0) result without its status. */
export interface PageResponse {
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

interface Page {
  html: string;
  gzipBase64: string;
  headers: Record<string, string>;
}

let page: Page | undefined;

/** Decoded, hashed and its headers built once per container, on the first GET /. */
function loadPage(): Page {
  if (page) return page;
  const gzipBase64 = pageGzipBase64();
  const html = gunzipSync(Buffer.from(gzipBase64, 'base64')).toString('utf8');
  page = {
    html,
    gzipBase64,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(html),
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
export function contentSecurityPolicy(html: string): string {
  const hashes = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))]
      .map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`)
      .join(' ');
  return [
    "default-src 'self'",
    `script-src ${hashes('script')}`,
    `style-src ${hashes('style')}`,
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
  const { html, gzipBase64, headers } = loadPage();
  if (acceptsGzip(acceptEncoding)) {
    return { headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipBase64, isBase64Encoded: true };
  }
  return { headers: { ...headers }, body: html, isBase64Encoded: false };
}
