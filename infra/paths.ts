// Where `npm run build` puts the Lambda bundle: the same path as `handlerBundleDir` in
// scripts/bundles.mjs (a test checks they agree), computed here because that file is plain JS.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const handlerBundleDir = path.join(root, 'dist', 'handler');
