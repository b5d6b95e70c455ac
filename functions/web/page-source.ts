import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** The page as the function carries it: compressed, with the hashes its CSP needs. */
export interface PageSource {
  /** page.html gzip-compressed (level 9), in base64: the form API Gateway takes a binary body in. */
  gzipBase64: string;
  /** CSP sources (`'sha256-...'`) of the inline `<script>` blocks, in order. */
  scriptHashes: string[];
  /** The same for the `<style>` blocks. */
  styleHashes: string[];
}

/**
 * Run from source (tsx, vitest), page.html beside this file is read, compressed and hashed on
 * first use. In the bundle, scripts/bundles.mjs replaces this module with the same values computed
 * at build time (a test checks they agree), so the deployed function carries a few KB of string
 * and loads neither zlib nor crypto to answer a browser.
 */
export function pageSource(): PageSource {
  const html = readFileSync(new URL('./page.html', import.meta.url), 'utf8');
  return {
    gzipBase64: gzipSync(html, { level: 9 }).toString('base64'),
    scriptHashes: inlineBlockHashes(html, 'script'),
    styleHashes: inlineBlockHashes(html, 'style'),
  };
}

/** `'sha256-<base64>'` of the content of each `<tag ...>...</tag>` block, as CSP Level 2 hashes it. */
export function inlineBlockHashes(html: string, tag: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`,
  );
}
