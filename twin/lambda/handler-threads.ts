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
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FUNCTION_TIMEOUT_DEFAULTS } from '../../functions/contract/service-layout.js';
import { DEPLOYED_BUNDLE } from './deployed-handler.js';
import type { ExecutionPool, Invocation, Invoker } from '../gateway/gateway-limits.js';

/** The thread: loads the bundle as Lambda's init does, then answers one invocation at a time. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const ready = import(workerData.bundle).then((m) => m.handler);
parentPort.on('message', async ({ event, deadline }) => {
  const start = performance.now();
  const name = 'sudoku-local';
  const context = { callbackWaitsForEmptyEventLoop: true, functionName: name, functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:' + name, memoryLimitInMB: '1769',
    awsRequestId: randomUUID(), logGroupName: '/aws/lambda/' + name, logStreamName: 'local/[$LATEST]' + randomUUID(),
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()), done() {}, fail() {}, succeed() {} };
  try {
    const handler = await ready;
    const result = await handler(event, context);
    parentPort.postMessage({ result, ranMs: performance.now() - start });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.stack) || error), ranMs: performance.now() - start });
  }
});
`;

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
  const bundle = pathToFileURL(options.bundle ?? DEPLOYED_BUNDLE).href;
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const workers: Worker[] = [];
  const running = new Map<Worker, Job>();

  const spawn = (): Worker => {
    const worker = new Worker(THREAD, { eval: true, workerData: { bundle } });
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
        job.resolve({ ok: false });
        continue;
      }
      const worker = idle.pop()!;
      running.set(worker, job);
      const onReply = (reply: { result?: unknown; error?: string; ranMs: number }) => {
        clearTimeout(timer);
        running.delete(worker);
        release(reply.ranMs);
        idle.push(worker);
        if (reply.error !== undefined) job.reject(new Error(reply.error));
        else job.resolve({ ok: true, result: reply.result });
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
      worker.postMessage({ event: job.event, deadline: Date.now() + timeoutMs });
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
