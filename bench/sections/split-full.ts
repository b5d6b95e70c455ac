/**
 * The split path at the range size the files function really plans, against one invocation on the
 * same file, in the same run (issue 22: "the cost per million puzzles must not grow"). The `split`
 * section cuts small files into 8 small ranges, where each range's fixed costs (a marker, a ranged
 * GET, a staging upload, a tally, and in a worker a fresh V8) weigh on few rows; this one runs the
 * function's own plan: the hand-over samples the file (range-sample.ts) and sizes its ranges from
 * that rate, between the conservative plan and 8 times it (range-plan.ts, `sampledRangeBytes`).
 * `npm run bench -- split-full` runs it alone (about ten minutes on 2 cores; a full `npm run bench`
 * runs it too):
 *
 * - 17-clue `.txt` of 3,560,000 rows (291.9 MB: ../shared/puzzles/puzzles2_17_clue reshuffled and
 *   repeated, written to a temporary file, never into the project), twice: at the default 900 s
 *   (two conservative ranges of 146 MB; the sample makes it one), and at 60 s (the same plan
 *   scaled down: a floor of 8.2 MB, a cap of 65.6 MB, so the sampled plan makes several ranges);
 * - hardest `.txt` of 400,000 rows (puzzles6_forum_hardest_1106 repeated) at 60 s, so the run
 *   stays minutes long.
 *
 * Each file is solved in rounds, single then split in process, and the next round in the reverse
 * order, so both paths see the same load drift. The compute cost is Lambda's: GB-s, proportional
 * to the billed duration of every invocation, so the split's is the sum of its invocations (the
 * hand-over with its sample, each range, the finish) against the single invocation's; S3 requests
 * are counted per command and Step Functions transitions per range. Every output is checked
 * byte-identical (SHA-256) to the first single run's, and its report's counts equal; each output is
 * deleted once checked, and the temporary directory (the puzzle file and the local S3 server's) is
 * removed at the end. The projection sizes a billion-row file's ranges at 900 s by the sample rate.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RangeSizing } from '../../functions/contract/large-files.js';
import { planRanges, rangeBytesFor } from '../../functions/pipeline/index.js';
import { type RangePlanSettings, SHORTEST_ROW_BYTES, sampledRangeBytes } from '../../functions/pipeline/range-plan.js';
import { fullPuzzleSets } from '../puzzle-sets.js';
import { peakRssKb } from '../peak-rss.js';
import { writePuzzleFile } from './s3.js';
import {
  ARM64_GB_SECOND,
  BUCKET,
  FILES_GB,
  fmt,
  inProcess,
  keysFor,
  PLAN,
  solveSingle,
  solveSplit,
  sum,
  openSplitBench,
} from './split.js';

/** The conservative range at 900 s, one thread, a .txt (145,960,000 bytes): the floor of the sampled plan. */
const FULL_RANGE_BYTES = rangeBytesFor({ format: 'txt', gzip: false }, false, PLAN);
/** A 60 s function: the same sampled plan scaled down (a floor of 8.2 MB, a cap of 65.6 MB), so files of minutes make several ranges. */
const SHORT_PLAN: RangePlanSettings = { timeoutSeconds: 60, threads: 1 };
/** Rounds per file: each path once per round, the order reversed every other round. */
const ROUNDS = 2;

interface FullCase {
  set: string;
  label: string;
  rows: number;
  /** The plan the split path runs (no SUDOKU_RANGE_BYTES: the hand-over samples the file). */
  plan: RangePlanSettings;
}

const CASES: FullCase[] = [
  { set: 'puzzles2_17_clue', label: '17-clue', rows: (2 * FULL_RANGE_BYTES) / SHORTEST_ROW_BYTES, plan: PLAN },
  {
    set: 'puzzles2_17_clue',
    label: '17-clue, 60 s',
    rows: (2 * FULL_RANGE_BYTES) / SHORTEST_ROW_BYTES,
    plan: SHORT_PLAN,
  },
  { set: 'puzzles6_forum_hardest_1106', label: 'hardest, 60 s', rows: 400_000, plan: SHORT_PLAN },
];

type PathName = 'single' | 'split, in process';
const PATHS: readonly PathName[] = ['single', 'split, in process'];

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
/** Step Functions Standard: $0.025 per 1,000 state transitions; about 3 per range and 10 per file (docs/files.md). */
const SFN_TRANSITION = 0.000025;
const SFN_PER_RANGE = 3;
const SFN_PER_FILE = 10;

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
  /** The split's plan: how its range size was chosen, and the sample's rates. */
  rangeBytes?: number;
  sizing?: RangeSizing;
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
  const { work, client, close } = await openSplitBench('sudoku-bench-split-full-');
  const runs = new Map<string, PathRun[]>();
  const sizes = new Map<string, number>();
  let splitRun = 0;
  try {
    for (const c of CASES) {
      const name = `${c.set}-${c.rows}.txt`;
      const file = path.join(work, name);
      await writePuzzleFile(file, fullPuzzleSets().read(c.set), c.rows);
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
            const counted = counting(client, s3);
            const split = await solveSplit(counted, name, undefined, 1, inProcess(counted), splitRun++, client, c.plan);
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
              s3,
              rangeBytes: split.job.rangeBytes,
              ...(split.job.sizing ? { sizing: split.job.sizing } : {}),
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
    await close();
  }
  report(runs, sizes);
}

/** A plan's range sizes: the conservative floor and the cap. */
const bounds = (plan: RangePlanSettings) => sampledRangeBytes({ format: 'txt', gzip: false }, false, plan, 0);

function report(runs: ReadonlyMap<string, PathRun[]>, sizes: ReadonlyMap<string, number>): void {
  console.log(
    'One solver thread per invocation (the files function at 1,769 MB has one vCPU). The split path runs the ' +
      "function's own plan: the hand-over samples the file (range-sample.ts) and sizes its ranges between the " +
      'conservative plan and 8 times it. Rows/s: from the first call to the report. Billed s: the sum of the ' +
      'invocations (single: the one; split: the hand-over with its sample, every range, the finish). Every output ' +
      "was checked byte-identical to the first single run's.\n",
  );
  console.log(
    '| file | plan | round | path | rows/s | ranges | range MB (x floor) | sample rows/s | hand-over ms | finish ms | billed s | split / single billed |',
  );
  console.log('| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const summary: string[] = [];
  const measured = new Map<string, { perRange: number; single: number; sampleBytesPerSecond: number }>();
  for (const c of CASES) {
    const done = runs.get(c.label) ?? [];
    const size = sizes.get(c.label) ?? 0;
    const { planBytes } = bounds(c.plan);
    const label = `${c.label} .txt, ${fmt(c.rows)} rows (${(size / 1e6).toFixed(1)} MB)`;
    for (const r of done) {
      const single = done.find((s) => s.round === r.round && s.path === 'single')!;
      const split = r.path !== 'single';
      const sample = r.sizing?.sample;
      console.log(
        `| ${label} | ${c.plan.timeoutSeconds} s | ${r.round} | ${r.path} | ${fmt(c.rows / r.seconds)} | ${split ? r.ranges : ''} | ${
          split
            ? `${((r.rangeBytes ?? 0) / 1e6).toFixed(1)} (x${((r.rangeBytes ?? 0) / planBytes).toFixed(2)}, ${r.sizing?.by})`
            : ''
        } | ${sample ? fmt(sample.rowsPerSecond) : ''} | ${split ? fmt(r.handOverMs) : ''} | ${split ? fmt(r.finishMs) : ''} | ${billed(r).toFixed(2)} | ${
          split ? (billed(r) / billed(single)).toFixed(3) : '1.000'
        } |`,
      );
    }
    // Over the rounds: the billed seconds summed per path, so a slow round weighs as it took.
    const total = (which: PathName, of: (r: PathRun) => number) => sum(done.filter((r) => r.path === which).map(of));
    const singleBilled = total('single', billed);
    const singleRows = total('single', () => c.rows);
    const costs = new Map<PathName, number>();
    for (const which of PATHS) {
      const rows = total(which, () => c.rows);
      const billedSeconds = total(which, billed);
      const lambda = perMillion(billedSeconds * FILES_GB * ARM64_GB_SECOND, rows);
      const first = done.find((r) => r.path === which && r.s3);
      const requests = first?.s3 ? requestsOf(first.s3) : undefined;
      const s3Dollars = requests
        ? perMillion((requests.put * S3_PUT_PER_1000 + requests.get * S3_GET_PER_1000) / 1000, c.rows)
        : 0;
      const sfn =
        which === 'single'
          ? 0
          : perMillion((SFN_PER_FILE + SFN_PER_RANGE * (first?.ranges ?? 0)) * SFN_TRANSITION, c.rows);
      const all = lambda + s3Dollars + sfn;
      costs.set(which, all);
      const rangeRows = total(which, (r) => sum(r.rangeRows));
      const rangeSeconds = total(which, (r) => sum(r.rangeMs) / 1000);
      const sample = first?.sizing?.sample;
      if (which !== 'single' && rangeSeconds > 0 && sample)
        measured.set(c.label, {
          perRange: rangeRows / rangeSeconds,
          single: singleRows / singleBilled,
          sampleBytesPerSecond: sample.bytesPerSecond,
        });
      const unit = singleBilled / singleRows;
      summary.push(
        `| ${c.label} | ${which} | ${which === 'single' ? '' : first?.ranges} | ${fmt(rows / billedSeconds)} | ${(billedSeconds / rows / unit).toFixed(3)} | ${
          which === 'single'
            ? ''
            : `${(rangeSeconds / rows / unit).toFixed(3)} + ${(total(which, (r) => r.finishMs + r.handOverMs) / 1000 / rows / unit).toFixed(3)}`
        } | ${lambda.toFixed(6)} | ${requests ? `${requests.put} PUT, ${requests.get} GET` : ''} | ${s3Dollars.toFixed(6)} | ${sfn.toFixed(6)} | ${all.toFixed(6)} | ${(all / costs.get('single')!).toFixed(3)} |`,
      );
    }
  }
  console.log(
    '\nOver both rounds: rows per billed second, the compute against the single path, and $ per million rows: Lambda arm64 ' +
      '(1,769 MB, $0.0000133334 per GB-s), S3 requests of one run (PUT-class $0.005, GET-class $0.0004 per 1,000), ' +
      'Step Functions (3 transitions per range and 10 per file, $0.025 per 1,000), and all of it.\n',
  );
  console.log(
    '| set | path | ranges | rows per billed s | compute split / single | of which: ranges + hand-over and finish | Lambda $/M | S3 requests | S3 $/M | Step Functions $/M | all $/M | all split / single |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const row of summary) console.log(row);
  console.log(`\nPeak RSS of this process: ${fmt(peakRssKb() / 1024)} MB.`);
  projectSampled(measured);
}

/**
 * One file of a billion rows (82 GB of .txt) at the default 900 s, its ranges sized by the sample
 * rate measured above: how many ranges, the wall time in waves of the map's concurrency at the
 * per-range rate measured, and $ per million rows single (one invocation's rate, as if it could)
 * against split (the ranges' compute plus, per range, 3 Step Functions transitions and its fixed S3
 * requests: a marker, a ranged GET, a staging upload's create and complete, a tally PUT and GET,
 * one UploadPartCopy; the UploadParts follow the bytes and are the single path's too).
 */
function projectSampled(
  measured: ReadonlyMap<string, { perRange: number; single: number; sampleBytesPerSecond: number }>,
) {
  const rows = 1e9;
  const size = rows * SHORTEST_ROW_BYTES;
  const txt = { format: 'txt', gzip: false } as const;
  const perRangeFixed = SFN_PER_RANGE * SFN_TRANSITION + (5 * S3_PUT_PER_1000 + 2 * S3_GET_PER_1000) / 1000;
  console.log(
    `\nProjected: ${fmt(rows)} rows (${(size / 1e9).toFixed(0)} GB) at 900 s, one thread, the ranges sized by the sample ` +
      `rate above (the conservative plan: ${fmt(planRanges(size, FULL_RANGE_BYTES).ranges)} ranges of ${(FULL_RANGE_BYTES / 1e6).toFixed(0)} MB). ` +
      `Fixed cost per range: $${perRangeFixed.toFixed(7)}.\n`,
  );
  console.log(
    '| set | sample MB/s | range MB (x floor) | ranges | one range | 30 at once | 100 at once | 1,000 at once | single $/M | split $/M | split / single | conservative plan: split / single |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const clock = (seconds: number) => (seconds < 120 ? `${seconds.toFixed(0)} s` : `${(seconds / 60).toFixed(1)} min`);
  for (const [set, { perRange, single, sampleBytesPerSecond }] of measured) {
    const { rangeBytes, ranges } = planRanges(
      size,
      sampledRangeBytes(txt, false, PLAN, sampleBytesPerSecond).rangeBytes,
    );
    const range = rangeBytes / SHORTEST_ROW_BYTES / perRange;
    const waves = (concurrency: number) => clock(Math.ceil(ranges / concurrency) * range);
    const computeOf = (rate: number) => (1e6 / rate) * FILES_GB * ARM64_GB_SECOND;
    const singleDollars = computeOf(single);
    const splitAt = (n: number) =>
      computeOf(perRange) + ((n * perRangeFixed + SFN_PER_FILE * SFN_TRANSITION) * 1e6) / rows;
    const conservative = planRanges(size, FULL_RANGE_BYTES).ranges;
    console.log(
      `| ${set} | ${(sampleBytesPerSecond / 1e6).toFixed(2)} | ${(rangeBytes / 1e6).toFixed(0)} (x${(rangeBytes / FULL_RANGE_BYTES).toFixed(2)}) | ${fmt(ranges)} | ${clock(range)} | ${waves(30)} | ${waves(100)} | ${waves(1000)} | ${singleDollars.toFixed(6)} | ${splitAt(ranges).toFixed(6)} | ${(splitAt(ranges) / singleDollars).toFixed(3)} | ${(splitAt(conservative) / singleDollars).toFixed(3)} |`,
    );
  }
}
