// Once a file is to be split, the hand-over sizes its ranges from a sample of the file solved as a
// range solves it: an easy file gets ranges larger than the conservative plan (up to 8 times it),
// a hard one never smaller than the plan, SUDOKU_RANGE_BYTES is kept exactly (no sample), and the
// output stays byte for byte what one invocation writes. The plan runs at a timeout of 50 ms (a
// conservative range of 6,150 bytes, 75 of the shortest rows), so files of a few hundred KB are cut
// into a handful of ranges; the ranges themselves run in this process without a time limit.
import type { S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LargeFileJob } from '../../functions/contract/large-files.js';
import { GRADE_METADATA } from '../../functions/contract/service-layout.js';
import { runLargeFileJob, type StepInvoker } from '../../twin/stepfunctions/large-file-run.js';
import { type FileReport, planRanges, processObject, rangeBytesFor } from '../../functions/pipeline/index.js';
import {
  PLANNING_ROWS_PER_SECOND,
  RANGE_SAMPLE,
  type RangePlanSettings,
  rangePlanSettingsFromEnv,
  SHORTEST_ROW_BYTES,
  sampledRangeBytes,
  usableSeconds,
} from '../../functions/pipeline/range-plan.js';
import { sampleSolveRate } from '../../functions/pipeline/range-sample.js';
import { clientFor, startTestS3, type TestS3 } from '../helpers/local-s3.js';
import { inProcessSteps, recordingStarter } from '../helpers/large-file-steps.js';
import { cycled, readPuzzleSet } from '../helpers/puzzle-sets.js';

let s3: TestS3;
let machine: ReturnType<typeof clientFor>;
beforeAll(async () => {
  s3 = await startTestS3();
  machine = clientFor(s3.server.endpoint, 'largeFile');
});
afterAll(async () => {
  machine?.destroy();
  await s3?.close();
});

const easy = readPuzzleSet('puzzles2_17_clue');
const hardest = readPuzzleSet('puzzles6_forum_hardest_1106');
const txt = { format: 'txt', gzip: false } as const;
/** A 50 ms invocation: 37.5 ms usable, a conservative range of 6,150 bytes. */
const SHORT: RangePlanSettings = { timeoutSeconds: 0.05, threads: 1 };

const inProcess: StepInvoker = inProcessSteps(() => s3.client);

/** The client, counting its GetObject calls of `key`. */
function countingGets(client: S3Client, key: string): { client: S3Client; gets: () => number } {
  let gets = 0;
  const counted = new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string }; input: { Key?: string } }, ...rest: unknown[]) => {
        if (command.constructor.name === 'GetObjectCommand' && command.input.Key === key) gets++;
        return (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      };
    },
  });
  return { client: counted, gets: () => gets };
}

/** Uploads `path`, solves it whole and in ranges planned by `plan`; checks they agree; the job, report and the hand-over's reads of the file. */
async function splitAgainstWhole(
  path: string,
  body: string | Buffer,
  plan: RangePlanSettings,
  options: { metadata?: Record<string, string>; timeLeftMs?: () => number } = {},
) {
  await s3.put(`incoming/${path}`, body, options.metadata);
  const whole = await processObject({
    client: s3.client,
    bucket: s3.bucket,
    sourceKey: `incoming/${path}`,
    outputKey: `solved/whole/${path}`,
    reportKey: `reports/whole/${path}.json`,
  });
  if (whole.status !== 'processed') throw new Error(`not processed: ${JSON.stringify(whole)}`);
  const { jobs, startLargeFile } = recordingStarter();
  const counted = countingGets(s3.client, `incoming/${path}`);
  const handed = await processObject({
    client: counted.client,
    bucket: s3.bucket,
    sourceKey: `incoming/${path}`,
    outputKey: `solved/${path}`,
    reportKey: `reports/${path}.json`,
    ranges: plan,
    ...(options.timeLeftMs ? { timeLeftMs: options.timeLeftMs } : {}),
    startLargeFile,
  });
  expect(handed).toMatchObject({ status: 'skipped', reason: 'handed-over' });
  const job = jobs[0]!;
  const summary = await runLargeFileJob(job, {
    client: machine,
    maxConcurrency: 3,
    retryIntervalSeconds: 0,
    invoke: inProcess,
  });
  expect(summary.status).toBe('SUCCEEDED');
  // Byte for byte (a .gz: its text; the split's gzip is one member per staged piece).
  expect(await s3.text(`solved/${path}`)).toBe(await s3.text(`solved/whole/${path}`));
  const report = await s3.report(`incoming/${path}`);
  const wholeReport: FileReport = whole.report;
  expect(report.outcome).toBe('solved');
  expect(report.counts).toEqual(wholeReport.counts);
  expect(report.failures).toEqual(wholeReport.failures);
  expect(report.levels).toEqual(wholeReport.levels);
  expect(report.split).toMatchObject({ ranges: job.ranges, rangeBytes: job.rangeBytes, sizedBy: job.sizing!.by });
  return { job, report, gets: counted.gets() };
}

/** What the job's sample sizes a range at, as the plan computes it; the job must hold exactly that. */
function expectSizedBySample(job: LargeFileJob, report: FileReport, plan: RangePlanSettings) {
  const kind = { format: job.kind.format, gzip: job.kind.gzip };
  const sample = job.sizing!.sample!;
  expect(job.sizing!.by).toBe('sample');
  expect(sample.rows).toBeGreaterThan(0);
  // Its time depends on the machine (tests assert no wall time); its size is bounded.
  expect(sample.bytes).toBeLessThanOrEqual(RANGE_SAMPLE.maxBytes);
  expect(report.split!.sampleRowsPerSecond).toBe(sample.rowsPerSecond);
  const sized = sampledRangeBytes(kind, job.grade, plan, sample.bytesPerSecond);
  expect(job.sizing).toMatchObject({ planBytes: sized.planBytes, maxBytes: sized.maxBytes });
  expect(planRanges(job.size, sized.rangeBytes)).toEqual({ rangeBytes: job.rangeBytes, ranges: job.ranges });
  expect(job.rangeBytes).toBeGreaterThanOrEqual(sized.planBytes);
  expect(job.rangeBytes).toBeLessThanOrEqual(sized.maxBytes);
  return sized;
}

describe('the range size from the planning rate and a measured one', () => {
  it('is what the measured rate solves in half the usable time, never below the plan, at most 8 times it', () => {
    const plan = { timeoutSeconds: 900, threads: 1 };
    const planBytes = rangeBytesFor(txt, false, plan);
    expect(planBytes).toBe(145_960_000);
    expect(usableSeconds(plan)).toBe(890);
    // A rate below the planning rate (a slow sample) leaves the plan: the floor.
    expect(sampledRangeBytes(txt, false, plan, 1_000 * SHORTEST_ROW_BYTES).rangeBytes).toBe(planBytes);
    // Twice the planning rate: twice the plan.
    expect(sampledRangeBytes(txt, false, plan, 2 * 4_000 * SHORTEST_ROW_BYTES).rangeBytes).toBe(2 * planBytes);
    // 17-clue rows at 220,000 rows/s would be 55 times the plan: capped at 8 (1.17 GB).
    expect(sampledRangeBytes(txt, false, plan, 220_000 * SHORTEST_ROW_BYTES)).toEqual({
      rangeBytes: 8 * planBytes,
      planBytes,
      maxBytes: 8 * planBytes,
    });
    // Graded, the floor is the graded plan's; a .csv is solved on one thread whatever the function has.
    const graded = rangeBytesFor(txt, true, plan);
    expect(graded).toBe((planBytes * PLANNING_ROWS_PER_SECOND.graded) / PLANNING_ROWS_PER_SECOND.solved);
    expect(sampledRangeBytes(txt, true, plan, 300 * SHORTEST_ROW_BYTES).rangeBytes).toBe(graded);
    const csv = { format: 'csv', gzip: false } as const;
    const twoThreads = { ...plan, threads: 2 };
    expect(sampledRangeBytes(csv, false, twoThreads, 12_000 * SHORTEST_ROW_BYTES).rangeBytes).toBe(3 * planBytes);
    expect(sampledRangeBytes(txt, false, twoThreads, 12_000 * SHORTEST_ROW_BYTES).rangeBytes).toBe(6 * planBytes);
  });
});

describe('the sample', () => {
  const rows = [...hardest, ...hardest, ...hardest, ...hardest];
  const file = Buffer.from(`${rows.join('\n')}\n`);
  const sample = (limits: { maxBytes?: number; maxMs?: number }, timeLeftMs?: () => number) =>
    sampleSolveRate({
      read: async () => Readable.from([file]),
      size: file.length,
      kind: txt,
      grade: false,
      ...limits,
      ...(timeLeftMs ? { timeLeftMs } : {}),
    });

  it('stops at its byte limit, at a line end: the lines that start in it', async () => {
    const taken = await sample({ maxBytes: 100 * SHORTEST_ROW_BYTES });
    expect(taken).toMatchObject({ rows: 100, bytes: 100 * SHORTEST_ROW_BYTES });
    expect(taken!.bytesPerSecond / ((taken!.bytes * 1000) / taken!.ms)).toBeCloseTo(1, 2);
  });

  it('is sized by a probe to its time limit, and is not taken without time for it', async () => {
    const taken = await sample({ maxMs: 30 });
    expect(taken!.rows).toBeLessThan(rows.length / 2);
    expect(await sample({}, () => 60)).toBeUndefined();
  });
});

describe('a file split in ranges sized by a sample of it', () => {
  it('an easy .txt gets ranges up to the cap, and the same output as one invocation', async () => {
    const rows = cycled(easy, 6_000);
    const { job, report, gets } = await splitAgainstWhole('sized/easy.txt', `${rows.join('\n')}\n`, SHORT);
    const sized = expectSizedBySample(job, report, SHORT);
    expect(sized.planBytes).toBe(6_150);
    // 17-clue rows solve far above the planning rate: larger ranges than the plan's.
    expect(job.rangeBytes).toBeGreaterThan(sized.planBytes);
    // And above 8 x 4,000 rows/s (~200,000 unloaded): the cap (49,200 bytes, 600 rows), 11 ranges instead of 81.
    if (job.sizing!.sample!.rowsPerSecond >= 8 * PLANNING_ROWS_PER_SECOND.solved) {
      expect(job.rangeBytes).toBe(sized.maxBytes);
      expect(job.ranges).toBe(Math.ceil(job.size / sized.maxBytes));
      expect(job.ranges).toBeLessThan(planRanges(job.size, sized.planBytes).ranges / 7);
    }
    // The hand-over read the file twice: the probe and the sample.
    expect(gets).toBe(2);
  });

  it('a hard .txt, graded: never below the graded plan, and the same output and levels', async () => {
    const rows = hardest.slice(0, 120);
    const { job, report } = await splitAgainstWhole('sized/hard-graded.txt', `${rows.join('\n')}\n`, SHORT, {
      metadata: { [GRADE_METADATA]: 'true' },
    });
    expect(job.grade).toBe(true);
    const sized = expectSizedBySample(job, report, SHORT);
    expect(sized.planBytes).toBe(922);
    expect(job.ranges).toBeGreaterThan(1);
  });

  it('a .csv is sampled with its header, as its first range reads it', async () => {
    const rows = cycled(easy, 3_000).map((p, i) => `n${i + 1},"${p}"`);
    const { job, report } = await splitAgainstWhole('sized/easy.csv', `id,puzzle\n${rows.join('\n')}\n`, SHORT);
    expectSizedBySample(job, report, SHORT);
    // How many rows 0.3 s of solving takes depends on the machine's speed: some, at most all.
    expect(job.sizing!.sample!.rows).toBeGreaterThan(0);
    expect(job.sizing!.sample!.rows).toBeLessThanOrEqual(3_000);
    expect(job.ranges).toBeGreaterThan(1);
  });

  it('a .gz is sampled from its inflated copy, the ranges cut from that', async () => {
    const body = gzipSync(`${cycled(easy, 3_000).join('\n')}\n`);
    const { job, report } = await splitAgainstWhole('sized/easy.txt.gz', body, SHORT);
    expect(job.readKey).toBe(`${job.stagingPrefix}inflated`);
    expectSizedBySample(job, report, SHORT);
    // Whole rows of the inflated text from its start (how many depends on the machine's speed):
    // the compressed bytes would not be whole 82-byte rows.
    const { rows, bytes } = job.sizing!.sample!;
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(3_000);
    expect(bytes).toBe(rows * SHORTEST_ROW_BYTES);
  });

  it('SUDOKU_RANGE_BYTES is kept exactly: no sample taken', async () => {
    const plan = rangePlanSettingsFromEnv({ SUDOKU_RANGE_BYTES: '8000', SUDOKU_FILES_TIMEOUT_SECONDS: '0.05' });
    const { job, report, gets } = await splitAgainstWhole(
      'sized/fixed.txt',
      `${easy.slice(0, 1_000).join('\n')}\n`,
      plan,
    );
    expect(job.rangeBytes).toBe(8_000);
    expect(job.ranges).toBe(Math.ceil((1_000 * SHORTEST_ROW_BYTES) / 8_000));
    expect(job.sizing).toEqual({ by: 'fixed', planBytes: 8_000, maxBytes: 8_000 });
    expect(report.split!.sizedBy).toBe('fixed');
    expect(report.split).not.toHaveProperty('sampleRowsPerSecond');
    expect(gets).toBe(0);
  });

  it('without time for a sample, the conservative plan', async () => {
    const { job, report, gets } = await splitAgainstWhole(
      'sized/no-time.txt',
      `${easy.slice(0, 500).join('\n')}\n`,
      SHORT,
      {
        // 60 ms left: a quarter of what is left before the hand-over point is under the 20 ms a sample needs.
        timeLeftMs: () => 60,
      },
    );
    expect(job.sizing).toEqual({ by: 'plan', planBytes: 6_150, maxBytes: 49_200 });
    expect(job.rangeBytes).toBe(6_150);
    expect(report.split!.sizedBy).toBe('plan');
    expect(gets).toBe(0);
  });
});
