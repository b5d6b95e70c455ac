/**
 * W, the worst-case duration of one API request, cold start included: every hostile request of
 * bench/hostile-requests.ts sent to the built bundle (dist/handler/index.mjs) in a fresh Node
 * process, timed from spawn to the handler's answer (the init holds an execution too), then warm.
 * The stage throttle is sized from W (infra/settings.ts; docs/infra.md shows the figures).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_SOLVE_BUDGET_MS, API_WORST_CASE_MS } from '../../functions/contract/api-capacity.js';
import { type BenchRequest, hostileRequests } from '../hostile-requests.js';
import { handlerBundle } from '../../infra/paths.js';

const bundle = handlerBundle;
const COLD_RUNS = 5;
const WARM_RUNS = 10;

/**
 * In the child: import the bundle, answer the request once (reporting on fd 3 the moment the
 * answer is ready), then WARM_RUNS times more. Logs go to stdout, discarded, as CloudWatch takes them.
 */
const RUNNER = `
import { readFileSync, writeSync } from 'node:fs';
const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { handler } = await import(process.argv[1]);
const timeoutMs = 5000;
const context = () => { const end = Date.now() + timeoutMs; return { awsRequestId: 'bench', functionName: 'sudoku', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:sudoku', memoryLimitInMB: '1769', logGroupName: 'g', logStreamName: 's',
  callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => end - Date.now(), done() {}, fail() {}, succeed() {} }; };
const event = { version: '2.0', routeKey: '$default', rawPath: spec.path, rawQueryString: '',
  headers: spec.contentType ? { 'content-type': spec.contentType, host: 'x' } : { host: 'x' },
  requestContext: { http: { method: spec.method, path: spec.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    requestId: 'r', routeKey: '$default', stage: '$default', time: '', timeEpoch: 0 },
  ...(spec.body !== undefined ? { body: spec.body } : {}), isBase64Encoded: false };
const first = await handler(event, context());
const size = (r) => Buffer.byteLength(JSON.stringify(r));
writeSync(3, JSON.stringify({ cold: true, status: first.statusCode, bytes: size(first) }) + '\\n');
const warm = [];
for (let i = 0; i < ${WARM_RUNS}; i++) {
  const t = performance.now();
  await handler(event, context());
  warm.push(performance.now() - t);
}
writeSync(3, JSON.stringify({ warm }) + '\\n');
`;

interface Timing {
  name: string;
  status: number;
  bytes: number;
  cold: number[];
  warm: number[];
}

/** One fresh process: ms from spawn to the first answer, and the warm answers' durations. */
async function runOnce(specFile: string): Promise<{ coldMs: number; status: number; bytes: number; warm: number[] }> {
  const start = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER, pathToFileURL(bundle).href, specFile], {
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
    env: { PATH: process.env.PATH ?? '', POWERTOOLS_SERVICE_NAME: 'sudoku' },
  });
  let coldMs = 0;
  let first: { status: number; bytes: number } | undefined;
  let warm: number[] = [];
  let buffered = '';
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const message = JSON.parse(buffered.slice(0, newline)) as {
        cold?: true;
        status: number;
        bytes: number;
        warm?: number[];
      };
      buffered = buffered.slice(newline + 1);
      if (message.cold) {
        coldMs = performance.now() - start;
        first = message;
      } else warm = message.warm ?? [];
      newline = buffered.indexOf('\n');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 || !first) throw new Error(`hostile runner exited with ${code}`);
  return { coldMs, status: first.status, bytes: first.bytes, warm };
}

/** Times every hostile request; returns the longest cold duration seen (ms). */
export async function measureWorstCase(requests: BenchRequest[] = hostileRequests()): Promise<{
  timings: Timing[];
  worstMs: number;
}> {
  if (!existsSync(bundle)) throw new Error('dist/handler/index.mjs is missing: run `npm run build`');
  const dir = mkdtempSync(path.join(tmpdir(), 'sudoku-hostile-'));
  const timings: Timing[] = [];
  try {
    for (const [i, request] of requests.entries()) {
      const file = path.join(dir, `${i}.json`);
      writeFileSync(file, JSON.stringify(request));
      const timing: Timing = { name: request.name, status: 0, bytes: 0, cold: [], warm: [] };
      for (let run = 0; run < COLD_RUNS; run++) {
        const result = await runOnce(file);
        timing.status = result.status;
        timing.bytes = result.bytes;
        timing.cold.push(result.coldMs);
        timing.warm.push(...result.warm);
      }
      timings.push(timing);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { timings, worstMs: Math.max(...timings.flatMap((t) => [...t.cold, ...t.warm])) };
}

export async function run(): Promise<void> {
  console.log('\n## Worst-case request duration W (hostile requests against dist/handler/index.mjs)\n');
  console.log(
    `Solving budget ${API_SOLVE_BUDGET_MS} ms per request. Cold: a fresh Node process per run, spawn to answer ` +
      `(${COLD_RUNS} runs); warm: ${WARM_RUNS} more answers in each of those processes.\n`,
  );
  const { timings, worstMs } = await measureWorstCase();
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const rows = timings.map((t) => [
    t.name,
    String(t.status),
    `${(t.bytes / 1024).toFixed(0)} KiB`,
    `${ms(Math.min(...t.cold))}-${ms(Math.max(...t.cold))}`,
    `${ms(Math.min(...t.warm))}-${ms(Math.max(...t.warm))}`,
  ]);
  const header = ['request', 'status', 'answer', 'cold (spawn to answer)', 'warm'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log(
    `\nlongest measured ${ms(worstMs)}; W used for the throttle ${ms(API_WORST_CASE_MS)} ` +
      `(functions/contract/api-capacity.ts): ${(API_WORST_CASE_MS / worstMs).toFixed(2)}x the longest measured here`,
  );
  if (worstMs > API_WORST_CASE_MS) {
    throw new Error(
      `a hostile request took ${ms(worstMs)}, over W = ${ms(API_WORST_CASE_MS)}: raise W or lower the budget`,
    );
  }
}

// Runnable alone: `npx tsx bench/sections/hostile.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
