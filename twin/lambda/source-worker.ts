/**
 * Solver threads for runs from the TypeScript sources (vitest, tsx), which have no bundled
 * batch-worker.mjs: each thread loads functions/parallel/batch-worker.ts through tsx. Injected
 * with `useWorkerFactory` (test/helpers/setup.ts does it for every test), so this plumbing is
 * never in a bundle.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerFactory } from '../../functions/parallel/index.js';

/** The solver thread's TypeScript entry. */
export const SOURCE_WORKER_ENTRY = new URL('../../functions/parallel/batch-worker.ts', import.meta.url);

/**
 * A factory for threads that run a TypeScript entry. `execArgv: ['--import', 'tsx']` does not
 * reach a worker's own entry on Node 20, so a small ESM stub imports the entry through tsx's API
 * (resolved from here).
 */
export function sourceWorkerFactory(entry: URL = SOURCE_WORKER_ENTRY): WorkerFactory {
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist', 'esm', 'api', 'index.mjs')).href;
  const stub = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)}));`;
  return (options) => new Worker(stub, { ...options, eval: true });
}
