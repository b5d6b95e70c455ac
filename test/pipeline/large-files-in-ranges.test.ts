// A file too large for one invocation is cut into byte ranges, each solved on its own, and the
// output assembled as one object: line i still answers line i, byte for byte what one invocation
// writes, and one report counts every row. Run here in one process (the twin's state machine runner
// with an in-process invoker), with the files function's and the state machine's own roles, so the
// twin decides every S3 call by the synthesized policies.
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLargeFileJob, type StepInvoker } from '../../twin/stepfunctions/large-file-run.js';
import { processObject, solveRange } from '../../functions/pipeline/index.js';
import type { FileReport } from '../../functions/pipeline/index.js';
import { clientFor, startTestS3, type TestS3 } from '../helpers/local-s3.js';
import { handedOver, inProcessSteps } from '../helpers/large-file-steps.js';
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

const hardest = readPuzzleSet('puzzles6_forum_hardest_1106');
const inProcessWith = (options: { handOverAfterMs?: number }): StepInvoker => inProcessSteps(() => s3.client, options);
const inProcess = inProcessWith({});

const keysOf = (path: string) => ({ outputKey: `solved/${path}`, reportKey: `reports/${path}.json` });

/** Solves `incoming/<path>` in ranges of `rangeBytes`, the job run to its end; the summary and the job. */
async function solveInRanges(path: string, rangeBytes: number, invoke: StepInvoker = inProcess, maxConcurrency = 3) {
  const job = await handedOver(s3, path, rangeBytes);
  const summary = await runLargeFileJob(job, {
    client: machine,
    maxConcurrency,
    retryIntervalSeconds: 0,
    invoke,
  });
  return { summary, job };
}

/** The same file through one invocation, for comparison. */
async function solveWhole(path: string): Promise<FileReport> {
  const result = await processObject({
    client: s3.client,
    bucket: s3.bucket,
    sourceKey: `incoming/${path}`,
    outputKey: `solved/whole/${path}`,
    reportKey: `reports/whole/${path}.json`,
  });
  if (result.status !== 'processed') throw new Error(`not processed: ${JSON.stringify(result)}`);
  return result.report;
}

async function expectSameAsWhole(
  path: string,
  body: string | Buffer,
  rangeBytes: number,
  invoke = inProcess,
  maxConcurrency = 3,
) {
  await s3.put(`incoming/${path}`, body);
  const whole = await solveWhole(path);
  const { summary, job } = await solveInRanges(path, rangeBytes, invoke, maxConcurrency);
  expect(summary.status).toBe('SUCCEEDED');
  expect(await s3.text(`solved/${path}`)).toBe(await s3.text(`solved/whole/${path}`));
  const report = await s3.report(`incoming/${path}`);
  expect(report.outcome).toBe('solved');
  expect(report.counts).toEqual(whole.counts);
  expect(report.failures).toEqual(whole.failures);
  expect(report.failuresTotal).toBe(whole.failuresTotal);
  // SUDOKU_RANGE_BYTES (the `rangeBytes` setting) is kept exactly: no sample is taken.
  expect(report.split).toMatchObject({ ranges: job.ranges, rangeBytes, sizedBy: 'fixed' });
  // Nothing of the job is left behind.
  const left = await s3.admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: job.stagingPrefix }));
  expect(left.KeyCount ?? 0).toBe(0);
  return { report, summary };
}

describe('a file solved in ranges', () => {
  it('writes the same .txt as one invocation, CRLF and blank lines kept, failed rows numbered as in the file', async () => {
    const lines = [...hardest];
    lines.splice(100, 0, 'xx', '', '1'.repeat(81));
    lines.push('not a board');
    const { report, summary } = await expectSameAsWhole('ranges/hard.txt', `${lines.join('\r\n')}\r\n`, 997);
    expect(report.split!.ranges).toBeGreaterThan(20);
    // Outputs of under 5 MiB are streamed together: one part.
    expect(report.split!.parts).toBe(1);
    // The ranges with failed rows after the first were solved again, numbering from their real first line.
    expect(report.split!.redone).toBeGreaterThan(0);
    expect(summary.redone).toBe(report.split!.redone);
    expect(report.failures.map((f) => f.line)).toEqual([101, 103, lines.length]);
    expect(report.split!.invocations).toBe(summary.invocations + 1);
  });

  it('writes the same .csv: the header once, every range read by its columns, a quoted field across lines kept whole', async () => {
    const rows = hardest.slice(0, 300).map((p, i) => (i % 40 === 7 ? `"two\nlines ${i}",${p}` : `n${i},${p}`));
    rows.splice(150, 0, 'short,1234');
    await expectSameAsWhole('ranges/hard.csv', `\uFEFFname,puzzle\n${rows.join('\n')}\n`, 1500);
  });

  it('hands the rest of a range over when an invocation runs short of time, and the pieces still make the same file', async () => {
    // Every invocation hands over after its first read: each range is solved in several pieces.
    const rows = Array.from({ length: 10 }, () => hardest)
      .flat()
      .map((p, i) => (i % 97 === 5 ? `"a\nb",${p.slice(1)}` : `r${i},${p}`));
    const { summary, report } = await expectSameAsWhole(
      'ranges/handed-over.csv',
      `id,puzzle\n${rows.join('\n')}\n`,
      150_000,
      inProcessWith({ handOverAfterMs: 0 }),
    );
    expect(summary.handedOver).toBeGreaterThan(summary.ranges);
    expect(report.split!.invocations).toBe(summary.invocations + 1);
  });

  it('writes the same .jsonl', async () => {
    const lines = hardest.slice(0, 200).map((p, i) => (i % 3 ? JSON.stringify(p) : JSON.stringify({ board: p })));
    await expectSameAsWhole('ranges/hard.jsonl', `${lines.join('\n')}\n`, 2048);
  });

  it('inflates a .gz into a staging copy, cuts that, and writes a gzip of the same answers', async () => {
    const path = 'ranges/hard.txt.gz';
    await s3.put(`incoming/${path}`, gzipSync(`${hardest.join('\n')}\n`));
    const whole = await solveWhole(path);
    const { summary } = await solveInRanges(path, 4096);
    expect(summary.status).toBe('SUCCEEDED');
    expect(await s3.text(`solved/${path}`)).toBe(await s3.text(`solved/whole/${path}`));
    expect((await s3.report(`incoming/${path}`)).counts).toEqual(whole.counts);
  });

  it('assembles outputs of 5 MiB and more by copying them as parts, S3 keeping every part but the last at 5 MiB', async () => {
    // As many rows as three copies of the full 17-clue set: ~12 MB.
    const seventeen = cycled(readPuzzleSet('puzzles2_17_clue'), 3 * 49_158);
    const path = 'ranges/big.txt';
    const body = `${seventeen.join('\n')}\n`;
    const { report } = await expectSameAsWhole(path, body, 5_500_000);
    // Two ranges of 5.5 MB copied as a part each, and the last (1.1 MB) as the last part.
    expect(report.split).toMatchObject({ ranges: 3, parts: 3 });
  });

  it('brings a file cut into 1,200 ranges back complete, in order, with one report (the gathered results stay under 256 KiB)', async () => {
    // One row per range: 1,200 children of the deployed Distributed Map, each a real range
    // invocation in this process against the twin's S3 (its S3 calls, not solving, take the time).
    // A child that ended with its whole state would pass Step Functions' 256 KiB of gathered
    // results near 250 ranges and fail the job with States.DataLimitExceeded, and no report
    // (large-file-quotas.test.ts drives the machine at MAX_RANGES without S3). Past 1,000 ranges,
    // every listing of the job's staging objects (markers, attempts, tallies, pieces) takes two pages.
    const rows = readPuzzleSet('puzzles2_17_clue').slice(0, 1_200);
    const path = 'ranges/many.txt';
    const { report, summary } = await expectSameAsWhole(path, `${rows.join('\n')}\n`, 82, inProcess, 8);
    expect(summary.ranges).toBe(1_200);
    expect(report.counts.solved).toBe(1_200);
    const reports = await s3.admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `reports/${path}` }));
    expect(reports.KeyCount).toBe(1);
  }, 240_000);

  it('rejects a .csv without a puzzle column before cutting it: a report, no job', async () => {
    const path = 'ranges/no-column.csv';
    await s3.put(`incoming/${path}`, `name,grid\n${hardest.map((p, i) => `n${i},${p}`).join('\n')}\n`);
    let started = 0;
    const result = await processObject({
      client: s3.client,
      bucket: s3.bucket,
      sourceKey: `incoming/${path}`,
      ...keysOf(path),
      ranges: { timeoutSeconds: 900, threads: 1, rangeBytes: 1000 },
      startLargeFile: {
        runs: async () => [],
        start: async () => {
          started++;
          return { started: true, executionArn: 'x' };
        },
      },
    });
    expect(started).toBe(0);
    expect(result).toMatchObject({
      status: 'processed',
      report: { outcome: 'rejected', error: { code: 'NO_PUZZLE_COLUMN' } },
    });
  });

  it('lets the batches read before the hand-over point drain past the hard stop: the range ends, not fails', async () => {
    // The hand-over point is 50 ms in; the hard stop comes 225 ms after the range asks for its
    // time, while the solver still works through the rows it read before (~0.5 s here) and asks
    // for no more. Failing the range there (TimeLimitError is not retried) would end a job that
    // finishes within the margin left: reading stops at the solver's next read instead.
    const rows = cycled(readPuzzleSet('puzzles5_forum_hardest_1905_11+'), 40_000);
    const path = 'ranges/drains.txt';
    await s3.put(`incoming/${path}`, `${rows.join('\n')}\n`);
    const job = await handedOver(s3, path, 3_000_000);
    // 300 ms from when the range first asks (after its first S3 calls): the hard stop is 75 ms before.
    let asked: number | undefined;
    const timeLeftMs = () => {
      asked ??= performance.now();
      return 300 - (performance.now() - asked);
    };
    const { tally, next } = await solveRange(
      job,
      { index: 0, start: 0, end: job.rangeBytes },
      { client: s3.client, timeLeftMs, handOverAfterMs: 50 },
    );
    expect(tally.counts.rows).toBeGreaterThan(0);
    expect(tally.counts.rows).toBe(tally.counts.solved);
    expect(next).toMatchObject({ index: 0, start: tally.end, end: job.rangeBytes });
  });

  it('stops a job whose source is replaced while it runs: no output, no report, nothing staged left', async () => {
    const path = 'ranges/replaced.txt';
    await s3.put(`incoming/${path}`, `${hardest.join('\n')}\n`);
    const job = await handedOver(s3, path, 4096);
    await s3.admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `incoming/${path}`, Body: `${hardest[0]}\n` }));
    const summary = await runLargeFileJob(job, {
      client: machine,
      retryIntervalSeconds: 0,
      invoke: inProcess,
    });
    expect(summary).toMatchObject({ status: 'FAILED', error: { Error: 'States.ExceedToleratedFailureThreshold' } });
    expect(summary.error?.Cause).toMatch(/SourceChangedError/);
    expect(await s3.exists(`solved/${path}`)).toBe(false);
    expect(await s3.exists(`reports/${path}.json`)).toBe(false);
    const left = await s3.admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: job.stagingPrefix }));
    expect(left.KeyCount ?? 0).toBe(0);
  });
});
