import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * The page (page.html beside this file), gzip-compressed at level 9, in base64: the form API
 * Gateway takes a binary body in. Run from source (tsx, vitest) it is read and compressed on first
 * use; in the bundle, scripts/bundles.mjs replaces this module with the same string computed at
 * build time, so the deployed function carries a few KB of text and does no work until GET /.
 */
export function pageGzipBase64(): string {
  return gzipSync(readFileSync(new URL('./page.html', import.meta.url)), { level: 9 }).toString('base64');
}
