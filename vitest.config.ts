import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The fast lane (`npm run test:unit`): the pure core, the file formats, the HTTP handler, the
 * contract, the deployer's settings, the layout's rules and the client's own logic. No local
 * servers, no built bundle, no stack template for the twin's IAM: under a minute on 2 cores.
 * `npm test` runs both projects.
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

export default defineConfig({
  test: {
    // vitest's default runs cores - 1 files at once: one on a 2-core machine, which then ran the
    // whole suite file after file with a core mostly idle (much of a file's work is in the
    // processes and threads it starts: the s3rver process, solver threads, spawned CLIs).
    maxWorkers: availableParallelism(),
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: UNIT,
          // The stack template the local S3 servers decide IAM by, synthesized once before any worker.
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
