// The one definition of how the code is bundled. `npm run build`, the tests, the benchmark and the
// CDK stack all go through this file, so what is tested is byte for byte what is deployed. The
// package's libraries (`sudoku-serverless/construct`, ...) are listed and built here too.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageHtml } from './page-html.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The web page served at GET / goes into the bundle precompressed: functions/web/page-source.ts
 * assembles (scripts/page-html.mjs: page.html with its TypeScript script bundled and inlined),
 * gzips and hashes the page at run time when run from source; here it is replaced by the same
 * values computed once at build time (test/web/page.test.ts checks they agree), so a cold
 * start only scans a few KB of string and GET / needs neither zlib nor crypto.
 */
const precompressedPage = {
  name: 'precompressed-page',
  setup(build) {
    build.onLoad({ filter: /[\\/]functions[\\/]web[\\/]page-source\.ts$/ }, (args) => {
      const { html, sources } = pageHtml(path.dirname(args.path));
      const hashes = (tag) =>
        [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map(
          (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
        );
      const source = {
        gzipBase64: gzipSync(html, { level: 9 }).toString('base64'),
        scriptHashes: hashes('script'),
        styleHashes: hashes('style'),
      };
      return {
        contents: `export function pageSource() { return ${JSON.stringify(source)}; }`,
        loader: 'js',
        watchFiles: sources,
      };
    });
  },
};

/** esbuild options shared by every bundle: ESM for Node 22+ (engines)/Lambda nodejs24.x, minified, with source maps. */
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  // Some dependencies (AWS SDK, Powertools) still call require() for Node built-ins inside an ESM bundle.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
  plugins: [precompressedPage],
};

/** Every bundle the project ships: name -> entry. Output goes to dist/<name>/index.mjs. */
export const bundles = {
  handler: 'functions/handler/index.ts',
  cli: 'cli/main.ts',
};

/**
 * The solver threads' entry, bundled as batch-worker.mjs beside each bundle's index.mjs: both the
 * CLI and the Lambda solve files on every CPU, and functions/parallel/worker-pool.ts looks for it
 * there (the CDK asset is the whole dist/handler folder, so it ships with the function).
 */
export const workerEntry = 'functions/parallel/batch-worker.ts';

/**
 * Bundles split into chunks: code an entry loads with `await import()` (the AWS SDK behind the S3
 * kind of event) goes to dist/<name>/chunks/ and is read only when first used, so an HTTP cold
 * start does not parse it. Measured with the S3 adapter plugged in: one 674 KB file took 37 ms to
 * import; split, the entry took 12 ms. The folder still runs alone: the chunks sit inside it.
 */
const splitBundles = new Set(['handler']);

export function bundleOptions(name) {
  const outdir = path.join(root, 'dist', name);
  const entryPoints = { index: path.join(root, bundles[name]), 'batch-worker': path.join(root, workerEntry) };
  const base = { ...common, entryPoints, metafile: true, outdir, outExtension: { '.js': '.mjs' } };
  if (!splitBundles.has(name)) return base;
  return {
    ...base,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  };
}

/** Where `npm run build` puts the Lambda bundle: the CDK asset (infra/paths.ts) and what the twin runs. */
export const handlerBundleDir = path.join(root, 'dist', 'handler');
/** The Lambda bundle's entry module (`index.handler` is its `handler` export). */
export const handlerBundle = path.join(handlerBundleDir, 'index.mjs');

/**
 * The package's libraries: name -> entry. Each is imported as `sudoku-serverless/<name>` (package.json
 * "exports" maps `./*` to dist/lib/<name>/), bundled to dist/lib/<name>/index.mjs with its types
 * beside it (scripts/library-types.mjs): adding a library is one line here.
 */
export const libraries = {
  construct: 'infra/index.ts',
  client: 'functions/client/index.ts',
};

/** Libraries that run in browsers as well as Node (fetch only): built for no platform in particular. */
const anyPlatform = new Set(['client']);

/** Where a library is built: its index.mjs (and .map) and index.d.ts. */
export const libraryDir = (name) => path.join(root, 'dist', 'lib', name);
/** The libraries' declarations, mirroring the sources; each library's index.d.ts re-exports its entry's. */
export const typesDir = path.join(root, 'dist', 'types');

/**
 * In a library, this file's paths are those of the installed package: scripts/ is not shipped (it
 * needs esbuild), so a module with the same exports stands in for it, finding dist/handler (the
 * construct's asset) from where the library's index.mjs lies.
 */
function installedLayout(outdir) {
  const fromOutdir = (to) => JSON.stringify(path.relative(outdir, to));
  const contents = [
    "import path from 'node:path';",
    "import { fileURLToPath } from 'node:url';",
    'const here = path.dirname(fileURLToPath(import.meta.url));',
    `export const root = path.resolve(here, ${fromOutdir(root)});`,
    `export const handlerBundleDir = path.resolve(here, ${fromOutdir(handlerBundleDir)});`,
    `export const handlerBundle = path.resolve(here, ${fromOutdir(handlerBundle)});`,
  ].join('\n');
  return {
    name: 'installed-layout',
    setup(build) {
      build.onResolve({ filter: /[\\/]bundles\.mjs$/ }, () => ({ path: 'bundles', namespace: 'installed-layout' }));
      build.onLoad({ filter: /.*/, namespace: 'installed-layout' }, () => ({
        contents,
        loader: 'js',
        resolveDir: outdir,
      }));
    },
  };
}

/**
 * esbuild options of one library: ESM for Node 22+, readable (not minified: a user may step into
 * it), every package left to the user's install (aws-cdk-lib and constructs are peer dependencies).
 */
export function libraryOptions(name) {
  const outdir = libraryDir(name);
  return {
    entryPoints: { index: path.join(root, libraries[name]) },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: anyPlatform.has(name) ? 'neutral' : 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [installedLayout(outdir)],
  };
}
