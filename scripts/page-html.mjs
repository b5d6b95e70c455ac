// The web page as served at GET /: functions/web/page.html (markup and style) with its script, the
// TypeScript modules of functions/web/page/, bundled by esbuild and inlined where page.html names
// them, so the page stays one self-contained document under a hash CSP. scripts/bundles.mjs runs it
// at build time; functions/web/page-source.ts runs it when the handler runs from source.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

/** The one script element page.html has: its src names the entry module, relative to page.html. */
const SCRIPT = /<script type="module" src="([^"]+)"><\/script>/;

/** The page's HTML file and the sources its script is built from (to watch). */
export function pageHtml(webDir) {
  const template = path.join(webDir, 'page.html');
  const html = readFileSync(template, 'utf8');
  const found = html.match(SCRIPT);
  if (!found)
    throw new Error(`${template}: no <script type="module" src="..."></script> to inline the page's script at`);
  const result = buildSync({
    entryPoints: [path.join(webDir, found[1])],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // What the page already needs (CompressionStream, DecompressionStream): browsers of 2023 on.
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text.trim();
  // The browser would end the script at the first `</script`: esbuild escapes it in strings, and
  // the page must not have it anywhere else.
  if (/<\/script/i.test(code)) throw new Error(`${found[1]}: the bundled script contains "</script"`);
  return {
    html: html.replace(SCRIPT, () => `<script type="module">${code}</script>`),
    sources: [template, ...Object.keys(result.metafile.inputs).map((input) => path.resolve(input))],
  };
}
