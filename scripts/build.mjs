// `npm run build`: bundles every entry of scripts/bundles.mjs into dist/. Also runs on `npm ci` (prepare).
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { bundleOptions, bundles, root } from './bundles.mjs';

const names = Object.keys(bundles).filter((name) => existsSync(path.join(root, bundles[name])));
await Promise.all(names.map((name) => esbuild.build(bundleOptions(name))));
