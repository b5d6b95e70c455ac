import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { MessagePort, WorkerOptions } from 'node:worker_threads';
import { IN_THREAD_SOLVER } from '../formats/index.js';
import type { BatchAnswer, BatchSolver, RowBatch } from '../formats/index.js';

/** What a solver thread sends back for each batch it was handed, in the order it was handed them. */
export type WorkerReply = { ok: true; answer: BatchAnswer } | { ok: false; message: string };

/** Batches queued on each thread: one being answered and one waiting, so a thread never idles between two. */
const BATCHES_PER_THREAD = 2;

/** Batches in flight beyond the workers' when this thread solves too (see the constructor). */
const SOLVED_HERE_AHEAD = 8;

/**
 * Starts one solver thread with the options the pool gives it (its reply port, the inherited
 * Node options). The pool does not know where the thread's code is: the bundles ship
 * batch-worker.mjs (`bundledWorker`), and runs from the sources (tests, tsx) inject a factory that
 * loads the TypeScript entry (twin/lambda/source-worker.ts), so that plumbing never ships.
 */
export type WorkerFactory = (options: WorkerOptions) => Worker;

/** A factory for a thread that runs a JavaScript module (`.mjs`). */
export function workerFromScript(url: URL): WorkerFactory {
  return (options) => new Worker(url, options);
}

/**
 * The solver thread of a bundle: batch-worker.mjs beside index.mjs (the CLI) or beside the
 * chunks/ folder this code may sit in (the Lambda bundle); undefined when there is none (the
 * sources, or a test's ad hoc bundle).
 */
export function bundledWorker(): WorkerFactory | undefined {
  for (const relative of ['./batch-worker.mjs', '../batch-worker.mjs']) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(fileURLToPath(url))) return workerFromScript(url);
  }
  return undefined;
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
  /** Where the thread's answers come (see start()). */
  replies: MessagePort;
  /** Tasks handed to this thread, answered in this order. */
  tasks: Task[];
}

/** What a solver thread is started with. */
export interface WorkerData {
  /** The port to answer on; a thread without one (an older script) answers on parentPort. */
  replies?: MessagePort;
}

export interface WorkerPoolOptions {
  /** Worker threads to start. */
  workers: number;
  /** Starts each thread (`bundledWorker()`, or a factory a run from the sources injects). */
  startWorker: WorkerFactory;
  /**
   * This thread answers batches too, as one more solver, whenever every worker already has its
   * fill: with N CPUs, N-1 workers and this thread keep N cores busy without a third thread
   * (reading, cutting, writing) competing with two solvers for two cores.
   */
  solveHere?: boolean;
}

/**
 * Solver threads behind the BatchSolver interface. Each batch goes to the least busy thread; a
 * thread answers its batches in order. With `solveHere`, a batch arriving while every thread has
 * its fill is answered in this thread on the spot (workers are served first, so they never wait
 * for this thread's answer to get their next batch). Idle threads do not keep the process alive.
 * A thread that dies (crash, out of memory) is dropped and its batches are answered in this thread
 * instead, so no row is lost and nothing waits forever; if every thread is gone, batches run in
 * this thread.
 */
export class WorkerPool implements BatchSolver {
  readonly capacity: number;
  private readonly threads: Thread[] = [];
  private readonly solveHere: boolean;
  private closed = false;
  private here = 0;

  constructor(options: WorkerPoolOptions) {
    for (let i = 0; i < options.workers; i++) this.threads.push(this.start(options.startWorker));
    this.solveHere = options.solveHere === true;
    // Solving here, the batches answered here wait in line with the workers' for their turn to be
    // written; a few more in flight let this thread keep solving while a worker starts up (tens
    // of milliseconds) instead of waiting on its first answer. 256 KiB each: memory stays flat.
    this.capacity = options.workers * BATCHES_PER_THREAD + (this.solveHere ? SOLVED_HERE_AHEAD : 0);
  }

  /** Batches answered in this thread: by choice (`solveHere`), or for a thread that was lost. */
  get answeredHere(): number {
    return this.here;
  }

  /** Threads still running. */
  get size(): number {
    return this.threads.length;
  }

  /**
   * A thread answers on a port of its own rather than on the worker's: this thread, busy solving
   * or cutting, can then take the answers in at once (receiveMessageOnPort) instead of when its
   * event loop next turns, so it sees which threads are short of work before handing out a batch.
   */
  private start(startWorker: WorkerFactory): Thread {
    const { port1: replies, port2 } = new MessageChannel();
    const options: WorkerOptions = {
      execArgv: threadExecArgv(),
      workerData: { replies: port2 } satisfies WorkerData,
      transferList: [port2],
    };
    const worker = startWorker(options);
    const thread: Thread = { worker, replies, tasks: [] };
    replies.on('message', (reply: WorkerReply) => this.answered(thread, reply));
    worker.on('error', (error) => this.lose(thread, error));
    worker.on('exit', (code) => this.lose(thread, code));
    // After the listeners: adding a 'message' listener refs the port again.
    this.idle(thread);
    return thread;
  }

  /** Idle threads do not keep the process alive; busy ones do, until their answers are in. */
  private idle(thread: Thread): void {
    thread.worker.unref();
    thread.replies.unref();
  }

  private answered(thread: Thread, reply: WorkerReply): void {
    const task = thread.tasks.shift();
    if (thread.tasks.length === 0) this.idle(thread);
    if (!task) return;
    if (reply.ok) task.resolve(reply.answer);
    else
      task.reject(new Error(`A solver thread failed on the batch from line ${task.batch.firstLine}: ${reply.message}`));
  }

  /** Answers already sent by `thread`, taken in now. */
  private takeAnswers(thread: Thread): void {
    for (let got = receiveMessageOnPort(thread.replies); got; got = receiveMessageOnPort(thread.replies)) {
      this.answered(thread, got.message as WorkerReply);
    }
  }

  /** A thread is gone: what it answered is kept, the rest is answered here, in order, and it gets no more. */
  private lose(thread: Thread, reason: unknown): void {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    this.threads.splice(at, 1);
    this.takeAnswers(thread);
    thread.replies.close();
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
    this.solveNow(task.batch).then(task.resolve, (error: unknown) =>
      task.reject(error instanceof Error ? error : new Error(String(error))),
    );
  }

  solve(batch: RowBatch, signal?: AbortSignal): Promise<BatchAnswer> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed'));
    if (this.threads.length === 0) return this.solveNow(batch, signal);
    let thread = this.threads[0]!;
    for (const t of this.threads) {
      this.takeAnswers(t);
      if (t.tasks.length < thread.tasks.length) thread = t;
    }
    if (this.solveHere && thread.tasks.length >= BATCHES_PER_THREAD) return this.solveNow(batch, signal);
    return new Promise<BatchAnswer>((resolve, reject) => {
      const task: Task = { batch, resolve, reject };
      thread.tasks.push(task);
      thread.worker.ref();
      thread.replies.ref();
      // Copied, not transferred: the batch is kept here until answered, to answer it here if the thread dies.
      thread.worker.postMessage(batch);
    });
  }

  private solveNow(batch: RowBatch, signal?: AbortSignal): Promise<BatchAnswer> {
    this.here++;
    return IN_THREAD_SOLVER.solve(batch, signal);
  }

  /** Stops every thread; batches still out are answered here. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
