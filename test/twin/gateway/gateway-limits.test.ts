// The local gateway's limits: the stage's token bucket per route (429 above it, API Gateway's body)
// and the API function's pool (an invocation over it gets the 500 of a throttled Lambda).
import { afterEach, describe, expect, it } from 'vitest';
import { httpApiService } from '../../../twin/commands/start.js';
import { EASY, EASY_SOLUTION } from '../../helpers/boards.js';
import { readPuzzleSet } from '../../helpers/puzzle-sets.js';
import { defaults, apiRouteThrottles, peakInFlight } from '../../../infra/settings.js';
import { ExecutionPool, TokenBucket, type GatewayLimits } from '../../../twin/gateway/gateway-limits.js';
import { startHttpServer, type LambdaHandler, type RunningHttpServer } from '../../../twin/gateway/http-server.js';
import { loadStackTemplate } from '../../../twin/iam/stack-template.js';
import { stackGatewayLimits, stackLimits } from '../../../twin/stack-limits.js';

let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: LambdaHandler, limits: GatewayLimits): Promise<string> {
  server = await startHttpServer({ port: 0, handler, limits, onHandlerError: () => undefined });
  return server.url;
}

/** A bucket that refills so slowly that no token comes back during a test. */
const noRefill = (burst: number) => ({ rate: 0.001, burst });

const post = (url: string) =>
  fetch(`${url}/solve`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });

describe('the token bucket (API Gateway throttling)', () => {
  it('admits a full burst, then the steady rate, and nothing above it', () => {
    let now = 0;
    const bucket = new TokenBucket({ rate: 10, burst: 3 }, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now = 100; // 0.1 s at 10/s: one token back
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now = 10_000; // a long quiet spell refills to the burst, no further
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});

describe('the local gateway', () => {
  it('answers 429 {"message":"Too Many Requests"} above a route\'s bucket, without invoking the function', async () => {
    let invoked = 0;
    const url = await serve(
      async () => {
        invoked++;
        return { statusCode: 200, body: 'ok' };
      },
      { routeThrottles: { 'POST /solve': noRefill(3), $default: noRefill(2) }, reservedConcurrency: 100 },
    );
    const statuses = await Promise.all(Array.from({ length: 10 }, () => post(url).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(invoked).toBe(3);
    const over = await post(url);
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toBe('application/json');
    expect(await over.json()).toEqual({ message: 'Too Many Requests' });
    // Each route has its own bucket: the spent POST /solve leaves $default's (any other path) whole.
    expect((await fetch(`${url}/nowhere`)).status).toBe(200);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/health`)).status).toBe(429);
    expect(server!.stats()).toMatchObject({ throttled: 9, poolFull: 0 });
  });

  it('answers 500 {"message":"Internal Server Error"} when the pool is full, as API Gateway does for a throttled Lambda', async () => {
    const waiting: Array<() => void> = [];
    const url = await serve(
      () =>
        new Promise((resolve) => {
          waiting.push(() => resolve({ statusCode: 200, body: 'ok' }));
        }),
      { routeThrottles: { 'POST /solve': noRefill(100), $default: noRefill(100) }, reservedConcurrency: 2 },
    );
    const first = [post(url), post(url)];
    while (waiting.length < 2) await new Promise((r) => setTimeout(r, 5));
    const third = await post(url);
    expect(third.status).toBe(500);
    expect(await third.json()).toEqual({ message: 'Internal Server Error' });
    for (const release of waiting.splice(0)) release();
    expect((await Promise.all(first)).map((r) => r.status)).toEqual([200, 200]);
    expect(server!.stats()).toMatchObject({ poolFull: 1, peakExecutions: 2 });
  });
});

describe("the pool's count of executions", () => {
  it("follows AWS's timeline: an invocation holds an execution from its admission for as long as it ran", () => {
    let now = 0;
    const pool = new ExecutionPool(2, () => now);
    // Admitted at 0 and 10, run one after the other here (100 ms each), as a one-thread twin does.
    const a = pool.acquire(0)!;
    now = 100;
    a(100);
    const b = pool.acquire(10)!; // at 10, a was still running in AWS: two busy
    now = 200;
    b(100);
    expect(pool.peak).toBe(2);
    // Admitted at 20: a and b both still busy at 20 in AWS (until 100 and 110), so the pool of 2 is full.
    expect(pool.acquire(20)).toBeUndefined();
    expect(pool.throttled).toBe(1);
    // Admitted at 105: only b (10-110) is busy then.
    expect(pool.acquire(105)).toBeDefined();
    // And invocations still running here count, whatever their admission: two of them fill it.
    expect(pool.acquire(500)).toBeDefined();
    expect(pool.acquire(600)).toBeUndefined();
  });

  it('has no limit when the function has no reservation (0)', () => {
    const pool = new ExecutionPool(0);
    for (let i = 0; i < 1000; i++) expect(pool.acquire(0)).toBeDefined();
    expect(pool.peak).toBe(1000);
  });
});

describe("npm start's limits (twin/stack-limits.ts)", () => {
  it("are the stack's own: every route's bucket and the API function's reserved concurrency, as the template deploys them", () => {
    expect(stackGatewayLimits({})).toEqual({
      routeThrottles: apiRouteThrottles(defaults),
      reservedConcurrency: defaults.apiReservedConcurrency,
    });
  });

  it("fill, without a reservation, the API's part of unreservedConcurrencyShare that the throttle is sized for", async () => {
    const context: Record<string, unknown> = {
      apiReservedConcurrency: 0,
      filesReservedConcurrency: 0,
      unreservedConcurrencyShare: 50,
    };
    const limits = stackGatewayLimits({}, stackLimits(await loadStackTemplate(context)));
    expect(limits.reservedConcurrency).toBe(27);
    expect(peakInFlight(limits.routeThrottles)).toBeLessThanOrEqual(27);
  });

  it('can be overridden by environment for tests', () => {
    const limits = stackGatewayLimits({
      SUDOKU_LOCAL_RATE_LIMIT: '0.5',
      SUDOKU_LOCAL_BURST_LIMIT: '2',
      SUDOKU_LOCAL_RESERVED_CONCURRENCY: '1',
    });
    expect(limits.routeThrottles['POST /solve']).toEqual({ rate: 0.5, burst: 2 });
    expect(limits.routeThrottles['GET /health']).toEqual(apiRouteThrottles(defaults)['GET /health']);
    expect(limits.reservedConcurrency).toBe(1);
    expect(() => stackGatewayLimits({ SUDOKU_LOCAL_RATE_LIMIT: 'fast' })).toThrow('SUDOKU_LOCAL_RATE_LIMIT');
  });
});

describe('npm start (the HTTP API service: the built bundle on worker threads, behind the limits)', () => {
  const hardest = readPuzzleSet('puzzles6_forum_hardest_1106');
  const heavy = JSON.stringify({ boards: Array.from({ length: 1000 }, (_, i) => hardest[i % hardest.length]) });

  async function start(env: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
    const saved = { ...process.env };
    Object.assign(process.env, { PORT: '0', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' }, env);
    try {
      const service = await httpApiService({ fail: (error) => expect.fail(error.message) });
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(service.banner.join('\n'))![0];
      return { url, close: service.close };
    } finally {
      process.env = saved;
    }
  }

  const solve = (url: string, body: string) =>
    fetch(`${url}/solve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('answers 429 above the rate of POST /solve, with the bucket set by environment', async () => {
    const service = await start({ SUDOKU_LOCAL_RATE_LIMIT: '0.001', SUDOKU_LOCAL_BURST_LIMIT: '2' });
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => solve(service.url, JSON.stringify({ board: EASY }))),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429]);
      const solved = await Promise.all(
        answers.filter((r) => r.status === 200).map((r) => r.json() as Promise<{ solution: string }>),
      );
      expect(solved.map((a) => a.solution)).toEqual([EASY_SOLUTION, EASY_SOLUTION]);
    } finally {
      await service.close();
    }
  });

  it("answers 500 when the API function's pool is full (one execution, two requests at once)", async () => {
    const service = await start({ SUDOKU_LOCAL_RESERVED_CONCURRENCY: '1' });
    try {
      const answers = await Promise.all([solve(service.url, heavy), solve(service.url, heavy)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 500]);
      const refused = answers.find((r) => r.status === 500)!;
      expect(await refused.json()).toEqual({ message: 'Internal Server Error' });
    } finally {
      await service.close();
    }
  });
});
