/**
 * The split path at the range size the files function really plans, against one invocation on the
 * same file, in the same run (issue 22: "the cost per million puzzles must not grow"). The `split`
 * section cuts small files into 8 small ranges, where each range's fixed costs (a marker, a ranged
 * GET, a staging upload, a tally, and in a worker a fresh V8) weigh on few rows; this one solves
 * ranges of real size. `npm run bench -- split-full` runs it alone (about ten minutes on 2 cores;
 * a full `npm run bench` runs it too):
 *
 * - 17-clue `.txt` of 3,560,000 rows (291.9 MB: ../shared/puzzles/puzzles2_17_clue reshuffled and
 *   repeated, written to a temporary file, never into the project), split by the function's own
 *   plan at the default 900 s and one thread (`rangeBytesFor`, `planRanges`): 2 ranges of
 *   145,960,000 bytes, 1.78 million rows each;
 * - hardest `.txt` of 400,000 rows (puzzles6_forum_hardest_1106 repeated), in 2 ranges of
 *   200,000 rows (`rangeBytes`, as SUDOKU_RANGE_BYTES sets it), so the run stays minutes long.
 *
 * Each file is solved in rounds, single then split in process then split in one worker execution,
 * and the next round in the reverse order, so every path sees the same load drift. The compute
 * cost is Lambda's: GB-s, proportional to the billed duration of every invocation, so the split's
 * is the sum of its invocations (the hand-over, each range, the finish) against the single
 * invocation's. S3 requests are counted per command on the in-process runs (a worker has its own
 * client). Every output is checked byte-identical (SHA-256) to the first single run's, and its
 * report's counts equal; each output is deleted once checked, and the temporary directory (the
 * puzzle file and the local S3 server's) is removed at the end.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SOLVER_THREADS_ENV } from '../../functions/contract/service-layout.js';
import { startS3Server } from '../../functions/local/s3-server.js';
import { logger } from '../../functions/observability/powertools.js';
import { rangeBytesFor } from '../../functions/pipeline/index.js';
import { SHORTEST_ROW_BYTES } from '../../functions/pipeline/range-plan.js';
import { clientFor } from '../../test/helpers/local-s3.js';
import { readPuzzleSet } from '../../test/helpers/puzzle-sets.js';
import { writePuzzleFile } from './s3.js';
import {
  ARM64_GB_SECOND,
  BUCKET,
  FILES_GB,
  fmt,
  inExecutions,
  inProcess,
  keysFor,
  PLAN,
  project,
  solveSingle,
  solveSplit,
  sum,
} from './split.js';

/** One range as the function plans it: 900 s, one thread, a .txt (145,960,000 bytes). */
const FULL_RANGE_BYTES = rangeBytesFor({ format: 'txt', gzip: false }, false, PLAN);
/** Rounds per file: each path once per round, the order reversed every other round. */
const ROUNDS = 2;

interface FullCase {
  set: string;
  label: string;
  rows: number;
  /** The range size: undefined is the function's own plan. */
  rangeBytes?: number;
}

const CASES: FullCase[] = [
  { set: 'puzzles2_17_clue', label: '17-clue', rows: (2 * FULL_RANGE_BYTES) / SHORTEST_ROW_BYTES },
  {
    set: 'puzzles6_forum_hardest_1106',
    label: 'hardest',
    rows: 400_000,
    rangeBytes: 200_000 * SHORTEST_ROW_BYTES,
  },
];

type PathName = 'single' | 'split, in process' | 'split, 1 execution';
const PATHS: readonly PathName[] = ['single', 'split, in process', 'split, 1 execution'];

/** S3's request classes as billed (S3 Standard, us-east-1): PUT, COPY, POST, LIST; GET and the rest; DELETE free. */
const PUT_CLASS = new Set([
  'PutObject',
  'CreateMultipartUpload',
  'UploadPart',
  'UploadPartCopy',
  'CompleteMultipartUpload',
  'ListObjectsV2',
]);
const FREE = new Set(['DeleteObject', 'DeleteObjects', 'AbortMultipartUpload']);
const S3_PUT_PER_1000 = 0.005;
const S3_GET_PER_1000 = 0.0004;

/** The client, counting every command it sends by name. */
function counting(client: S3Client, counts: Map<string, number>): S3Client {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: Parameters<S3Client['send']>[0], ...rest: unknown[]) => {
        const name = command.constructor.name.replace(/Command$/, '');
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      };
    },
  });
}

/** One path's run: its wall time, its invocations' times, its CPU and S3 requests. */
interface PathRun {
  path: PathName;
  round: number;
  seconds: number;
  cpuSeconds: number;
  /** Every invocation's duration (ms): the single one; or the hand-over, the ranges, the finish. */
  invocationsMs: number[];
  rangeMs: number[];
  rangeRows: number[];
  finishMs: number;
  handOverMs: number;
  ranges: number;
  invocations: number;
  parts: number;
  s3?: Map<string, number>;
}

const requestsOf = (s3: ReadonlyMap<string, number>) => {
  let put = 0;
  let get = 0;
  let free = 0;
  for (const [name, n] of s3) {
    if (PUT_CLASS.has(name)) put += n;
    else if (FREE.has(name)) free += n;
    else get += n;
  }
  return { put, get, free };
};

const billed = (run: PathRun) => sum(run.invocationsMs) / 1000;
const perMillion = (dollars: number, rows: number) => (dollars * 1e6) / rows;

export async function run(): Promise<void> {
  console.log('\n## One file in full-size ranges (the split path) against one invocation, same file, same run\n');
  const work = mkdtempSync(path.join(os.tmpdir(), 'sudoku-bench-split-full-'));
  const server = await startS3Server({ port: 0, directory: path.join(work, 's3'), bucket: BUCKET });
  const client = clientFor(server.endpoint);
  const threadsBefore = process.env[SOLVER_THREADS_ENV];
  process.env[SOLVER_THREADS_ENV] = '1';
  const levelBefore = logger.getLevelName();
  logger.setLogLevel('SILENT');
  const runs = new Map<string, PathRun[]>();
  const sizes = new Map<string, number>();
  let splitRun = 0;
  try {
    for (const c of CASES) {
      const name = `${c.set}-${c.rows}.txt`;
      const file = path.join(work, name);
      await writePuzzleFile(file, readPuzzleSet(c.set), c.rows);
      const size = statSync(file).size;
      sizes.set(c.label, size);
      await new Upload({
        client,
        params: { Bucket: BUCKET, Key: keysFor('', name).sourceKey, Body: createReadStream(file) },
        partSize: 16 * 1024 * 1024,
        queueSize: 4,
      }).done();
      rmSync(file);
      let reference: { sha256: string; bytes: number; counts: string } | undefined;
      const done: PathRun[] = [];
      runs.set(c.label, done);
      for (let round = 1; round <= ROUNDS; round++) {
        const order = round % 2 === 1 ? PATHS : [...PATHS].reverse();
        for (const which of order) {
          const s3 = new Map<string, number>();
          let outcome: PathRun;
          let output: { sha256: string; bytes: number };
          let outputKey: string;
          let counts: string;
          if (which === 'single') {
            // One invocation for the whole file: the plan lifted above its size.
            const single = await solveSingle(
              counting(client, s3),
              name,
              { ...PLAN, rangeBytes: size + 1 },
              `single-${round}`,
              client,
            );
            ({ output, outputKey } = single);
            counts = JSON.stringify(single.report.counts);
            outcome = {
              path: which,
              round,
              seconds: single.seconds,
              cpuSeconds: single.cpuSeconds,
              invocationsMs: [single.seconds * 1000],
              rangeMs: [],
              rangeRows: [],
              finishMs: 0,
              handOverMs: 0,
              ranges: 1,
              invocations: 1,
              parts: 0,
              s3,
            };
          } else {
            const executions = which === 'split, 1 execution';
            const counted = executions ? client : counting(client, s3);
            const invoke = executions ? inExecutions(server.endpoint) : inProcess(counted);
            const split = await solveSplit(counted, name, c.rangeBytes, 1, invoke, splitRun++, client);
            ({ output, outputKey } = split);
            counts = JSON.stringify(split.report.counts);
            const { ranges, invocations, parts } = split.report.split!;
            outcome = {
              path: which,
              round,
              seconds: split.seconds,
              cpuSeconds: split.cpuSeconds,
              invocationsMs: [split.handOverMs, ...split.times.rangeMs, ...split.times.finishMs],
              rangeMs: split.times.rangeMs,
              rangeRows: split.times.rangeRows,
              finishMs: sum(split.times.finishMs),
              handOverMs: split.handOverMs,
              ranges,
              invocations,
              parts,
              ...(executions ? {} : { s3 }),
            };
          }
          reference ??= { ...output, counts };
          if (output.sha256 !== reference.sha256 || output.bytes !== reference.bytes || counts !== reference.counts)
            throw new Error(
              `${name} (${which}, round ${round}): the output differs from the first single run's: ` +
                `${output.bytes} bytes, sha256 ${output.sha256}; first: ${reference.bytes} bytes, sha256 ${reference.sha256}`,
            );
          await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: outputKey }));
          done.push(outcome);
        }
      }
    }
  } finally {
    logger.setLogLevel(levelBefore);
    if (threadsBefore === undefined) delete process.env[SOLVER_THREADS_ENV];
    else process.env[SOLVER_THREADS_ENV] = threadsBefore;
    client.destroy();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  report(runs, sizes);
}

function report(runs: ReadonlyMap<string, PathRun[]>, sizes: ReadonlyMap<string, number>): void {
  console.log(
    'One solver thread per invocation (the files function at 1,769 MB has one vCPU). Rows/s: from the first call to the ' +
      'report. Billed s: the sum of the invocations (single: the one; split: the hand-over, every range, the finish), ' +
      "what Lambda bills in GB-s. Per-range rows/s: the ranges' rows over their invocations' time. CPU s: this " +
      "process's (not the local S3 server's). Every output was checked byte-identical to the first single run's.\n",
  );
  console.log(
    '| file | round | path | rows/s | invocations | per-range rows/s | hand-over ms | finish ms | billed s | split / single billed | CPU s | split / single CPU |',
  );
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const summary: string[] = [];
  const measured = new Map<string, { perRange: number; single: number }>();
  for (const c of CASES) {
    const done = runs.get(c.label) ?? [];
    const size = sizes.get(c.label) ?? 0;
    const label = `${c.label} .txt, ${fmt(c.rows)} rows (${(size / 1e6).toFixed(1)} MB), ${done.find((r) => r.ranges > 1)?.ranges ?? '?'} ranges of ${(
      (c.rangeBytes ?? FULL_RANGE_BYTES) / 1e6
    ).toFixed(2)} MB`;
    for (const r of done) {
      const single = done.find((s) => s.round === r.round && s.path === 'single')!;
      const perRange = r.rangeMs.length ? sum(r.rangeRows) / (sum(r.rangeMs) / 1000) : 0;
      const ratio = (a: number, b: number) => (r.path === 'single' ? '1.000' : (a / b).toFixed(3));
      console.log(
        `| ${label} | ${r.round} | ${r.path} | ${fmt(c.rows / r.seconds)} | ${r.invocations} | ${perRange ? fmt(perRange) : ''} | ${r.path === 'single' ? '' : fmt(r.handOverMs)} | ${r.path === 'single' ? '' : fmt(r.finishMs)} | ${billed(r).toFixed(2)} | ${ratio(billed(r), billed(single))} | ${r.cpuSeconds.toFixed(2)} | ${ratio(r.cpuSeconds, single.cpuSeconds)} |`,
      );
    }
    // Over the rounds: the billed seconds summed per path, so a slow round weighs as it took.
    const total = (which: PathName, of: (r: PathRun) => number) => sum(done.filter((r) => r.path === which).map(of));
    const singleBilled = total('single', billed);
    const singleRows = total('single', () => c.rows);
    for (const which of PATHS) {
      const rows = total(which, () => c.rows);
      const billedSeconds = total(which, billed);
      const dollars = perMillion(billedSeconds * FILES_GB * ARM64_GB_SECOND, rows);
      const s3 = done.find((r) => r.path === which && r.s3)?.s3;
      const requests = s3 ? requestsOf(s3) : undefined;
      const s3Dollars = requests
        ? perMillion((requests.put * S3_PUT_PER_1000 + requests.get * S3_GET_PER_1000) / 1000, c.rows)
        : undefined;
      const rangeRows = total(which, (r) => sum(r.rangeRows));
      const rangeSeconds = total(which, (r) => sum(r.rangeMs) / 1000);
      if (which === 'split, in process' && rangeSeconds > 0)
        measured.set(c.label, { perRange: rangeRows / rangeSeconds, single: singleRows / singleBilled });
      summary.push(
        `| ${c.label} | ${which} | ${fmt(rows / billedSeconds)} | ${(billedSeconds / rows / (singleBilled / singleRows)).toFixed(3)} | ${
          which === 'single'
            ? ''
            : `${(rangeSeconds / rows / (singleBilled / singleRows)).toFixed(3)} + ${(total(which, (r) => r.finishMs + r.handOverMs) / 1000 / rows / (singleBilled / singleRows)).toFixed(3)}`
        } | ${dollars.toFixed(6)} | ${
          requests
            ? `${requests.put} PUT-class, ${requests.get} GET-class, ${requests.free} free (${[...s3!]
                .sort()
                .map(([n, k]) => `${n} ${k}`)
                .join(', ')})`
            : '(in a worker: not counted)'
        } | ${s3Dollars === undefined ? '' : s3Dollars.toFixed(6)} |`,
      );
    }
  }
  console.log(
    '\nOver both rounds: rows per billed second, the compute cost against the single path, Lambda arm64 $ per million rows ' +
      '(1,769 MB, $0.0000133334 per GB-s), and the S3 requests of one run (in process) with their $ per million rows ' +
      '(PUT-class $0.005, GET-class $0.0004 per 1,000).\n',
  );
  console.log(
    '| set | path | rows per billed s | compute split / single | of which: ranges + hand-over and finish | Lambda arm64 $ per million | S3 requests, one run | S3 $ per million |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |');
  for (const row of summary) console.log(row);
  console.log(`\nPeak RSS of this process: ${fmt(process.resourceUsage().maxRSS / 1024)} MB.`);
  project(measured);
}
