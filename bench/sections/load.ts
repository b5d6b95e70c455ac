/**
 * `npm run bench -- load`: the HTTP API under load, as the twin (twin) shows it: the
 * built bundle on worker threads behind the stack's own route throttles and reserved pool, on
 * loopback, driven by autocannon. Two mixes, each bounded in requests and seconds, each against a
 * fresh server (full buckets, empty pool):
 *
 * (a) mixed traffic at the configured rate of POST /solve (single boards in every shape, batches,
 *     text bodies, bad input): 0 5xx and no 429, with p50/p99 latency;
 * (b) an attack at twice the rate, hostile requests only (bench/hostile-requests.ts): 0 5xx, 429s
 *     for the excess, and the most executions in flight, which must stay within the pool.
 *
 * The load generator runs in a child process (bench/load-client.ts). Latency is this machine's:
 * the handler runs on the threads it can spare, so the attack's admitted requests queue here where
 * AWS would run each at once. The pool is counted on AWS's timeline (twin/
 * gateway-limits.ts: ExecutionPool), which the queue does not distort. The rate at which requests
 * reached the gateway is printed: on a small machine the attack's 1 MiB bodies arrive slower than
 * they are offered.
 */
import { execSync, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { API_WORST_CASE_MS } from '../../functions/contract/api-capacity.js';
import { SOLVE_ROUTE } from '../../infra/settings.js';
import { startHandlerThreads } from '../../twin/lambda/handler-threads.js';
import { startHttpServer } from '../../twin/gateway/http-server.js';
import { loadStackLimits, stackGatewayLimits } from '../../twin/stack-limits.js';
import type { Offered } from '../load-client.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Phase {
  label: string;
  mix: 'mixed' | 'attack';
  rate: number;
  seconds: number;
}

/** The load generator in a child process (bench/load-client.ts): its bodies do not compete with the gateway. */
async function offer(url: string, phase: Phase): Promise<Offered> {
  const child = spawn(
    path.join(root, 'node_modules', '.bin', 'tsx'),
    [path.join(root, 'bench', 'load-client.ts'), url, phase.mix, String(phase.rate), String(phase.seconds)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bench/load-client.ts exited with ${code}`);
  const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<Offered, 'statuses'> & {
    statuses: [number, number][];
  };
  return { ...parsed, statuses: new Map(parsed.statuses) };
}

const MIXED_SECONDS = 10;
const ATTACK_SECONDS = 3;

async function runPhase(phase: Phase) {
  const limits = stackGatewayLimits({}, await loadStackLimits());
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
  const limits = stackGatewayLimits({}, await loadStackLimits());
  const solve = limits.routeThrottles[SOLVE_ROUTE]!;
  console.log('\n## Load on the local twin (autocannon, loopback, the stack limits)\n');
  console.log(
    `${cpuModel()}, ${cpus().length} CPUs. POST /solve bucket: ${solve.rate} requests/s, burst ${solve.burst}; ` +
      `pool ${limits.reservedConcurrency} executions; W ${API_WORST_CASE_MS} ms.\n`,
  );
  const phases: Phase[] = [
    {
      label: '(a) mixed traffic at the rate',
      mix: 'mixed',
      rate: solve.rate,
      seconds: MIXED_SECONDS,
    },
    {
      label: '(b) attack at twice the rate, hostile requests only',
      mix: 'attack',
      rate: 2 * solve.rate,
      seconds: ATTACK_SECONDS,
    },
  ];
  const failures: string[] = [];
  for (const phase of phases) {
    const { offered, stats, threads } = await runPhase(phase);
    const count = (code: number) => offered.statuses.get(code) ?? 0;
    const codes = [...offered.statuses].sort(([a], [b]) => a - b);
    const fivexx = codes.filter(([code]) => code >= 500).reduce((n, [, c]) => n + c, 0);
    // What the bucket can admit over the time the requests actually arrived in.
    const admittedBound = Math.floor(solve.burst + solve.rate * stats.arrivalSeconds);
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
      `  gateway: arrivals ${(answered / stats.arrivalSeconds).toFixed(0)}/s; 429 x ${stats.throttled} (the bucket admits at most ${admittedBound} as they arrived over ${stats.arrivalSeconds.toFixed(2)} s: ` +
        `burst ${solve.burst} + ${solve.rate}/s); pool: full ${stats.poolFull} times, peak executions in flight ` +
        `${stats.peakExecutions} of ${limits.reservedConcurrency}`,
    );
    if (fivexx > 0 || stats.poolFull > 0) failures.push(`${phase.label}: ${fivexx} 5xx`);
    if (stats.peakExecutions > limits.reservedConcurrency) failures.push(`${phase.label}: pool exceeded`);
    if (offered.errors > 0) failures.push(`${phase.label}: ${offered.errors} connection errors`);
    if (phase === phases[0] && count(429) > 0) failures.push(`${phase.label}: ${count(429)} 429s below the rate`);
    if (phase === phases[1] && count(429) === 0) failures.push(`${phase.label}: no 429 for the excess`);
    const admitted = answered - count(429);
    if (admitted > admittedBound)
      failures.push(`${phase.label}: ${admitted} admitted, over the bucket's ${admittedBound}`);
  }
  if (failures.length) throw new Error(`load bench: ${failures.join('; ')}`);
}

// Runnable alone: `npx tsx bench/sections/load.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
