import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { pageHtml } from '../../scripts/page-html.mjs';

/** The page as the function carries it: compressed, with the hashes its CSP needs. */
export interface PageSource {
  /** The page gzip-compressed (level 9), in base64: the form API Gateway takes a binary body in. */
  gzipBase64: string;
  /** CSP sources (`'sha256-...'`) of the inline `<script>` blocks, in order. */
  scriptHashes: string[];
  /** The same for the `<style>` blocks. */
  styleHashes: string[];
}

/**
 * Run from source (tsx, vitest), the page is assembled (page.html beside this file, its script
 * bundled from page/ by esbuild: scripts/page-html.mjs), compressed and hashed on first use. In the bundle, scripts/bundles.mjs replaces this module with the same values computed
 * at build time (a test checks they agree), so the deployed function carries a few KB of string
 * and loads neither zlib nor crypto to answer a browser.
 */
export function pageSource(): PageSource {
  const { html } = pageHtml(fileURLToPath(new URL('.', import.meta.url)));
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
