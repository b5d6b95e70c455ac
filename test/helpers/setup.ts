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

// Temporary folders: test/global-tmpdir.ts gives the whole run one, removed when it ends.
