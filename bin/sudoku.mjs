#!/usr/bin/env node
// The `sudoku` command runs the prebuilt bundle (made by `npm ci` / `npm run build`).
import { existsSync } from 'node:fs';
import { refuseUnsupportedNode } from '../scripts/supported-node.mjs';

refuseUnsupportedNode('sudoku');

const bundle = new URL('../dist/cli/index.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('sudoku: dist/cli is missing; run `npm run build` first\n');
  process.exit(2);
}
await import(bundle.href);
