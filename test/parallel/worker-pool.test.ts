import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceWorkerFactory } from '../../twin/lambda/source-worker.js';
import {
  solverThreads,
  threadExecArgv,
  type WorkerFactory,
  workerFromScript,
  WorkerPool,
} from '../../functions/parallel/index.js';
import { batched } from '../formats/run-batches.js';
import { DUPLICATE, EASY, EASY_SOLUTION, HARD, MULTIPLE, NO_SOLUTION } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUT = { chunkSize: 4096, batchBytes: 2000, maxLineChars: 1 << 20 };

/** 2,000 rows: shared-set puzzles with a failing or blank row every so often. */
function mixedFile(): Buffer {
  const puzzles = readPuzzleSet('puzzles3_magictour_top1465');
  const odd = [DUPLICATE, NO_SOLUTION, 'not a board', '', MULTIPLE, `${HARD}\r`];
  const rows = Array.from({ length: 2000 }, (_, i) =>
    i % 37 === 5 ? odd[((i / 37) % odd.length) | 0]! : puzzles[i % puzzles.length]!,
  );
  return Buffer.from(`${rows.join('\n')}\n`);
}

const pools: WorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

function pool(workers: number, startWorker: WorkerFactory = sourceWorkerFactory(), solveHere = false): WorkerPool {
  const created = new WorkerPool({ workers, startWorker, solveHere });
  pools.push(created);
  return created;
}

describe('the worker pool', () => {
  it('answers on worker threads exactly what one thread answers, in input order, with every failure located', async () => {
    const bytes = mixedFile();
    const alone = await batched(bytes, 'txt', CUT);
    const threads = pool(2);
    const parallel = await batched(bytes, 'txt', { ...CUT, solver: threads });
    expect(parallel).toEqual(alone);
    expect(threads.size).toBe(2);
    const lines = parallel.text.split('\n');
    const input = bytes.toString('utf8').split('\n');
    expect(lines).toHaveLength(input.length);
    input.forEach((row, i) => {
      if (/^[0-9.]{81}\r?$/.test(row) && !lines[i]!.startsWith(`error line ${i + 1}: `))
        expect(isSolutionOf(row.trim(), lines[i]!)).toBe(true);
    });
    expect(parallel.counts.rows).toBe(parallel.counts.solved + parallel.failures.length);
    expect(parallel.failures.length).toBeGreaterThan(0);
  });

  it('answers .jsonl on worker threads as in one thread', async () => {
    const rows = [JSON.stringify(EASY), '{"board": 1}', JSON.stringify({ board: HARD }), 'oops'];
    const bytes = Buffer.from(`${Array.from({ length: 300 }, (_, i) => rows[i % rows.length]).join('\n')}\n`);
    const threads = pool(2);
    expect(await batched(bytes, 'jsonl', { ...CUT, solver: threads })).toEqual(await batched(bytes, 'jsonl', CUT));
  });

  it('loses no row and does not hang when its threads die: their batches are answered in the calling thread', async () => {
    const bytes = mixedFile();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const dying = pool(2, workerFromScript(new URL('./fixtures/dying-worker.mjs', import.meta.url)));
    const got = await batched(bytes, 'txt', { ...CUT, solver: dying }).finally(() => process.off('warning', onWarning));
    expect(warnings.map((w) => (w as Error & { code?: string }).code)).toEqual([
      'SUDOKU_SOLVER_THREAD_LOST',
      'SUDOKU_SOLVER_THREAD_LOST',
    ]);
    expect(warnings[0]!.message).toMatch(
      /A solver thread stopped \(exit code 7\); its rows are solved in the main thread/,
    );
    expect(got).toEqual(await batched(bytes, 'txt', CUT));
    expect(dying.size).toBe(0);
    expect(got.text.split('\n')[0]).not.toMatch(/^error/);
    // With every thread gone, later files still get answered.
    const again = await batched(Buffer.from(`${EASY}\n`), 'txt', { ...CUT, solver: dying });
    expect(again.text).toBe(`${EASY_SOLUTION}\n`);
  });
});

describe('the worker pool with the calling thread as one more solver', () => {
  it('answers in input order whichever thread solved each batch, serving its threads first', async () => {
    const bytes = mixedFile();
    const alone = await batched(bytes, 'txt', CUT);
    const both = pool(1, sourceWorkerFactory(), true);
    expect(await batched(bytes, 'txt', { ...CUT, solver: both })).toEqual(alone);
    // The thread was handed some batches (the first two at least) and this thread answered others.
    const batches = Math.ceil(bytes.length / CUT.batchBytes);
    expect(both.answeredHere).toBeGreaterThan(0);
    expect(both.answeredHere).toBeLessThanOrEqual(batches - 2);
    // Its threads' fill plus a few answered here: what bounds memory.
    expect(both.capacity).toBeGreaterThan(2);
    expect(both.capacity).toBeLessThanOrEqual(16);
  });

  it('keeps the order when its thread is slower than the calling thread, which then answers most batches', async () => {
    const bytes = mixedFile();
    const slow = pool(1, sourceWorkerFactory(new URL('./fixtures/slow-worker.ts', import.meta.url)), true);
    const got = await batched(bytes, 'txt', { ...CUT, solver: slow });
    expect(got).toEqual(await batched(bytes, 'txt', CUT));
    expect(slow.answeredHere).toBeGreaterThan(0);
    expect(slow.size).toBe(1);
  });

  it('loses no row when its thread dies: the batches it held are answered here, in order', async () => {
    const bytes = mixedFile();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const dying = pool(1, workerFromScript(new URL('./fixtures/dying-worker.mjs', import.meta.url)), true);
    const got = await batched(bytes, 'txt', { ...CUT, solver: dying }).finally(() => process.off('warning', onWarning));
    expect(warnings.map((w) => (w as Error & { code?: string }).code)).toEqual(['SUDOKU_SOLVER_THREAD_LOST']);
    expect(got).toEqual(await batched(bytes, 'txt', CUT));
    expect(dying.size).toBe(0);
  });
});

describe('a process with a worker pool', () => {
  it('exits when its work is done, threads that never got a batch included', () => {
    const script = [
      "const { batchSolverFor, useWorkerFactory } = await import('./functions/parallel/index.ts');",
      "const { sourceWorkerFactory } = await import('./twin/lambda/source-worker.ts');",
      'useWorkerFactory(sourceWorkerFactory());',
      'const solver = batchSolverFor(3);',
      `const bytes = new TextEncoder().encode(${JSON.stringify(`${EASY}\n`)});`,
      "const answer = await solver.solve({ format: 'txt', firstLine: 1, bytes, lines: 1, overlong: [], maxLineChars: 100 });",
      'console.log(answer.counts.solved);',
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.signal, 'the process had to be killed: a thread kept it alive').toBeNull();
    expect(child.stdout.trim()).toBe('1');
  });
});

describe('the Node options a thread inherits', () => {
  it("keep profiling, source maps and loaders; drop the parent's own script (-e, --input-type) and process-wide flags", () => {
    const parent = ['--input-type=module', '-e', 'import(x)', '--cpu-prof', '--cpu-prof-dir', '/tmp/p'];
    parent.push('--enable-source-maps', '--max-old-space-size=24', '-p', '1');
    expect(threadExecArgv(parent)).toEqual(['--cpu-prof', '--cpu-prof-dir', '/tmp/p', '--enable-source-maps']);
    const loaders = ['--import', 'tsx', '--eval=1', '--require=x.cjs', '--stack-size=900'];
    expect(threadExecArgv(loaders)).toEqual(['--import', 'tsx', '--require=x.cjs']);
  });
});

describe('how many threads solve a file', () => {
  it('is what was asked for, else SOLVER_THREADS, else every CPU the process may use', () => {
    expect(solverThreads(3, { SOLVER_THREADS: '5' })).toBe(3);
    expect(solverThreads(undefined, { SOLVER_THREADS: '5' })).toBe(5);
    expect(solverThreads(undefined, {})).toBe(availableParallelism());
    expect(() => solverThreads(undefined, { SOLVER_THREADS: 'lots' })).toThrow(/SOLVER_THREADS must be a whole number/);
    expect(() => solverThreads(undefined, { SOLVER_THREADS: '0' })).toThrow(/from 1 to 64/);
  });

  it('is one under `taskset -c 0`: availableParallelism follows the CPU affinity mask, so no worker is started', () => {
    const child = spawnSync(
      'taskset',
      [
        '-c',
        '0',
        process.execPath,
        '--import',
        'tsx',
        '-e',
        "import('./functions/parallel/index.ts').then((m) => console.log(m.solverThreads(undefined, {}) ?? ''))",
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(child.error).toBeUndefined();
    expect(child.stdout.trim()).toBe('1');
  });
});

describe('functions/parallel', () => {
  it('is pure Node: it imports only formats/, contract/ and Node built-ins (no AWS), and nothing imports it but the CLI and the pipeline', () => {
    const dir = path.join(root, 'functions', 'parallel');
    for (const file of readdirSync(dir)) {
      const imports = [...readFileSync(path.join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      for (const spec of imports) expect(spec, file).toMatch(/^(node:|\.\/|\.\.\/(formats|contract)\/)/);
    }
    const users = ['batch', 'handler', 'http', 's3', 'sudoku', 'formats', 'contract'].filter((folder) =>
      readdirSync(path.join(root, 'functions', folder), { recursive: true, encoding: 'utf8' }).some(
        (f) =>
          f.endsWith('.ts') &&
          /from '\.\.\/parallel\//.test(readFileSync(path.join(root, 'functions', folder, f), 'utf8')),
      ),
    );
    expect(users).toEqual([]);
  });
});
