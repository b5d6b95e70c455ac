// `npm run build`: compiles the search kernel to WebAssembly, then bundles every entry of
// scripts/bundles.mjs into dist/, and every library of it into dist/lib/ with its types. Also runs
// on `npm ci` (prepare).
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { refuseUnsupportedNode } from './supported-node.mjs';

// Every npm script that runs code starts here (start, test, bench, ...): the Node check comes first,
// and the rest is imported after it, as a dependency may not even load on an older Node.
const script = process.env.npm_lifecycle_event;
refuseUnsupportedNode(
  script === undefined ? 'build' : `npm ${script === 'start' || script === 'test' ? script : `run ${script}`}`,
);
const esbuild = await import('esbuild');
const { bundleOptions, bundles, libraries, libraryDir, libraryOptions, root, typesDir } = await import('./bundles.mjs');
const { buildSearchKernel } = await import('./search-kernel.mjs');
const { buildLibraryTypes } = await import('./library-types.mjs');

await buildSearchKernel(root);

const names = Object.keys(bundles).filter((name) => existsSync(path.join(root, bundles[name])));
await Promise.all([
  ...names.map(async (name) => {
    // A fresh folder each time: chunk names carry content hashes, so old chunks would pile up.
    rmSync(path.join(root, 'dist', name), { recursive: true, force: true });
    await esbuild.build(bundleOptions(name));
  }),
  ...Object.keys(libraries)
    .filter((name) => existsSync(path.join(root, libraries[name])))
    .map((name) => esbuild.build(libraryOptions(name))),
]);
buildLibraryTypes({ root, libraries, libraryDir, typesDir });
