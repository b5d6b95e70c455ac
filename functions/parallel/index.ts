/** Solving a file on every CPU: worker threads behind formats' BatchSolver. Pure Node: no AWS. */
import { IN_THREAD_SOLVER } from '../formats/index.js';
import type { BatchSolver } from '../formats/index.js';
import { bundledWorker, WorkerPool } from './worker-pool.js';
import type { WorkerFactory } from './worker-pool.js';

export { WorkerPool, bundledWorker, threadExecArgv, workerFromScript } from './worker-pool.js';
export type { WorkerData, WorkerFactory, WorkerPoolOptions } from './worker-pool.js';
export { MAX_SOLVER_THREADS, parseThreadCount, SOLVER_THREADS_ENV, solverThreads } from './threads.js';
export type { ThreadCountResult } from './threads.js';

const pools = new Map<number, WorkerPool>();
let injected: WorkerFactory | undefined;

/**
 * Where solver threads come from when the code runs from its sources, which have no
 * batch-worker.mjs beside them (tests, tsx): twin/lambda/source-worker.ts. The bundles need
 * none: they start the batch-worker.mjs they ship.
 */
export function useWorkerFactory(factory: WorkerFactory | undefined): void {
  injected = factory;
}

/**
 * Where a file's rows are answered with `threads` threads: in this thread for one, else on a pool
 * of `threads - 1` worker threads with this thread as the last solver (it reads and writes too,
 * which costs too little to earn a core of its own), started once per process and shared by every file (a warm Lambda
 * or a batch of files reuses it; idle, it does not keep the process alive). Code with neither
 * batch-worker.mjs beside it nor an injected factory (a test's ad hoc bundle) solves in this
 * thread; both shipped bundles have it, and their tests start it.
 */
export function batchSolverFor(threads: number): BatchSolver {
  if (threads <= 1) return IN_THREAD_SOLVER;
  let pool = pools.get(threads);
  if (!pool || pool.size === 0) {
    const startWorker = injected ?? bundledWorker();
    if (!startWorker) return IN_THREAD_SOLVER;
    pool = new WorkerPool({ workers: threads - 1, startWorker, solveHere: true });
    pools.set(threads, pool);
  }
  return pool;
}
