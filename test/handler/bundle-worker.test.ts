import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { DUPLICATE, EASY, EASY_SOLUTION, HARD, HARD_SOLUTION } from '../helpers/boards.js';
import { functionEnvironment } from '../../twin/lambda/function-environment.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A copy of a built bundle folder outside the repository: no node_modules, no sources to fall back on. */
function isolatedCopy(name: 'handler' | 'cli'): string {
  const dir = path.join(root, 'dist', name);
  if (!existsSync(path.join(dir, 'index.mjs'))) throw new Error(`dist/${name} is missing: run \`npm run build\``);
  const copy = mkdtempSync(path.join(tmpdir(), `sudoku-${name}-worker-`));
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Starts the bundle's solver thread, hands it one batch and prints its answer. */
const WORKER_RUNNER = `
import { Worker } from 'node:worker_threads';
const worker = new Worker(new URL('./batch-worker.mjs', import.meta.url));
worker.on('error', (e) => { console.error(e); process.exit(3); });
worker.on('message', (reply) => {
  process.stdout.write(JSON.stringify({ ok: reply.ok, text: Buffer.from(reply.answer.text).toString(), counts: reply.answer.counts, failures: reply.answer.failures }));
  worker.terminate();
});
worker.postMessage({ format: 'txt', firstLine: 10, bytes: new TextEncoder().encode(process.argv[2]), lines: 2, overlong: [], maxLineChars: 1 << 20 });
`;

describe.each(['handler', 'cli'] as const)('the %s bundle', (name) => {
  it('ships batch-worker.mjs, which starts as a worker thread from the folder alone and answers a batch', () => {
    const dir = isolatedCopy(name);
    writeFileSync(path.join(dir, 'run-worker.mjs'), WORKER_RUNNER);
    const child = spawnSync(process.execPath, ['run-worker.mjs', `${EASY}\n${DUPLICATE}\n`], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
      timeout: 30_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const answer = JSON.parse(child.stdout) as { ok: boolean; text: string; counts: { rows: number; solved: number } };
    expect(answer.ok).toBe(true);
    expect(answer.text.split('\n')[0]).toBe(EASY_SOLUTION);
    expect(answer.text.split('\n')[1]).toMatch(/^error line 11: DUPLICATE_IN_ROW: /);
    expect(answer).toMatchObject({ counts: { rows: 2, solved: 1 }, failures: [{ problem: { line: 11 } }] });
  });
});

/** Loads the handler from the copied bundle and hands it the S3 event given. */
const HANDLER_RUNNER = `
const { handler } = await import('./index.mjs');
const context = { awsRequestId: 'bundle-worker-test', functionName: 'sudoku', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:sudoku', memoryLimitInMB: '3538',
  logGroupName: 'g', logStreamName: 's', callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 60000, done() {}, fail() {}, succeed() {} };
await handler(JSON.parse(process.argv[2]), context);
`;

describe('the Lambda bundle with SOLVER_THREADS=2', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('solves an S3 file on worker threads started from dist/handler alone, every line in order', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => (i % 500 === 7 ? DUPLICATE : i % 2 ? EASY : HARD));
    const key = 'incoming/threads/rows.txt';
    await s3.put(key, `${rows.join('\n')}\n`);
    const event = await s3.eventFor(key);
    const dir = isolatedCopy('handler');
    writeFileSync(path.join(dir, 'run-handler.mjs'), HANDLER_RUNNER);
    // Node writes one CPU profile per thread: the observable proof that the solver threads ran.
    const profiles = path.join(dir, 'profiles');
    const child = spawnSync(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${profiles}`, 'run-handler.mjs', JSON.stringify(event)],
      {
        cwd: dir,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          AWS_LAMBDA_FUNCTION_NAME: 'sudoku',
          ...functionEnvironment(s3.server.endpoint, 'admin'),
          SOLVER_THREADS: '2',
          POWERTOOLS_LOG_LEVEL: 'SILENT',
          POWERTOOLS_METRICS_DISABLED: 'true',
        },
        timeout: 120_000,
      },
    );
    expect(child.status, child.stderr).toBe(0);
    // The main thread and one worker: with two threads, the main thread is the second solver.
    expect(readdirSync(profiles).length).toBe(2);
    const out = (await s3.text('solved/threads/rows.txt'))!.split('\n');
    expect(out).toHaveLength(rows.length + 1);
    rows.forEach((row, i) => {
      const expected =
        row === DUPLICATE
          ? expect.stringMatching(new RegExp(`^error line ${i + 1}: DUPLICATE_IN_ROW`))
          : row === EASY
            ? EASY_SOLUTION
            : HARD_SOLUTION;
      expect(out[i]).toEqual(expected);
    });
    const report = await s3.report(key);
    expect(report.counts).toMatchObject({ rows: 12_000, solved: 12_000 - 24, contradictory: 24 });
    expect(report.failures.map((f) => f.line)).toEqual(Array.from({ length: 24 }, (_, k) => k * 500 + 8));
  });
});
