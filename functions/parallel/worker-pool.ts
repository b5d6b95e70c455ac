import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { answerBatch, IN_THREAD_SOLVER } from '../formats/index.js';
import type { BatchAnswer, BatchSolver, RowBatch } from '../formats/index.js';

/** What a solver thread sends back for each batch it was handed, in the order it was handed them. */
export type WorkerReply = { ok: true; answer: BatchAnswer } | { ok: false; message: string };

/** Batches queued on each thread: one being answered and one waiting, so a thread never idles between two. */
const BATCHES_PER_THREAD = 2;

export interface WorkerScript {
  url: URL;
  /** A TypeScript source (tests, `tsx` runs): loaded through tsx's loader. */
  typescript?: boolean;
}

/**
 * Where the solver thread's code is. Bundled, it is batch-worker.mjs beside index.mjs (the CLI)
 * or beside the chunks/ folder this code may sit in (the Lambda bundle). From the sources
 * (vitest, tsx), it is the .ts entry, run through tsx.
 */
export function defaultWorkerScript(): WorkerScript | undefined {
  for (const relative of ['./batch-worker.mjs', '../batch-worker.mjs']) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(fileURLToPath(url))) return { url };
  }
  const source = new URL('./batch-worker.ts', import.meta.url);
  if (existsSync(fileURLToPath(source))) return { url: source, typescript: true };
  return undefined;
}

/**
 * A worker for a TypeScript entry. `execArgv: ['--import', 'tsx']` does not reach a worker's own
 * entry on Node 20, so a small ESM stub imports the entry through tsx's API (resolved from here).
 */
function typescriptWorker(url: URL): Worker {
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist', 'esm', 'api', 'index.mjs')).href;
  const stub = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)}));`;
  return new Worker(stub, { eval: true, execArgv: threadExecArgv() });
}

/** Node options a thread takes over from its process; each with its value (`--import tsx` or `--import=tsx`). */
const INHERITED_OPTION =
  /^(--cpu-prof|--heap-prof|--enable-source-maps|--conditions|-C|--import|--require|-r|--loader|--experimental-loader)(=|$)/;
const TAKES_VALUE =
  /^(--conditions|-C|--import|--require|-r|--loader|--experimental-loader|--cpu-prof-dir|--cpu-prof-name|--cpu-prof-interval|--heap-prof-dir|--heap-prof-name|--heap-prof-interval)$/;

/**
 * The process's Node options a thread gets: only profiling, source maps and loaders. Not all of
 * them: `-e`/`-p` and `--input-type` would make the thread run the process's own script instead
 * of its own, and a thread refuses process-wide ones (`--max-old-space-size`) when given explicitly.
 */
export function threadExecArgv(parent: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const arg = parent[i]!;
    const takesValue = TAKES_VALUE.test(arg);
    if (INHERITED_OPTION.test(arg) || /^--(cpu|heap)-prof-/.test(arg)) {
      kept.push(arg);
      if (takesValue && i + 1 < parent.length) kept.push(parent[++i]!);
    } else if (takesValue || arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') {
      i++;
    }
  }
  return kept;
}

interface Task {
  batch: RowBatch;
  resolve: (answer: BatchAnswer) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  /** Tasks handed to this thread, answered in this order. */
  tasks: Task[];
}

export interface WorkerPoolOptions {
  threads: number;
  script: WorkerScript;
}

/**
 * Solver threads behind the BatchSolver interface. Each batch goes to the least busy thread; a
 * thread answers its batches in order. Idle threads do not keep the process alive. A thread that
 * dies (crash, out of memory) is dropped and its batches are answered in this thread instead, so
 * no row is lost and nothing waits forever; if every thread is gone, batches run in this thread.
 */
export class WorkerPool implements BatchSolver {
  readonly capacity: number;
  private readonly threads: Thread[] = [];
  private closed = false;

  constructor(options: WorkerPoolOptions) {
    for (let i = 0; i < options.threads; i++) this.threads.push(this.start(options.script));
    this.capacity = options.threads * BATCHES_PER_THREAD;
  }

  /** Threads still running. */
  get size(): number {
    return this.threads.length;
  }

  private start(script: WorkerScript): Thread {
    const worker = script.typescript
      ? typescriptWorker(script.url)
      : new Worker(script.url, { execArgv: threadExecArgv() });
    const thread: Thread = { worker, tasks: [] };
    worker.on('message', (reply: WorkerReply) => {
      const task = thread.tasks.shift();
      if (thread.tasks.length === 0) worker.unref();
      if (!task) return;
      if (reply.ok) task.resolve(reply.answer);
      else
        task.reject(
          new Error(`A solver thread failed on the batch from line ${task.batch.firstLine}: ${reply.message}`),
        );
    });
    worker.on('error', (error) => this.lose(thread, error));
    worker.on('exit', (code) => this.lose(thread, code));
    // After the listeners: adding a 'message' listener refs the thread again.
    worker.unref();
    return thread;
  }

  /** A thread is gone: its batches are answered here, in order, and it gets no more. */
  private lose(thread: Thread, reason: unknown): void {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    this.threads.splice(at, 1);
    if (!this.closed) {
      // Said out loud (stderr, the function's log): the file is still answered whole, but slower.
      const why = reason instanceof Error ? reason.message : `exit code ${String(reason)}`;
      process.emitWarning(`A solver thread stopped (${why}); its rows are solved in the main thread.`, {
        code: 'SUDOKU_SOLVER_THREAD_LOST',
      });
    }
    const orphans = thread.tasks.splice(0);
    for (const task of orphans) this.answerHere(task);
  }

  private answerHere(task: Task): void {
    try {
      task.resolve(answerBatch(task.batch));
    } catch (error) {
      task.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  solve(batch: RowBatch): Promise<BatchAnswer> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed'));
    if (this.threads.length === 0) return IN_THREAD_SOLVER.solve(batch);
    let thread = this.threads[0]!;
    for (const t of this.threads) if (t.tasks.length < thread.tasks.length) thread = t;
    return new Promise<BatchAnswer>((resolve, reject) => {
      const task: Task = { batch, resolve, reject };
      thread.tasks.push(task);
      // Busy threads keep the process alive until their answers are in.
      thread.worker.ref();
      // Copied, not transferred: the batch is kept here until answered, to answer it here if the thread dies.
      thread.worker.postMessage(batch);
    });
  }

  /** Stops every thread; batches still out are answered here. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
