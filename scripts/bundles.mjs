// The one definition of how the code is bundled. `npm run build`, the tests, the benchmark and the
// CDK stack all go through this file, so what is tested is byte for byte what is deployed.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild options shared by every bundle: ESM for Node 20+/Lambda nodejs22.x, minified, with source maps. */
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  // Some dependencies (AWS SDK, Powertools) still call require() for Node built-ins inside an ESM bundle.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
};

/** Every bundle the project ships: name -> entry. Output goes to dist/<name>/index.mjs. */
export const bundles = {
  handler: 'functions/handler/index.ts',
  cli: 'functions/cli/main.ts',
};

export function bundleOptions(name) {
  return {
    ...common,
    entryPoints: [path.join(root, bundles[name])],
    outfile: path.join(root, 'dist', name, 'index.mjs'),
    metafile: true,
  };
}

export const handlerBundleDir = path.join(root, 'dist', 'handler');
