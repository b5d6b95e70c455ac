/**
 * A file solved in ranges (issue 22) against the same file in one invocation, in the same run,
 * through the local S3 server: the single path (`processObject`, the file under one range), then
 * the split path forced with a small range size and run by the twin's state machine runner: one
 * range at a time in this process (so a range's rate compares with one invocation's: the
 * per-range rate), then in worker executions one and as many as this machine has cores at a
 * time (the local speed-up; in this process they would share one thread). Every invocation
 * solves on one thread, as the files function does at its default 1,769 MB (1 vCPU). The outputs
 * must be byte-identical. Ends with the projection docs/notes/large-files.md quotes: one file of a billion
 * rows, planned as the function plans it, at the measured per-range rate. These ranges are small
 * (fixed costs weigh on few rows); `split-full.ts` measures ranges of the size the function plans.
 *
 * Every client signs as the admin: this branch's IAM twin does not yet grant the files role the
 * `staging/` prefix, and what is timed here is the path, not the policies.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import type { FinishResult, LargeFileJob } from '../../functions/contract/large-files.js';
import { prefixes, SOLVER_THREADS_ENV } from '../../functions/contract/service-layout.js';
import { invokeFunction } from '../../twin/lambda/executions.js';
import { functionEnvironment } from '../../twin/lambda/function-environment.js';
import { localS3Client } from '../../twin/s3/local-s3-client.js';
import {
  type LargeFileRunSummary,
  runLargeFileJob,
  type StepInvoker,
} from '../../twin/stepfunctions/large-file-run.js';
import { startS3Server } from '../../twin/s3/s3-server.js';
import { logger } from '../../functions/observability/powertools.js';
import { type FileReport, planRanges, processObject, rangeBytesFor } from '../../functions/pipeline/index.js';
import { type RangePlanSettings, SHORTEST_ROW_BYTES } from '../../functions/pipeline/range-plan.js';
import { inProcessSteps } from '../large-file-steps.js';
import { fullPuzzleSets } from '../puzzle-sets.js';
import { puzzleRows } from './s3.js';

export const BUCKET = 'bench';
/** Ranges a file is cut into: a few per core, so the local speed-up is not capped by the last round. */
const RANGES_PER_FILE = 8;
export const PLAN = { timeoutSeconds: 900, threads: 1 } as const;

/** A file of the run, and the split runs made of it beside its one single run. */
interface BenchFile {
  set: string;
  label: string;
  rows: number;
  format: 'txt' | 'csv';
  /** Rows replaced by a bad one, spread evenly: every range after the first then quotes a line number and is redone. */
  bad?: number;
  splits: SplitSpec[];
}

/** A range size (bytes, or 'even': the file in RANGES_PER_FILE equal cuts) and how many ranges run at once. */
interface SplitSpec {
  rangeBytes: number | 'even';
  concurrency: number;
  /** Each step in this process, or in an execution of its own (see inExecutions). */
  executions?: boolean;
}

function bodyOf(file: BenchFile): string {
  const lines = [...puzzleRows(fullPuzzleSets().read(file.set), file.rows)];
  const bad = file.bad ?? 0;
  for (let i = 1; i <= bad; i++) lines[Math.floor((i * file.rows) / (bad + 1))] = 'not a board';
  return file.format === 'csv'
    ? `id,puzzle\n${lines.map((p, i) => `n${i + 1},${p}`).join('\n')}\n`
    : `${lines.join('\n')}\n`;
}

const nameOf = (file: BenchFile) => `${file.set}-${file.rows}${file.bad ? `-bad${file.bad}` : ''}.${file.format}`;

/** Step timings by kind, kept while the runner calls the function in this process. */
interface StepTimes {
  rangeMs: number[];
  rangeRows: number[];
  finishMs: number[];
}

/** Each step in this process, on this thread: one range at a time has the core to itself, as an invocation has its vCPU. */
export const inProcess = (client: S3Client): StepInvoker => inProcessSteps(() => client);

/**
 * Each step in an execution of its own (a worker thread loading the deployed bundle), as the twin
 * runs a large file under `npm start`: ranges at once then use as many cores (in this process
 * they would share one thread). The admin's keys, as everywhere in this section.
 */
export function inExecutions(endpoint: string): StepInvoker {
  const env = {
    ...functionEnvironment(endpoint, 'admin'),
    [SOLVER_THREADS_ENV]: '1',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  return async (event) => {
    const invocation = await invokeFunction(event, { timeoutMs: PLAN.timeoutSeconds * 1000, env, logsTo: 'stderr' });
    if (invocation.ok) return { ok: true, result: invocation.result };
    const { errorType, errorMessage } = invocation;
    return { ok: false, error: errorType, cause: JSON.stringify({ errorType, errorMessage }) };
  };
}

/** The invoker, timing each step by kind. */
function timed(invoke: StepInvoker, times: StepTimes): StepInvoker {
  return async (event) => {
    const started = performance.now();
    const outcome = await invoke(event);
    const ms = performance.now() - started;
    if (outcome.ok && event.largeFile === 'range') {
      times.rangeMs.push(ms);
      times.rangeRows.push((outcome.result as { rows: number }).rows);
    } else if (outcome.ok && event.largeFile === 'finish') times.finishMs.push(ms);
    return outcome;
  };
}

/** The output's SHA-256 and size, streamed (an output of a full-size file is hundreds of MB). */
async function objectHash(client: S3Client, key: string): Promise<{ sha256: string; bytes: number }> {
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of got.Body as Readable) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

async function readReport(client: S3Client, key: string): Promise<FileReport> {
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return JSON.parse(await got.Body!.transformToString()) as FileReport;
}

interface SplitRun {
  seconds: number;
  /** This process's CPU time (its threads and workers; not the local S3 server's, a process of its own). */
  cpuSeconds: number;
  summary: LargeFileRunSummary;
  report: FileReport;
  times: StepTimes;
  /** The invocation that planned the ranges and handed the file over (ms). */
  handOverMs: number;
  output: { sha256: string; bytes: number };
}

/** CPU seconds this process used since `from` (process.cpuUsage()). */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
};

/** The source, and outputs of the run's own (no run then finds the file solved by the one before). */
export function keysFor(tag: string, name: string) {
  return {
    sourceKey: `${prefixes.incoming}${name}`,
    outputKey: `${prefixes.solved}${tag}/${name}`,
    reportKey: `${prefixes.reports}${tag}/${name}.json`,
  };
}

/**
 * The single path: one processObject. The default plan (900 s, one thread), under which every
 * file of the small cases is far below one range; `ranges` lifts it for a file of full-size ranges.
 */
export async function solveSingle(
  client: S3Client,
  name: string,
  ranges: RangePlanSettings = PLAN,
  tag = 'single',
  /** The client that reads the output back to check it (not the path's: a bench that counts the path's requests). */
  reader: S3Client = client,
) {
  const keys = keysFor(tag, name);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await processObject({ client, bucket: BUCKET, ...keys, ranges });
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  if (result.status !== 'processed') throw new Error(`${name}: the single path did not solve it: ${result.status}`);
  return {
    seconds,
    cpuSeconds,
    report: result.report,
    outputKey: keys.outputKey,
    output: await objectHash(reader, keys.outputKey),
  };
}

/** The split path: the hand-over, then the twin's state machine; `rangeBytes` undefined is the function's own plan. */
export async function solveSplit(
  client: S3Client,
  name: string,
  rangeBytes: number | undefined,
  concurrency: number,
  invoke: StepInvoker,
  run: number,
  reader: S3Client = client,
  plan: RangePlanSettings = PLAN,
) {
  const keys = keysFor(`split-${run}`, name);
  const jobs: LargeFileJob[] = [];
  const times: StepTimes = { rangeMs: [], rangeRows: [], finishMs: [] };
  const cpu = process.cpuUsage();
  const started = performance.now();
  const handed = await processObject({
    client,
    bucket: BUCKET,
    ...keys,
    ranges: rangeBytes === undefined ? plan : { ...plan, rangeBytes },
    startLargeFile: {
      runs: async () => [],
      start: async (id, attempt, job) => {
        jobs.push(job);
        return { started: true, executionArn: `local:${id}-${attempt}` };
      },
    },
  });
  const handOverMs = performance.now() - started;
  if (handed.status !== 'skipped' || handed.reason !== 'handed-over' || !jobs[0])
    throw new Error(`${name}: not handed over to ranges: ${JSON.stringify(handed)}`);
  const summary = await runLargeFileJob(jobs[0], {
    client,
    maxConcurrency: concurrency,
    retryIntervalSeconds: 0,
    invoke: timed(invoke, times),
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  if (summary.status !== 'SUCCEEDED') throw new Error(`${name}: the split job failed: ${JSON.stringify(summary)}`);
  const finish = summary.finish as FinishResult | undefined;
  if (finish?.outcome !== 'solved') throw new Error(`${name}: the split job ended ${JSON.stringify(finish)}`);
  const report = await readReport(reader, keys.reportKey);
  return {
    seconds,
    cpuSeconds,
    summary,
    report,
    times,
    handOverMs,
    job: jobs[0],
    outputKey: keys.outputKey,
    output: await objectHash(reader, keys.outputKey),
  } satisfies SplitRun & { outputKey: string; job: LargeFileJob };
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const share = (ms: number, seconds: number) => `${fmt(ms)} (${((ms / 1000 / seconds) * 100).toFixed(0)}%)`;

/**
 * What both split benches run in: a local S3 in a temporary directory, one solver thread per
 * invocation (as the files function has at 1,769 MB) and the steps' logs off (or every range
 * would print a line into the tables); `close` puts all of it back.
 */
export async function openSplitBench(prefix: string) {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  const server = await startS3Server({ port: 0, directory: path.join(work, 's3'), bucket: BUCKET });
  const client = localS3Client(server.endpoint, 'admin');
  const threadsBefore = process.env[SOLVER_THREADS_ENV];
  process.env[SOLVER_THREADS_ENV] = '1';
  const levelBefore = logger.getLevelName();
  logger.setLogLevel('SILENT');
  const close = async (): Promise<void> => {
    logger.setLogLevel(levelBefore);
    if (threadsBefore === undefined) delete process.env[SOLVER_THREADS_ENV];
    else process.env[SOLVER_THREADS_ENV] = threadsBefore;
    client.destroy();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  };
  return { work, server, client, close };
}

export async function run(): Promise<void> {
  const cores = os.availableParallelism();
  // In process one at a time (the per-range rate), then in executions one and `cores` at a time (the local speed-up).
  const evenCuts = (): SplitSpec[] => [
    { rangeBytes: 'even', concurrency: 1 },
    { rangeBytes: 'even', concurrency: 1, executions: true },
    { rangeBytes: 'even', concurrency: cores, executions: true },
  ];
  const files: BenchFile[] = [
    // 6 MiB ranges too: their answers are over S3's 5 MiB part minimum, so the finish copies them
    // (UploadPartCopy) as it does every range of a real plan, instead of streaming small ones together.
    {
      set: 'puzzles2_17_clue',
      label: '17-clue',
      rows: 200_000,
      format: 'txt',
      splits: [...evenCuts(), { rangeBytes: 6 * 2 ** 20, concurrency: 1 }],
    },
    { set: 'puzzles2_17_clue', label: '17-clue', rows: 200_000, format: 'csv', splits: evenCuts() },
    { set: 'puzzles6_forum_hardest_1106', label: 'hardest', rows: 50_000, format: 'txt', splits: evenCuts() },
    { set: 'puzzles6_forum_hardest_1106', label: 'hardest', rows: 50_000, format: 'csv', splits: evenCuts() },
    // What a failed row costs a split file: the ranges after it are solved again.
    {
      set: 'puzzles2_17_clue',
      label: '17-clue, 7 bad rows',
      rows: 200_000,
      format: 'txt',
      bad: 7,
      splits: evenCuts(),
    },
  ];
  console.log('\n## One file in ranges (the split path) against one invocation, same file, same run\n');
  const { server, client, close } = await openSplitBench('sudoku-bench-split-');
  const rates: string[] = [];
  const costs: string[] = [];
  /** The best in-process per-range rate of each set's .txt, and its single rate: the projection's inputs. */
  const measured = new Map<string, { perRange: number; single: number }>();
  let startMs = 0;
  let runs = 0;
  try {
    for (const file of files) {
      const name = nameOf(file);
      const body = bodyOf(file);
      const size = Buffer.byteLength(body);
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: keysFor('', name).sourceKey, Body: body }));
      const single = await solveSingle(client, name);
      const singleRate = file.rows / single.seconds;
      const label = `${file.label} .${file.format} (${(size / 1e6).toFixed(1)} MB)`;
      rates.push(`| ${label} | single | | ${fmt(singleRate)} | 1.00 | | | 1 | | |`);
      for (const spec of file.splits) {
        const rangeBytes = spec.rangeBytes === 'even' ? Math.ceil(size / RANGES_PER_FILE) : spec.rangeBytes;
        const invoke = spec.executions ? inExecutions(server.endpoint) : inProcess(client);
        const split = await solveSplit(client, name, rangeBytes, spec.concurrency, invoke, runs++);
        const what = `split, ${(rangeBytes / 2 ** 20).toFixed(1)} MiB ranges, ${spec.executions ? 'worker executions' : 'in process'}`;
        if (split.output.sha256 !== single.output.sha256 || split.output.bytes !== single.output.bytes)
          throw new Error(
            `${name} (${what}): the split output differs from the single path's: ` +
              `${split.output.bytes} bytes, sha256 ${split.output.sha256}; single: ${single.output.bytes} bytes, sha256 ${single.output.sha256}`,
          );
        if (JSON.stringify(split.report.counts) !== JSON.stringify(single.report.counts))
          throw new Error(`${name} (${what}): the split report's counts differ from the single path's`);
        const { ranges, redone, invocations, parts } = split.report.split!;
        // A range's own rate: its rows over its invocation's time, S3 reads and writes included.
        const perRange = sum(split.times.rangeRows) / (sum(split.times.rangeMs) / 1000);
        if (!spec.executions && file.format === 'txt' && !file.bad) {
          const best = measured.get(file.label);
          if (!best || perRange > best.perRange) measured.set(file.label, { perRange, single: singleRate });
        }
        const rate = file.rows / split.seconds;
        rates.push(
          `| ${label} | ${what} | ${spec.concurrency} | ${fmt(rate)} | ${(rate / singleRate).toFixed(2)} | ${ranges} | ${redone} | ${invocations} | ${parts} | ${fmt(perRange)} |`,
        );
        // With a redo, the first finish only names the ranges; the last one assembles.
        const assembly = split.times.finishMs.at(-1) ?? 0;
        const redo =
          sum(split.times.rangeMs.slice(split.times.rangeMs.length - split.summary.redone)) +
          (split.summary.redone ? (split.times.finishMs[0] ?? 0) : 0);
        if (!spec.executions)
          costs.push(
            `| ${label}, ${(rangeBytes / 2 ** 20).toFixed(1)} MiB ranges | ${fmt(single.seconds * 1000)} | ${fmt(split.seconds * 1000)} | ${share(sum(split.times.rangeMs.slice(0, ranges)), split.seconds)} | ${share(assembly, split.seconds)} | ${share(redo, split.seconds)} |`,
          );
      }
    }
    // What an execution costs before it solves a row: a worker thread and the bundle loaded (an
    // event the handler refuses at once).
    const t = performance.now();
    await inExecutions(server.endpoint)({ largeFile: 'finish', job: {} as LargeFileJob });
    startMs = performance.now() - t;
  } finally {
    await close();
  }
  console.log(
    'One solver thread per invocation (the files function at 1,769 MB has one vCPU). Rows/s from the first call to the ' +
      "report: for the split path the hand-over, every range, the finish. Every split output was checked byte-identical to the single path's. " +
      "Per-range rows/s: the ranges' rows over their invocations' time, S3 reads and writes included.\n",
  );
  console.log(
    '| file | path | ranges at once | rows/s | vs single | ranges | redone | invocations | parts | per-range rows/s |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rates) console.log(row);
  console.log(
    '\nWhere the split time goes, one range at a time (ms, share of the split run): the first pass of the ranges; ' +
      'the finish that assembles the output and writes the report; the redo (the ranges solved again, and the finish that named them).\n',
  );
  console.log('| file | single | split | first pass | assembly | redo |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const row of costs) console.log(row);
  console.log(
    `\nOne worker execution (a thread, the bundle loaded, an event refused): ${fmt(startMs)} ms, paid by every range of the worker runs.`,
  );
  project(measured);
}

/** The 1,769 MB files function, in GB as Lambda bills it. */
export const FILES_GB = 1769 / 1024;
export const ARM64_GB_SECOND = 0.0000133334;

/**
 * One file of a billion rows (82 GB of .txt) planned as the files function plans it at the default
 * 900 s, solved at the per-range rate measured above (this machine's per core: one vCPU is what the
 * function has at 1,769 MB), in waves of the map's concurrency.
 */
export function project(measured: ReadonlyMap<string, { perRange: number; single: number }>): void {
  const rows = 1e9;
  const size = rows * SHORTEST_ROW_BYTES;
  const txt = { format: 'txt', gzip: false } as const;
  const { rangeBytes, ranges } = planRanges(size, rangeBytesFor(txt, false, PLAN));
  const rowsPerRange = rangeBytes / SHORTEST_ROW_BYTES;
  console.log(
    `\nProjected: ${fmt(rows)} rows (${(size / 1e9).toFixed(0)} GB) at the default plan (900 s, one thread): ` +
      `${fmt(ranges)} ranges of ${(rangeBytes / 1e6).toFixed(1)} MB (${fmt(rowsPerRange)} rows). Solving time only ` +
      '(waves x one range at the per-range rate above); the hand-over, the finish and Lambda start-ups come on top.\n',
  );
  console.log(
    '| set | per-range rows/s | one range | 30 at once (the stack) | 100 at once | 1,000 at once | Lambda arm64 $ per million rows |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const clock = (seconds: number) => (seconds < 120 ? `${seconds.toFixed(0)} s` : `${(seconds / 60).toFixed(1)} min`);
  for (const [set, { perRange }] of measured) {
    const range = rowsPerRange / perRange;
    const waves = (concurrency: number) => clock(Math.ceil(ranges / concurrency) * range);
    const dollars = (1e6 / perRange) * FILES_GB * ARM64_GB_SECOND;
    console.log(
      `| ${set} | ${fmt(perRange)} | ${clock(range)} | ${waves(30)} | ${waves(100)} | ${waves(1000)} | ${dollars.toFixed(5)} |`,
    );
  }
}
