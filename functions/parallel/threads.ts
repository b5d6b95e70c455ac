import { availableParallelism } from 'node:os';
import { SOLVER_THREADS_ENV } from '../contract/service-layout.js';
import { type Environment, readEnv } from '../contract/environment.js';

export { SOLVER_THREADS_ENV };

/** More threads than this only adds memory: Lambda stops at 6 vCPUs, and batches are the unit of work. */
export const MAX_SOLVER_THREADS = 64;

export type ThreadCountResult = { ok: true; threads: number } | { ok: false; message: string };

/** A thread count as written by a person (`--threads 4`, SOLVER_THREADS=4). */
export function parseThreadCount(text: string, source: string): ThreadCountResult {
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SOLVER_THREADS) {
    return { ok: false, message: `${source} must be a whole number from 1 to ${MAX_SOLVER_THREADS}, got '${text}'` };
  }
  return { ok: true, threads: n };
}

/**
 * How many threads solve a file: what was asked for, else SOLVER_THREADS, else every CPU this
 * process may run on (os.availableParallelism() follows the affinity mask on Linux, so under
 * `taskset -c 1` it is 1 and no worker is started).
 */
export function solverThreads(requested?: number, env?: Environment): number {
  if (requested !== undefined) return requested;
  const fromEnv = readEnv(SOLVER_THREADS_ENV, env);
  if (fromEnv !== undefined && fromEnv !== '') {
    const parsed = parseThreadCount(fromEnv, SOLVER_THREADS_ENV);
    // A deployment mistake, not user input: loud, so it is fixed rather than silently ignored.
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.threads;
  }
  return Math.min(availableParallelism(), MAX_SOLVER_THREADS);
}
