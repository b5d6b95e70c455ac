import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The fast lane (`npm run test:unit`): the pure core, the file formats, the HTTP handler, the
 * contract, the deployer's settings, the layout's rules and the client's own logic. No local
 * servers, no built bundle, no stack template for the twin's IAM: under a minute on 2 cores.
 * `npm test` runs every project.
 */
const UNIT = [
  'test/sudoku/**/*.test.ts',
  'test/formats/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/contract/**/*.test.ts',
  'test/infra/settings.test.ts',
  'test/architecture.test.ts',
  // The client's cutting and retries, on an injected fetch and clock.
  'test/client/request-cutting.test.ts',
  'test/client/retries.test.ts',
];
/**
 * Fast-lane files that replace a module (`vi.mock`): they need a module registry of their own, which
 * the rest of the fast lane does without (below).
 */
const UNIT_MOCKING = ['test/http/unexpected-errors.test.ts'];
/**
 * The CDK app's tests: each synthesizes stacks in process, nothing else. Sharing a worker's modules
 * imports aws-cdk-lib once per worker instead of once per file (about a second of CPU each).
 */
const INFRA = ['test/infra/**/*.test.ts'];

export default defineConfig({
  test: {
    // vitest's default runs cores - 1 files at once: one on a 2-core machine, which then ran the
    // whole suite file after file with a core mostly idle (much of a file's work is in the
    // processes and threads it starts: the s3rver process, solver threads, spawned CLIs).
    maxWorkers: availableParallelism(),
    // Worker threads, not forked processes: an isolated file gets a fresh worker, and a thread starts
    // for a fraction of a process's cost (the whole suite on 2 cores: 237 s forked, 226 s threaded).
    // Nothing here needs a process of its own: a thread's process.env is its own copy, and the tests
    // that listen for signals or exit start child processes for it.
    pool: 'threads',
    setupFiles: ['test/helpers/setup.ts'],
    globalSetup: ['test/global-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      // The fast lane's files share their worker's modules (no isolation): they are pure, and
      // importing the core, the handler and fast-check afresh for each of ~45 files was half the
      // lane's CPU (unit lane on 2 cores: 17 s before, 10 s after).
      { extends: true, test: { name: 'unit', include: UNIT, exclude: UNIT_MOCKING, isolate: false } },
      { extends: true, test: { name: 'unit-mocking', include: UNIT_MOCKING } },
      {
        extends: true,
        test: {
          name: 'infra',
          include: INFRA,
          exclude: UNIT,
          isolate: false,
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...UNIT_MOCKING, ...INFRA],
          // The stack template the local S3 servers decide IAM by, synthesized once before any worker.
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
