/**
 * `npm run bench -- load`: the HTTP API under load, as the twin (functions/local) shows it: the
 * built bundle on worker threads behind the stack's own route throttles and reserved pool, on
 * loopback, driven by autocannon. Two mixes, each bounded in requests and seconds, each against a
 * fresh server (full buckets, empty pool):
 *
 * (a) mixed traffic at the configured rate of POST /solve (single boards in every shape, batches,
 *     text bodies, bad input): 0 5xx and no 429, with p50/p99 latency;
 * (b) an attack at twice the rate, hostile requests only (bench/hostile-requests.ts): 0 5xx, 429s
 *     for the excess, and the most executions in flight, which must stay within the pool.
 *
 * Latency is this machine's: the handler runs on the threads it can spare, so the attack's
 * admitted requests queue here where AWS would run each at once. The pool is counted on AWS's
 * timeline (functions/local/gateway-limits.ts: ExecutionPool), which the queue does not distort.
 */
import { execSync } from 'node:child_process';
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { API_WORST_CASE_MS } from '../../functions/contract/api-capacity.js';
import { startHandlerThreads } from '../../functions/local/handler-threads.js';
import { startHttpServer } from '../../functions/local/http-server.js';
import { stackGatewayLimits } from '../../functions/local/stack-limits.js';
import { type BenchRequest, hostileRequests, puzzleSet } from '../hostile-requests.js';

const MIXED_SECONDS = 10;
const ATTACK_SECONDS = 3;

/** Ordinary traffic: what apps, scripts and the web page send, good and bad. */
function mixedRequests(): BenchRequest[] {
  const easy = puzzleSet('puzzles2_17_clue');
  const hard = puzzleSet('puzzles5_forum_hardest_1905_11+');
  const json = (body: unknown): BenchRequest => ({
    name: 'json',
    method: 'POST',
    path: '/solve',
    contentType: 'application/json',
    body: JSON.stringify(body),
  });
  const text = (lines: string[]): BenchRequest => ({
    name: 'text',
    method: 'POST',
    path: '/solve',
    contentType: 'text/plain',
    body: `${lines.join('\n')}\n`,
  });
  const rows = (b: string) => Array.from({ length: 9 }, (_, r) => [...b.slice(r * 9, r * 9 + 9)]);
  const numbers = (b: string) => rows(b).map((row) => row.map((c) => (c === '.' ? 0 : Number(c))));
  const requests: BenchRequest[] = [];
  for (let i = 0; i < 20; i++) {
    requests.push(
      json({ board: easy[i]! }),
      json({ board: rows(hard[i]!) }),
      json({ board: numbers(easy[100 + i]!) }),
      json({ boards: easy.slice(i * 50, i * 50 + 50) }),
      json({ boards: hard.slice(i * 20, i * 20 + 20) }),
      text(easy.slice(1000 + i * 20, 1000 + i * 20 + 20)),
      text(hard.slice(500 + i * 5, 500 + i * 5 + 5)),
      json({ board: `55${easy[i]!.slice(2)}` }), // repeated givens: 400
      { name: 'malformed', method: 'POST', path: '/solve', contentType: 'application/json', body: '{"board":' }, // 400
      { name: 'wrong type', method: 'POST', path: '/solve', contentType: 'text/csv', body: easy[i]! }, // 415
    );
  }
  return requests;
}

interface Phase {
  label: string;
  requests: BenchRequest[];
  rate: number;
  seconds: number;
  /** Connections per autocannon instance: enough that none waits for an answer to send on time. */
  connections: number;
}

/**
 * autocannon paces `overallRate` as a quota per connection per second, sent at the top of each
 * second: a burst of the whole second's requests, which any token bucket answers with 429s. So the
 * rate is split over INSTANCES instances started 1/INSTANCES s apart: a burst of rate/INSTANCES
 * every 1/INSTANCES s, smooth at the bucket's scale.
 */
const INSTANCES = 10;

interface Offered {
  statuses: Map<number, number>;
  latencies: number[];
  errors: number;
  timeouts: number;
  seconds: number;
}

async function offer(url: string, phase: Phase): Promise<Offered> {
  const offered: Offered = { statuses: new Map(), latencies: [], errors: 0, timeouts: 0, seconds: 0 };
  const start = performance.now();
  const rates = Array.from(
    { length: INSTANCES },
    (_, i) => Math.floor(((i + 1) * phase.rate) / INSTANCES) - Math.floor((i * phase.rate) / INSTANCES),
  );
  const requests = phase.requests.map((r) => ({
    method: r.method,
    path: r.path,
    ...(r.contentType ? { headers: { 'content-type': r.contentType } } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
  }));
  await Promise.all(
    rates.map(async (rate, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * 1000) / INSTANCES));
      const shift = Math.floor((i * requests.length) / INSTANCES);
      const result = await autocannon({
        url,
        connections: Math.min(phase.connections, rate),
        overallRate: rate,
        amount: rate * phase.seconds,
        duration: phase.seconds * 20, // a bound; `amount` ends the run first
        timeout: 300,
        requests: [...requests.slice(shift), ...requests.slice(0, shift)],
        setupClient: (client) => {
          client.on('response', (status: number, _bytes: number, ms: number) => {
            offered.statuses.set(status, (offered.statuses.get(status) ?? 0) + 1);
            offered.latencies.push(ms);
          });
        },
      });
      offered.errors += result.errors;
      offered.timeouts += result.timeouts;
    }),
  );
  offered.seconds = (performance.now() - start) / 1000;
  return offered;
}

async function runPhase(phase: Phase) {
  const limits = stackGatewayLimits({});
  const threads = startHandlerThreads();
  const server = await startHttpServer({ port: 0, handler: threads, limits, onHandlerError: () => undefined });
  try {
    const offered = await offer(server.url, phase);
    return { offered, stats: server.stats(), threads: threads.threads };
  } finally {
    await server.close();
    await threads.close();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function cpuModel(): string {
  try {
    return execSync("lscpu | grep 'Model name'", { encoding: 'utf8' })
      .replace(/^Model name:\s*/, '')
      .trim();
  } catch {
    return cpus()[0]?.model ?? 'unknown CPU';
  }
}

export async function run(): Promise<void> {
  // The handler's logs and metrics off: the bench measures the service, not the terminal.
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const limits = stackGatewayLimits({});
  const solve = limits.routeThrottles['POST /solve']!;
  console.log('\n## Load on the local twin (autocannon, loopback, the stack limits)\n');
  console.log(
    `${cpuModel()}, ${cpus().length} CPUs. POST /solve bucket: ${solve.rate} requests/s, burst ${solve.burst}; ` +
      `pool ${limits.reservedConcurrency} executions; W ${API_WORST_CASE_MS} ms.\n`,
  );
  const phases: Phase[] = [
    {
      label: '(a) mixed traffic at the rate',
      requests: mixedRequests(),
      rate: solve.rate,
      seconds: MIXED_SECONDS,
      connections: 4,
    },
    {
      label: '(b) attack at twice the rate, hostile requests only',
      requests: hostileRequests(),
      rate: 2 * solve.rate,
      seconds: ATTACK_SECONDS,
      connections: Math.ceil((2 * solve.rate * ATTACK_SECONDS) / INSTANCES) + 1,
    },
  ];
  const failures: string[] = [];
  for (const phase of phases) {
    const { offered, stats, threads } = await runPhase(phase);
    const count = (code: number) => offered.statuses.get(code) ?? 0;
    const codes = [...offered.statuses].sort(([a], [b]) => a - b);
    const fivexx = codes.filter(([code]) => code >= 500).reduce((n, [, c]) => n + c, 0);
    const admittedBound = Math.floor(solve.burst + solve.rate * phase.seconds);
    console.log(
      `${phase.label}: ${Math.round(phase.rate * phase.seconds)} requests offered at ${phase.rate}/s for ${phase.seconds} s`,
    );
    const answered = codes.reduce((n, [, c]) => n + c, 0);
    console.log(
      `  answers: ${codes.map(([code, n]) => `${code} x ${n}`).join(', ')} (${answered} in ${offered.seconds.toFixed(1)} s); ` +
        `5xx ${fivexx}; connection errors ${offered.errors}, timeouts ${offered.timeouts}`,
    );
    const ms = (p: number) => `${percentile(offered.latencies, p).toFixed(0)} ms`;
    console.log(
      `  latency p50 ${ms(50)}, p99 ${ms(99)}, max ${ms(100)} (the handler on ${threads} thread(s) here, where AWS ` +
        'runs each admitted request at once)',
    );
    console.log(
      `  gateway: 429 x ${stats.throttled} (the bucket admits at most ${admittedBound} in ${phase.seconds} s: ` +
        `burst ${solve.burst} + ${solve.rate}/s); pool: full ${stats.poolFull} times, peak executions in flight ` +
        `${stats.peakExecutions} of ${limits.reservedConcurrency}`,
    );
    if (fivexx > 0 || stats.poolFull > 0) failures.push(`${phase.label}: ${fivexx} 5xx`);
    if (stats.peakExecutions > limits.reservedConcurrency) failures.push(`${phase.label}: pool exceeded`);
    if (offered.errors > 0) failures.push(`${phase.label}: ${offered.errors} connection errors`);
    if (phase === phases[0] && count(429) > 0) failures.push(`${phase.label}: ${count(429)} 429s below the rate`);
    if (phase === phases[1] && count(429) === 0) failures.push(`${phase.label}: no 429 for the excess`);
  }
  if (failures.length) throw new Error(`load bench: ${failures.join('; ')}`);
}

// Runnable alone: `npx tsx bench/sections/load.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
