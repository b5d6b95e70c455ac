/**
 * The deployable handler bundle: its size, its cold import time (process start to handler
 * ready, against a bare `node -e 0` in the same run) and the handler's own per-request cost once
 * warm. Every measurement runs the built dist/handler/index.mjs in a fresh child process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { handlerBundle, handlerBundleDir } from '../../infra/paths.js';

const bundleDir = handlerBundleDir;
const bundle = handlerBundle;
const COLD_RUNS = 21;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of one child process from spawn to exit, in ms, and what it printed. */
function timeProcess(args: string[]): { ms: number; stdout: string } {
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'ignore'],
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${child.status}`);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, stdout: child.stdout };
}

/** Runs in a child with stdout (logs, EMF) discarded as CloudWatch would take it; results on fd 3. */
const WARM_RUNNER = `
import { writeSync } from 'node:fs';
const { handler } = await import(process.argv[1]);
const context = { awsRequestId: 'bench', functionName: 'sudoku', functionVersion: '$LATEST', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:sudoku',
  memoryLimitInMB: '1024', logGroupName: 'g', logStreamName: 's', callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => 30000, done() {}, fail() {}, succeed() {} };
const event = (method, rawPath, body) => ({ version: '2.0', routeKey: '$default', rawPath, rawQueryString: '',
  headers: body ? { 'content-type': 'application/json', host: 'x' } : { host: 'x' },
  requestContext: { http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' }, requestId: 'r', routeKey: '$default', stage: '$default', time: '', timeEpoch: 0 },
  ...(body ? { body } : {}), isBase64Encoded: false });
const easy = JSON.stringify({ board: '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79' });
async function measure(ev, n) {
  const total = [], search = [];
  for (let i = 0; i < 500; i++) await handler(ev, context);
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    const r = await handler(ev, context);
    total.push(Number(process.hrtime.bigint() - t) / 1e3);
    if (r.statusCode !== 200) throw new Error('status ' + r.statusCode);
    const stats = JSON.parse(r.body).stats;
    if (stats) search.push(stats.micros);
  }
  return { total, search };
}
const health = await measure(event('GET', '/health'), 5000);
const solve = await measure(event('POST', '/solve', easy), 5000);
writeSync(3, JSON.stringify({ health, solve }));
`;

async function warmRequests(
  env: Record<string, string>,
): Promise<{ health: { total: number[] }; solve: { total: number[]; search: number[] } }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', WARM_RUNNER, pathToFileURL(bundle).href], {
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const chunks: Buffer[] = [];
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => chunks.push(c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`warm request runner exited with ${code}`);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    health: { total: number[] };
    solve: { total: number[]; search: number[] };
  };
}

/**
 * `entry` and the chunks it imports statically, transitively: what Node reads before the handler
 * exists (test/handler/bundle.test.ts checks what they hold).
 */
export function coldStartFiles(entry: string = bundle): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, target] of code.matchAll(/import\s*(?:[\w$*{},\s]*?from\s*)?"(\.\/[^"]+)"/g)) {
      visit(path.join(path.dirname(file), target!));
    }
  };
  visit(entry);
  return [...seen];
}

export async function run(): Promise<void> {
  console.log('\n## Handler bundle (dist/handler/index.mjs)\n');
  if (!existsSync(bundle)) throw new Error('dist/handler/index.mjs is missing: run `npm run build`');
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const size = (files: string[]) => {
    const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
    const gzipped = files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
    return `${bytes} bytes (${kib(bytes)}), gzip ${gzipped} bytes (${kib(gzipped)})`;
  };
  // The handler bundle is split: chunks/ holds code loaded on first use (the S3 path's AWS SDK).
  const code = readdirSync(bundleDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => path.join(bundleDir, f));
  console.log(`size            index.mjs ${size([bundle])}`);
  const cold = coldStartFiles();
  console.log(
    `                read at a cold start: index.mjs and the ${cold.length - 1} chunks it imports, ${size(cold)}`,
  );
  console.log(`                all ${code.length} .mjs files ${size(code)} (source maps not counted)`);

  const importArgs = [
    '--input-type=module',
    '-e',
    `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); ` +
      `if (typeof m.handler !== 'function') process.exit(1); process.stdout.write(String(performance.now() - t));`,
  ];
  timeProcess(['-e', '0']);
  timeProcess(importArgs);
  const bare: number[] = [];
  const bareModule: number[] = [];
  const withBundle: number[] = [];
  const importOnly: number[] = [];
  // Interleaved, so drift in machine load hits all alike.
  for (let i = 0; i < COLD_RUNS; i++) {
    bare.push(timeProcess(['-e', '0']).ms);
    bareModule.push(timeProcess(['--input-type=module', '-e', '0']).ms);
    const run = timeProcess(importArgs);
    withBundle.push(run.ms);
    importOnly.push(Number(run.stdout));
  }
  const b = median(bare);
  const w = median(withBundle);
  console.log(
    `cold import     ${w.toFixed(1)} ms process start to handler ready vs ${b.toFixed(1)} ms bare \`node -e 0\`: +${(w - b).toFixed(1)} ms ` +
      `(median of ${COLD_RUNS})`,
  );
  console.log(
    `                of which the import() itself ${median(importOnly).toFixed(1)} ms; a bare ESM \`node --input-type=module -e 0\` takes ${median(bareModule).toFixed(1)} ms`,
  );

  const us = (v: number) => `${v.toFixed(1)} µs`;
  for (const [label, env] of [
    ['logs + EMF on (as in AWS)', { POWERTOOLS_SERVICE_NAME: 'sudoku' }],
    ['logs + metrics off', { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' }],
  ] as const) {
    const warm = await warmRequests(env);
    const solveTotal = median(warm.solve.total);
    const search = median(warm.solve.search);
    console.log(
      `warm request    ${label}: GET /health ${us(median(warm.health.total))}; POST /solve easy board ${us(solveTotal)} ` +
        `of which search ${us(search)} -> handler overhead ${us(solveTotal - search)} (median of ${warm.health.total.length})`,
    );
  }
}

// Runnable alone: `npx tsx bench/sections/bundle.ts`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
