// The API function on worker threads behind the local gateway: an invocation that passes the
// function's timeout is ended there, as Lambda ends it, and answered as API Gateway answers a
// failed function; the next invocation starts in a fresh thread.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHandlerThreads, type HandlerThreads } from '../../../twin/lambda/handler-threads.js';
import { startHttpServer, type RunningHttpServer } from '../../../twin/gateway/http-server.js';

const TIMEOUT_MS = 400;
let bundle: string;
beforeAll(() => {
  // A function whose module counts its invocations (the count tells a fresh thread from a warm
  // one) and that spins for a minute on /spin, as a request stuck in a loop would.
  bundle = path.join(mkdtempSync(path.join(os.tmpdir(), 'sudoku-api-timeout-')), 'spin.mjs');
  writeFileSync(
    bundle,
    [
      'let n = 0;',
      'export const handler = async (event, context) => {',
      '  n++;',
      "  if (event.rawPath === '/spin') { const end = Date.now() + 60_000; while (Date.now() < end); }",
      '  const body = JSON.stringify({ n, deadline: Date.now() + context.getRemainingTimeInMillis() });',
      "  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body };",
      '};',
      '',
    ].join('\n'),
  );
});

let threads: HandlerThreads | undefined;
let server: RunningHttpServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  await threads?.close();
  server = undefined;
  threads = undefined;
});

describe('the API function on worker threads', () => {
  it("ends an invocation at the function's timeout with API Gateway's 500, and starts the next one in a fresh thread", async () => {
    threads = startHandlerThreads({ bundle, threads: 1, timeoutMs: TIMEOUT_MS });
    const errors: string[] = [];
    server = await startHttpServer({
      port: 0,
      handler: threads,
      onHandlerError: (error) => errors.push(String(error)),
    });
    const warm = await fetch(`${server.url}/ok`);
    expect(await warm.json()).toMatchObject({ n: 1 });

    // The timeout's timer is the test's: the invocation runs until the test says the timeout has
    // come, and nothing ends it before, however slowly the machine goes.
    const realSetTimeout = globalThis.setTimeout;
    const timeouts: { ms: number | undefined; fire: () => void }[] = [];
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number, ...rest: unknown[]) => {
      if (ms !== TIMEOUT_MS) return (realSetTimeout as (...args: unknown[]) => NodeJS.Timeout)(handler, ms, ...rest);
      timeouts.push({ ms, fire: handler });
      return realSetTimeout(() => {}, 0);
    }) as typeof setTimeout);
    let answered = false;
    const spinning = fetch(`${server.url}/spin`).finally(() => {
      answered = true;
    });
    await vi.waitUntil(() => timeouts.length > 0, { timeout: 30_000 });
    // Time for anything else that would end it to do so and be answered.
    for (let turn = 0; turn < 20; turn++) await new Promise<void>((resolve) => realSetTimeout(resolve, 5));
    expect(errors).toEqual([]);
    expect(answered).toBe(false);
    expect(timeouts.map((t) => t.ms)).toEqual([TIMEOUT_MS]);
    timeouts[0]!.fire();
    vi.restoreAllMocks();
    const spun = await spinning;
    expect(spun.status).toBe(500);
    expect(await spun.json()).toEqual({ message: 'Internal Server Error' });
    expect(errors).toEqual([expect.stringContaining('Task timed out after 0.40 seconds')]);

    // The spinning thread was discarded: a new one answers, its module loaded afresh (n = 1).
    const before = Date.now();
    const next = await fetch(`${server.url}/ok`);
    expect(next.status).toBe(200);
    const { n, deadline } = (await next.json()) as { n: number; deadline: number };
    expect(n).toBe(1);
    // Its time left counts from when the gateway handed it the invocation.
    expect(deadline).toBeGreaterThanOrEqual(before + TIMEOUT_MS - 1);
    expect(deadline).toBeLessThanOrEqual(Date.now() + TIMEOUT_MS);
  });
});
