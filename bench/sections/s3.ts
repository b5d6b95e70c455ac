/**
 * Puzzle files through the local S3 server, end to end: a file of 1,000,000 puzzles (the 17-clue
 * set, reshuffled and repeated) uploaded to s3rver, then solved by the same per-file pipeline
 * the Lambda runs (GetObject stream -> solver -> multipart Upload -> report), in a child process
 * so its peak memory (RSS) is its own. Shown next to the bare solver on the same puzzles, and
 * repeated with 4,000,000 rows: streaming means the peak memory does not grow with the file.
 * Also the CLI on the same 1M-line file, file to file.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Upload } from '@aws-sdk/lib-storage';
import { startS3Server } from '../../twin/s3/s3-server.js';
import { prefixes } from '../../functions/contract/service-layout.js';
import { localS3Client } from '../../twin/s3/local-s3-client.js';
import { functionEnvironment } from '../../twin/lambda/function-environment.js';
import { RANGE_BYTES_ENV } from '../../functions/pipeline/range-plan.js';
import type { FileReport } from '../../functions/pipeline/index.js';
import { PEAK_RSS_SOURCE } from '../peak-rss.js';
import { fullPuzzleSets } from '../puzzle-sets.js';
import { solveBoard } from '../../functions/sudoku/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SET = 'puzzles2_17_clue';

/** Deterministic shuffles, so every run solves the same file. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The set, reshuffled on every pass, until `rows` puzzles: pass k is a fresh permutation. */
export function* puzzleRows(set: readonly string[], rows: number): Generator<string> {
  const random = mulberry32(17);
  const order = set.map((_, i) => i);
  for (let emitted = 0; emitted < rows; ) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) {
      if (emitted++ >= rows) return;
      yield set[i]!;
    }
  }
}

export async function writePuzzleFile(file: string, set: readonly string[], rows: number): Promise<void> {
  const out = createWriteStream(file);
  let block = '';
  for (const puzzle of puzzleRows(set, rows)) {
    block += `${puzzle}\n`;
    if (block.length >= 1 << 20) {
      if (!out.write(block)) await once(out, 'drain');
      block = '';
    }
  }
  out.end(block);
  await once(out, 'finish');
}

/** The bare solver on the same puzzles: the same call the pipeline makes per row (count to two, format). */
function bareSolver(set: readonly string[], rows: number): { perSecond: number; unsolved: number } {
  for (const p of set.slice(0, 5000)) solveBoard(p, { checkUnique: true });
  let unsolved = 0;
  const start = performance.now();
  for (const puzzle of puzzleRows(set, rows)) if (!solveBoard(puzzle, { checkUnique: true }).ok) unsolved++;
  return { perSecond: rows / ((performance.now() - start) / 1000), unsolved };
}

/** Runs in a child under tsx: processObject on one object, the report and peak RSS written to fd 3. */
const PROCESS_RUNNER = `
import { writeSync } from 'node:fs';
${PEAK_RSS_SOURCE}
const { createS3Client, processObject } = await import(process.argv[1]);
const { outputKeysFor, prefixes } = await import(process.argv[2]);
const [bucket, sourceKey] = process.argv.slice(3);
const client = createS3Client();
const baselineRssKb = Math.round(process.memoryUsage().rss / 1024);
const result = await processObject({ client, bucket, sourceKey, ...outputKeysFor(sourceKey, prefixes.incoming), force: true });
const cpu = process.cpuUsage();
writeSync(3, JSON.stringify({ report: result.report, maxRssKb: peakRssKb(), baselineRssKb, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
`;

interface ProcessRun {
  report: FileReport;
  maxRssKb: number;
  /** RSS once Node, tsx, the SDK and the solver are loaded, before the file is touched. */
  baselineRssKb: number;
  /** CPU time of the processing child, every thread, start-up included. */
  cpuSeconds: number;
  /** CPU time the local S3 server spent meanwhile (serving the GetObject and the upload). */
  serverCpuSeconds?: number;
}

/**
 * CPU seconds a process has used so far (Linux /proc; undefined elsewhere). The local S3 server
 * runs on the same cores as the pipeline here, unlike S3 in AWS, so its share is shown.
 */
function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): utime and stime are
    // the 12th and 13th, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function processInChild(
  server: { endpoint: string; pid: number | undefined },
  bucket: string,
  key: string,
  threads?: number,
): Promise<ProcessRun> {
  const serverCpuBefore = cpuSecondsOf(server.pid);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      PROCESS_RUNNER,
      pathToFileURL(path.join(root, 'functions', 'pipeline', 'index.ts')).href,
      pathToFileURL(path.join(root, 'functions', 'contract', 'service-layout.ts')).href,
      bucket,
      key,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
      env: {
        ...process.env,
        ...functionEnvironment(server.endpoint, 'admin'),
        ...(threads === undefined ? {} : { SOLVER_THREADS: String(threads) }),
        // One invocation's path, whatever the file's size: this measures it (the 4M-row file is over
        // the conservative range of a 900 s function, and the child has no large-file state machine
        // to hand it to; the split path has sections of its own, split and split-full).
        [RANGE_BYTES_ENV]: String(2 ** 40),
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        POWERTOOLS_METRICS_DISABLED: 'true',
        NODE_NO_WARNINGS: '1',
      },
    },
  );
  const chunks: Buffer[] = [];
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => chunks.push(c));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the processing child exited with ${code}`);
  const run = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProcessRun;
  const serverCpuAfter = cpuSecondsOf(server.pid);
  if (serverCpuBefore !== undefined && serverCpuAfter !== undefined)
    run.serverCpuSeconds = serverCpuAfter - serverCpuBefore;
  return run;
}

/** The CLI, file to file, in a process of its own; time from process start to exit, and that process's peak RSS. */
async function cliRun(input: string, output: string): Promise<{ seconds: number; maxRssKb: number }> {
  const script = `
    import { writeSync } from 'node:fs';
    ${PEAK_RSS_SOURCE}
    const [bin, input, output] = process.argv.slice(1);
    process.argv = [process.argv[0], bin, 'solve', input, '-o', output];
    process.on('exit', (code) => writeSync(3, JSON.stringify({ code, seconds: performance.now() / 1000, maxRssKb: peakRssKb() })));
    await import(bin);
  `;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, path.join(root, 'bin', 'sudoku.mjs'), input, output],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    },
  );
  const chunks: Buffer[] = [];
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => chunks.push(c));
  await once(child, 'close');
  const result = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    code: number;
    seconds: number;
    maxRssKb: number;
  };
  if (result.code !== 0) throw new Error(`the CLI exited with ${result.code}`);
  return result;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const cpuShares = (run: ProcessRun) =>
  `${run.cpuSeconds.toFixed(1)} / ${run.serverCpuSeconds === undefined ? 'n/a' : run.serverCpuSeconds.toFixed(1)}`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

export async function run(): Promise<void> {
  console.log('\n## S3 files, end to end through the local S3 server\n');
  const set = fullPuzzleSets().read(SET);
  const work = mkdtempSync(path.join(os.tmpdir(), 'sudoku-bench-s3-'));
  const server = await startS3Server({ port: 0, directory: path.join(work, 's3'), bucket: 'bench' });
  const client = localS3Client(server.endpoint, 'admin');
  try {
    const rows = [1_000_000, 4_000_000];
    const runs: { rows: number; bytes: number; run: ProcessRun; bare?: number }[] = [];
    for (const n of rows) {
      const file = path.join(work, `puzzles-${n}.txt`);
      await writePuzzleFile(file, set, n);
      const key = `${prefixes.incoming}bench-${n}.txt`;
      await new Upload({
        client,
        params: { Bucket: 'bench', Key: key, Body: createReadStream(file) },
        partSize: 16 * 1024 * 1024,
        queueSize: 4,
      }).done();
      // 1M rows on one thread and on two (SOLVER_THREADS, as the stack sets it); 4M on every CPU.
      const single = n === 1_000_000 ? await processInChild(server, 'bench', key, 1) : undefined;
      const run = await processInChild(server, 'bench', key, n === 1_000_000 ? 2 : undefined);
      if (run.report.counts.solved !== n) throw new Error(`only ${run.report.counts.solved} of ${n} rows solved`);
      runs.push({ rows: n, bytes: statSync(file).size, run });
      if (n === 1_000_000) {
        const bare = bareSolver(set, n);
        if (bare.unsolved) throw new Error(`the bare solver failed ${bare.unsolved} puzzles`);
        runs.at(-1)!.bare = bare.perSecond;
        const cli = await cliRun(file, path.join(work, 'cli-out.txt'));
        console.log(
          `17-clue puzzles (${SET}, ${fmt(set.length)} reshuffled and repeated); every row solved and counted to two solutions.\n`,
        );
        console.log('| run | rows | puzzles/s | vs bare solver | peak RSS | CPU s: pipeline / local S3 server |');
        console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
        console.log(
          `| bare solver (solveBoard, same puzzles, in process) | ${fmt(n)} | ${fmt(bare.perSecond)} | 1.00 | | |`,
        );
        console.log(
          `| CLI \`sudoku solve FILE -o OUT\` (incl. process start) | ${fmt(n)} | ${fmt(n / cli.seconds)} | ${(n / cli.seconds / bare.perSecond).toFixed(2)} | ${mb(cli.maxRssKb)} | |`,
        );
      }
      const r = run.report;
      const bare = runs[0]!.bare!;
      if (single) {
        if (single.report.counts.solved !== n)
          throw new Error(`only ${single.report.counts.solved} of ${n} rows solved`);
        console.log(
          `| S3 end to end, SOLVER_THREADS=1 (${(runs.at(-1)!.bytes / 1e6).toFixed(0)} MB) | ${fmt(n)} | ${fmt(single.report.puzzlesPerSecond)} | ${(single.report.puzzlesPerSecond / bare).toFixed(2)} | ${mb(single.maxRssKb)} | ${cpuShares(single)} |`,
        );
        console.log(
          `| S3 end to end, SOLVER_THREADS=2: ${(r.puzzlesPerSecond / single.report.puzzlesPerSecond).toFixed(2)}x one thread | ${fmt(n)} | ${fmt(r.puzzlesPerSecond)} | ${(r.puzzlesPerSecond / bare).toFixed(2)} | ${mb(run.maxRssKb)} | ${cpuShares(run)} |`,
        );
        continue;
      }
      console.log(
        `| S3 end to end: GetObject -> solve -> multipart Upload -> report (${(runs.at(-1)!.bytes / 1e6).toFixed(0)} MB) | ${fmt(n)} | ${fmt(r.puzzlesPerSecond)} | ${(r.puzzlesPerSecond / bare).toFixed(2)} | ${mb(run.maxRssKb)} | ${cpuShares(run)} |`,
      );
    }
    const [one, four] = runs;
    const growth = (r: ProcessRun) => mb(r.maxRssKb - r.baselineRssKb);
    console.log(
      `\nPeak RSS of the processing: ${mb(one!.run.maxRssKb)} for 1M rows, ${mb(four!.run.maxRssKb)} for 4M rows ` +
        `(ratio ${(four!.run.maxRssKb / one!.run.maxRssKb).toFixed(2)}; flat means ~1.0). Above the process's RSS once loaded ` +
        `(${mb(one!.run.baselineRssKb)}): ${growth(one!.run)} and ${growth(four!.run)}, the multipart part buffers (8 MiB parts, 2 in flight) and GC headroom.`,
    );
  } finally {
    client.destroy();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
