// Run before every test file (vitest `setupFiles`), before its imports.
//
// Quiet Powertools: it reads these when its Logger and Metrics are constructed, at import; the
// tests assert on answers, objects and reports, not on log lines (a test that wants the logs
// spies on the logger, or runs a child process with its own environment).
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

// The tests run the sources, which have no bundled batch-worker.mjs: solver threads load the
// TypeScript entry through tsx, injected here so that plumbing stays out of the bundles.
const { sourceWorkerFactory } = await import('../../twin/lambda/source-worker.js');
const { useWorkerFactory } = await import('../../functions/parallel/index.js');
useWorkerFactory(sourceWorkerFactory());

// Every temporary folder a test file makes goes into one of its own, removed when the file ends:
// a CDK App synthesizes into a fresh `cdk.out*` under the temporary folder and never removes it,
// and runs of the suite left tens of thousands of them behind. Child processes inherit TMPDIR, so
// their folders go there too. (vitest runs after-all hooks in reverse order: this one runs last.)
const { mkdtempSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { afterAll } = await import('vitest');
const fileTmp = mkdtempSync(join(tmpdir(), 'sudoku-test-'));
const sharedTmp = process.env.TMPDIR;
process.env.TMPDIR = fileTmp;
afterAll(() => {
  if (sharedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = sharedTmp;
  rmSync(fileTmp, { recursive: true, force: true });
});
