/**
 * The deployed handler on worker threads, for the local gateway (twin/gateway/http-server.ts).
 * In AWS every admitted request runs at once in an execution of its own; here there are as many
 * threads as the machine spares, so invocations wait their turn in arrival order. Running them
 * off the gateway's thread keeps it free to stamp arrivals and answer 429s as they come, and each
 * thread reports how long its invocation itself ran, so the pool counts executions on AWS's
 * timeline (ExecutionPool), not on this queue's. An invocation that passes the function's timeout
 * is ended there, as Lambda ends it: its thread is discarded for a fresh one (a cold start), and
 * the gateway answers the 500 API Gateway gives for a failed function.
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { FUNCTION_TIMEOUT_DEFAULTS } from '../../functions/contract/service-layout.js';
import { DEPLOYED_BUNDLE } from './deployed-handler.js';
import { type RuntimeReply, type RuntimeRequest, startExecutionEnvironment, throttledInvocation } from './runtime.js';
import type { ExecutionPool, Invocation, Invoker } from '../gateway/gateway-limits.js';

interface Job {
  event: unknown;
  admittedAt: number;
  pool: ExecutionPool;
  resolve(invocation: Invocation): void;
  reject(error: Error): void;
}

export interface HandlerThreads extends Invoker {
  readonly threads: number;
  close(): Promise<void>;
}

/** Threads the machine can spare for the handler: all CPUs but the one the gateway (and a load generator) use. */
export function defaultThreadCount(): number {
  return Math.max(1, availableParallelism() - 1);
}

export function startHandlerThreads(
  options: { bundle?: string; threads?: number; timeoutMs?: number } = {},
): HandlerThreads {
  const threads = options.threads ?? defaultThreadCount();
  const timeoutMs = options.timeoutMs ?? FUNCTION_TIMEOUT_DEFAULTS.api * 1000;
  const bundle = options.bundle ?? DEPLOYED_BUNDLE;
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const workers: Worker[] = [];
  const running = new Map<Worker, Job>();

  const spawn = (): Worker => {
    const worker = startExecutionEnvironment({ bundle, functionName: 'sudoku-local' });
    // A thread that dies (it should not: the handler catches everything) fails what it held and
    // what waits, loudly, rather than leaving requests without an answer.
    worker.on('error', (error) => {
      running.get(worker)?.reject(error);
      for (const job of queue.splice(0)) job.reject(error);
    });
    workers.push(worker);
    return worker;
  };

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const job = queue.shift()!;
      // The execution is taken now, in arrival order, when every earlier invocation has started.
      const release = job.pool.acquire(job.admittedAt);
      if (!release) {
        job.resolve(throttledInvocation(randomUUID(), "the API function's reserved concurrency is in use"));
        continue;
      }
      const worker = idle.pop()!;
      running.set(worker, job);
      const requestId = randomUUID();
      const onReply = (reply: RuntimeReply) => {
        clearTimeout(timer);
        running.delete(worker);
        release(reply.ranMs);
        idle.push(worker);
        if (reply.ok) job.resolve({ ok: true, requestId, result: reply.result });
        else job.reject(new Error(reply.errorStack));
        dispatch();
      };
      // Lambda ends the execution at the timeout whatever it is doing; the next one starts cold.
      const timer = setTimeout(() => {
        worker.off('message', onReply);
        running.delete(worker);
        release(timeoutMs);
        workers.splice(workers.indexOf(worker), 1);
        void worker.terminate();
        idle.push(spawn());
        job.reject(new Error(`Sandbox.Timedout: Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`));
        dispatch();
      }, timeoutMs);
      worker.once('message', onReply);
      // The deadline the timer above ends it at, so the handler's time left agrees with it.
      worker.postMessage({
        event: job.event,
        requestId,
        deadline: Date.now() + timeoutMs,
      } satisfies RuntimeRequest);
    }
  };

  for (let i = 0; i < threads; i++) idle.push(spawn());

  return {
    threads,
    invoke(event, admittedAt, pool) {
      return new Promise<Invocation>((resolve, reject) => {
        queue.push({ event, admittedAt, pool, resolve, reject });
        dispatch();
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
