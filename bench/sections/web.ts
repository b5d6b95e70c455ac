/**
 * The web page served at GET /: its size, what carrying it costs the handler's cold start (the
 * page is a chunk the first GET / imports, so none is expected), and what serving it costs. The cost is measured against the same handler bundle built without the
 * page (functions/web/index.ts stubbed out: no page string, no page code), both imported in fresh
 * processes, interleaved.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { pageHtml } from '../../scripts/page-html.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Import times differ by about 1 ms from run to run here: many runs, interleaved, and the median. */
const RUNS = 41;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The page's own code as the bundle holds it (functions/web/index.ts with the build-time
 * page-source), bundled alone and without the banner: what the page adds to the handler's source.
 */
async function buildPageModule(outdir: string): Promise<string> {
  const { bundleOptions } = (await import(pathToFileURL(path.join(root, 'scripts', 'bundles.mjs')).href)) as {
    bundleOptions(name: string): esbuild.BuildOptions;
  };
  const options = bundleOptions('handler');
  const outfile = path.join(outdir, 'page.mjs');
  await esbuild.build({
    ...options,
    entryPoints: [path.join(root, 'functions', 'web', 'index.ts')],
    splitting: false,
    outdir: undefined,
    entryNames: undefined,
    chunkNames: undefined,
    outExtension: undefined,
    outfile,
    sourcemap: false,
    banner: {},
  });
  return outfile;
}

/**
 * Parse, compile and run that code, in µs (median of 300, each a fresh source so V8's cache does
 * not help), against an empty script: what the page adds to a cold start, below process noise.
 */
function compileCost(file: string): { page: number; empty: number } {
  const code = readFileSync(file, 'utf8')
    // createRequire under whatever name esbuild gave it (it was `l`, now `h`: a fixed name broke this).
    .replace(/^import\{createRequire as (\w+)\}from"node:module";/, 'var $1=()=>()=>0;')
    .replaceAll('import.meta.url', '""')
    .replace(/export\{[^}]*\};?\s*$/, '');
  const time = (body: string) => {
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const source = `(()=>{${body}\n})();//${i}`;
      const start = performance.now();
      new vm.Script(source).runInThisContext();
      times.push((performance.now() - start) * 1000);
    }
    return median(times);
  };
  time('var x = 1;');
  time(code);
  return { page: time(code), empty: time('var x = 1;') };
}

/** Build dist/handler's bundle into `outdir`, optionally with the page left out. */
async function buildHandler(outdir: string, withPage: boolean): Promise<string> {
  const { bundleOptions } = (await import(pathToFileURL(path.join(root, 'scripts', 'bundles.mjs')).href)) as {
    bundleOptions(name: string): esbuild.BuildOptions;
  };
  const options = bundleOptions('handler');
  const noPage: esbuild.Plugin = {
    name: 'no-page',
    setup(build) {
      build.onLoad({ filter: /[\\/]functions[\\/]web[\\/]index\.ts$/ }, () => ({
        contents: "export function pageResponse() { return { headers: {}, body: '', isBase64Encoded: false }; }",
        loader: 'js',
      }));
    },
  };
  await esbuild.build({
    ...options,
    outdir,
    sourcemap: false,
    plugins: [...(withPage ? [] : [noPage]), ...(options.plugins ?? [])],
  });
  return path.join(outdir, 'index.mjs');
}

/**
 * In a fresh process: the import() of the bundle; then a first GET /health (the handler's own
 * first-call cost), the first GET / (gzip) and warm GET / (median of 2000), in ms.
 */
const RUNNER = `
const url = process.argv[1];
let t = performance.now();
const { handler } = await import(url);
const imported = performance.now() - t;
const ctx = { getRemainingTimeInMillis: () => 30000, awsRequestId: 'bench', functionName: 'sudoku' };
const get = (rawPath) => ({ version: '2.0', routeKey: '$default', rawPath, rawQueryString: '', headers: { 'accept-encoding': 'gzip, deflate, br' },
  requestContext: { http: { method: 'GET', path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
  requestId: 'r', routeKey: '$default', stage: '$default', time: '', timeEpoch: 0 }, isBase64Encoded: false });
const event = get('/');
let health = NaN, first = NaN, warm = NaN;
if (process.argv[2] === 'serve') {
  t = performance.now();
  await handler(get('/health'), ctx);
  health = performance.now() - t;
  t = performance.now();
  const r = await handler(event, ctx);
  first = performance.now() - t;
  if (r.statusCode !== 200) process.exit(1);
  const times = [];
  for (let i = 0; i < 2000; i++) { t = performance.now(); await handler(event, ctx); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  warm = times[times.length >> 1];
}
process.stdout.write(JSON.stringify({ imported, health, first, warm }));
`;

interface ChildTimes {
  imported: number;
  health: number;
  first: number;
  warm: number;
}

function runChild(bundle: string, serve: boolean): ChildTimes {
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', RUNNER, pathToFileURL(bundle).href, serve ? 'serve' : ''],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    },
  );
  if (child.status !== 0) throw new Error(`bench child failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as ChildTimes;
}

export async function run(): Promise<void> {
  console.log('\n## Web page (GET /)\n');
  // As served: page.html with its script (functions/web/page/*.ts) bundled and inlined.
  const html = Buffer.from(pageHtml(path.join(root, 'functions', 'web')).html);
  const gzipped = gzipSync(html, { level: 9 });
  console.log(
    `page            functions/web/page.html and page/*.ts ${html.length} bytes, gzip ${gzipped.length} bytes ` +
      `(${Math.ceil(gzipped.length / 3) * 4} bytes of base64 in the bundle)`,
  );

  const work = mkdtempSync(path.join(tmpdir(), 'sudoku-bench-web-'));
  try {
    const withPage = await buildHandler(path.join(work, 'with'), true);
    const without = await buildHandler(path.join(work, 'without'), false);
    // The page sits in a chunk of its own, read by the first GET / (routes.ts): count every file.
    const bytes = (entry: string) =>
      readdirSync(path.dirname(entry), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs'))
        .reduce((sum, file) => sum + statSync(path.join(path.dirname(entry), file)).size, 0);
    const a = bytes(withPage);
    const b = bytes(without);
    console.log(
      `bundle          .mjs files ${a} bytes with the page, ${b} without (+${a - b} bytes; index.mjs ` +
        `${statSync(withPage).size} and ${statSync(without).size}: the page loads on the first GET /)`,
    );
    runChild(withPage, false);
    runChild(without, false);
    const importWith: number[] = [];
    const importWithout: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      importWith.push(runChild(withPage, false).imported);
      importWithout.push(runChild(without, false).imported);
    }
    const mw = median(importWith);
    const mo = median(importWithout);
    console.log(
      `cold import     import() of index.mjs ${mw.toFixed(2)} ms with the page, ${mo.toFixed(2)} ms without ` +
        `(${mw - mo >= 0 ? '+' : ''}${(mw - mo).toFixed(2)} ms; median of ${RUNS} fresh processes each, interleaved)`,
    );
    // The same question asked of the page's code alone, in process, where the noise is far smaller.
    const cost = compileCost(await buildPageModule(work));
    console.log(
      `                the page's code alone: parse, compile and run ${cost.page.toFixed(1)} µs vs ${cost.empty.toFixed(1)} µs ` +
        `for an empty script (+${(cost.page - cost.empty).toFixed(1)} µs; median of 300, in process)`,
    );
    const healths: number[] = [];
    const firsts: number[] = [];
    const warms: number[] = [];
    for (let i = 0; i < 9; i++) {
      const served = runChild(withPage, true);
      healths.push(served.health);
      firsts.push(served.first);
      warms.push(served.warm);
    }
    console.log(
      `serving         first GET / (gzip) in a fresh process ${median(firsts).toFixed(2)} ms (once per container; the first ` +
        `GET /health before it took ${median(healths).toFixed(2)} ms); ` +
        `warm GET / ${(median(warms) * 1000).toFixed(1)} µs (handler, logs off; median of 9 processes)`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// Runnable alone: `npx tsx bench/sections/web.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
