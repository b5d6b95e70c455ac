// `npm run build`: compiles the search kernel to WebAssembly, then bundles every entry of
// scripts/bundles.mjs into dist/. Also runs on `npm ci` (prepare).
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { bundleOptions, bundles, root } from './bundles.mjs';
import { buildSearchKernel } from './search-kernel.mjs';

await buildSearchKernel(root);

const names = Object.keys(bundles).filter((name) => existsSync(path.join(root, bundles[name])));
await Promise.all(
  names.map(async (name) => {
    // A fresh folder each time: chunk names carry content hashes, so old chunks would pile up.
    rmSync(path.join(root, 'dist', name), { recursive: true, force: true });
    await esbuild.build(bundleOptions(name));
  }),
);
