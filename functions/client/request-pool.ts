/**
 * Runs the requests of a long list a few at a time and puts each answer back at its items' place.
 * A request the function refuses as too much for one request (413: too many boards, body, answer,
 * or solving time) is cut in two and both halves are sent instead; anything else thrown stops the
 * run (the requests in flight are aborted) and is thrown to the caller.
 */
import { SudokuProblemError } from './errors.js';
import type { Span } from './request-cutting.js';

/** The function's 413s that a smaller request avoids. */
const TOO_MUCH = new Set(['too-many-boards', 'body-too-large', 'response-too-large', 'solve-time-exceeded']);

export interface PoolJob<R> {
  readonly total: number;
  readonly spans: readonly Span[];
  /** The items no request can carry, each answered as a failure without being sent. */
  readonly oversized: readonly number[];
  oversizedResult(index: number): R;
  /** One request for items [from, to): one result per item, in order, numbered as in the whole list. */
  send(span: Span, signal: AbortSignal): Promise<R[]>;
  /** Results as they arrive (items [start, start + results.length)), for progress or partial output. */
  onResults?: (start: number, results: readonly R[]) => void;
}

export async function runPool<R>(job: PoolJob<R>, maxInFlight: number, signal?: AbortSignal): Promise<R[]> {
  signal?.throwIfAborted();
  const results = new Array<R>(job.total);
  const deliver = (start: number, answered: readonly R[]) => {
    for (let k = 0; k < answered.length; k++) results[start + k] = answered[k] as R;
    job.onResults?.(start, answered);
  };
  for (const index of job.oversized) deliver(index, [job.oversizedResult(index)]);
  const queue: Span[] = [...job.spans];
  // One controller for the run: the caller's abort, or the first failure, stops every request.
  const run = new AbortController();
  const stop = () => run.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (queue.length > 0 && !run.signal.aborted) {
      const span = queue.shift() as Span;
      try {
        deliver(span[0], await job.send(span, run.signal));
      } catch (error) {
        const [from, to] = span;
        if (error instanceof SudokuProblemError && error.status === 413 && TOO_MUCH.has(error.code) && to - from > 1) {
          const middle = from + Math.ceil((to - from) / 2);
          queue.unshift([from, middle], [middle, to]);
          spawn();
          continue;
        }
        if (!failure && !run.signal.aborted) {
          failure = { error };
          run.abort(error);
        }
      }
    }
  };
  // Workers while there is work and room: at the start, and again when a split adds a request.
  const active = new Set<Promise<void>>();
  const spawn = () => {
    while (active.size < maxInFlight && active.size < queue.length + 1 && !run.signal.aborted) {
      const running: Promise<void> = worker().finally(() => active.delete(running));
      active.add(running);
    }
  };
  try {
    spawn();
    while (active.size > 0) await Promise.all([...active]);
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  if (failure) throw failure.error;
  signal?.throwIfAborted();
  return results;
}
