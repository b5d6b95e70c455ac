// While a file is solved in ranges its report key says where it stands (outcome `running`, ranges
// and rows done), replaced by the final report at the end; the running report never overwrites a
// final one, never goes backwards, and fools neither the skip check nor the sweep. Run on the
// twin's S3 with the files function's role, so every new call is decided by the synthesized policies.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LargeFileJob } from '../../functions/contract/large-files.js';
import { handleLargeFileEvent } from '../../functions/large-file/index.js';
import { processObject } from '../../functions/pipeline/index.js';
import { type RunningReport, recordRangeProgress } from '../../functions/pipeline/running-report.js';
import { runLargeFileJob, type StepInvoker } from '../../twin/stepfunctions/large-file-run.js';
import { handedOver, inProcessSteps } from '../helpers/large-file-steps.js';
import { clientFor, startTestS3, type TestS3 } from '../helpers/local-s3.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';

let s3: TestS3;
let machine: S3Client;
beforeAll(async () => {
  s3 = await startTestS3();
  machine = clientFor(s3.server.endpoint, 'largeFile');
});
afterAll(async () => {
  machine?.destroy();
  await s3?.close();
});

/** 12 rows of 82 bytes in ranges of two rows: 6 ranges. */
const rows = readPuzzleSet('puzzles2_17_clue').slice(0, 12);
const body = `${rows.join('\n')}\n`;
const RANGE_BYTES = 2 * 82;
const keysOf = (path: string) => ({ outputKey: `solved/${path}`, reportKey: `reports/${path}.json` });

/** Uploads `incoming/<path>` and hands it over in ranges; the job, as the state machine would get it. */
async function handedOverAfterUpload(path: string): Promise<LargeFileJob> {
  await s3.put(`incoming/${path}`, body);
  return handedOver(s3, path, RANGE_BYTES);
}

async function reportAt(path: string): Promise<(RunningReport | { outcome: string }) | undefined> {
  const text = await s3.text(`reports/${path}.json`);
  return text === undefined ? undefined : JSON.parse(text);
}

/** The files function's client, counting its requests by command while `counting` is set. */
function countingClient(): { client: S3Client; counts: Map<string, number>; counting: { on: boolean } } {
  const client = clientFor(s3.server.endpoint, 'files');
  const counts = new Map<string, number>();
  const counting = { on: false };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (counting.on) counts.set(context.commandName!, (counts.get(context.commandName!) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'countRequests' },
  );
  return { client, counts, counting };
}

describe('the running report of a file solved in ranges', () => {
  it('counts ranges and rows up while the ranges run, then is replaced by the final report', async () => {
    const path = 'running/counts.txt';
    const job = await handedOverAfterUpload(path);
    expect(job.ranges).toBe(6);
    expect(await reportAt(path)).toBeUndefined();
    const seen: RunningReport[] = [];
    const steps = inProcessSteps(() => s3.client, { progressEveryMs: 0 });
    // A hook between ranges: one range at a time, the report read after each.
    const invoke: StepInvoker = async (event) => {
      const outcome = await steps(event);
      if (event.largeFile === 'range') seen.push((await reportAt(path)) as RunningReport);
      return outcome;
    };
    const summary = await runLargeFileJob(job, { client: machine, maxConcurrency: 1, retryIntervalSeconds: 0, invoke });
    expect(summary.status).toBe('SUCCEEDED');
    expect(seen.map((r) => r.outcome)).toEqual(Array(6).fill('running'));
    expect(seen.map((r) => r.progress.rangesDone)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.map((r) => r.progress.rowsDone)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(seen.map((r) => r.progress.bytesDone)).toEqual([1, 2, 3, 4, 5, 6].map((n) => n * RANGE_BYTES));
    expect(seen[0]).toMatchObject({
      source: { key: `incoming/${path}`, eTag: job.eTag, size: body.length },
      output: { key: `solved/${path}`, written: false },
      format: { format: 'txt', gzip: false },
      progress: { ranges: 6, bytes: body.length },
      startedAt: job.startedAt,
    });
    const updated = seen.map((r) => Date.parse(r.updatedAt));
    expect(updated).toEqual([...updated].sort((a, b) => a - b));
    const final = await s3.report(`incoming/${path}`);
    expect(final).toMatchObject({ outcome: 'solved', counts: { rows: 12, solved: 12 } });
    expect(final).not.toHaveProperty('progress');
  });

  it('costs a range a marker and a HEAD (the marker alone where the report was just brought up to date), and an update a LIST, a HEAD of the source and a PUT: 5 requests', async () => {
    const path = 'running/cost.txt';
    const job = await handedOverAfterUpload(path);
    const { client, counts, counting } = countingClient();
    const piece = (index: number) => ({
      index,
      start: index * RANGE_BYTES,
      end: (index + 1) * RANGE_BYTES,
      rows: 2,
    });
    counting.on = true;
    expect(await recordRangeProgress(client, job, piece(0), 0)).toMatchObject({ rangesDone: 1, rowsDone: 2 });
    expect(Object.fromEntries(counts)).toEqual({ PutObjectCommand: 2, HeadObjectCommand: 2, ListObjectsV2Command: 1 });
    counts.clear();
    // Within the interval, in the environment that wrote the update: its marker, no more.
    expect(await recordRangeProgress(client, job, piece(1), 60_000)).toBeUndefined();
    expect(Object.fromEntries(counts)).toEqual({ PutObjectCommand: 1 });
    counts.clear();
    // Another environment (a fresh instance of the module) reads the report's metadata to know it is fresh.
    vi.resetModules();
    const other = await import('../../functions/pipeline/running-report.js');
    expect(other.recordRangeProgress).not.toBe(recordRangeProgress);
    expect(await other.recordRangeProgress(client, job, piece(1), 60_000)).toBeUndefined();
    expect(Object.fromEntries(counts)).toEqual({ PutObjectCommand: 1, HeadObjectCommand: 1 });
    counts.clear();
    // Once it has seen that, it too leaves only its marker.
    expect(await other.recordRangeProgress(client, job, piece(1), 60_000)).toBeUndefined();
    expect(Object.fromEntries(counts)).toEqual({ PutObjectCommand: 1 });
    counting.on = false;
    // The next update counts the marker left meanwhile.
    expect(await recordRangeProgress(client, job, piece(2), 0)).toMatchObject({ rangesDone: 3, rowsDone: 6 });
    client.destroy();
  });

  it('never goes backwards and never overwrites the final report (a late or retried range)', async () => {
    const path = 'running/late.txt';
    const job = await handedOverAfterUpload(path);
    const range = (index: number) => ({ index, start: index * RANGE_BYTES, end: (index + 1) * RANGE_BYTES, rows: 2 });
    expect(await recordRangeProgress(s3.client, job, range(0), 0)).toMatchObject({ rangesDone: 1 });
    expect(await recordRangeProgress(s3.client, job, range(1), 0)).toMatchObject({ rangesDone: 2 });
    // A retry of range 0 writes the same marker: the count is not ahead, so nothing is written.
    expect(await recordRangeProgress(s3.client, job, range(0), 0)).toBeUndefined();
    expect(((await reportAt(path)) as RunningReport).progress).toMatchObject({ rangesDone: 2, rowsDone: 4 });
    const summary = await runLargeFileJob(job, {
      client: machine,
      retryIntervalSeconds: 0,
      invoke: inProcessSteps(() => s3.client, { progressEveryMs: 0 }),
    });
    expect(summary.status).toBe('SUCCEEDED');
    const final = await s3.text(`reports/${path}.json`);
    // A range that finishes after the finisher wrote (its markers are gone with the staging objects).
    expect(await recordRangeProgress(s3.client, job, range(5), 0)).toBeUndefined();
    expect(await s3.text(`reports/${path}.json`)).toBe(final);
    expect(JSON.parse(final!)).toMatchObject({ outcome: 'solved' });
  });

  it('fools neither the skip check nor the sweep: no second run while the first is open, not even with its output landed', async () => {
    const path = 'running/skip.txt';
    const job = await handedOverAfterUpload(path);
    await handleLargeFileEvent(
      { largeFile: 'range', job, range: { index: 0, start: 0, end: RANGE_BYTES } },
      { client: s3.client, progressEveryMs: 0 },
    );
    expect(await reportAt(path)).toMatchObject({ outcome: 'running' });
    let started = 0;
    let open = true;
    // The sweep and a duplicate event both go through processObject for incoming/<path>.
    const again = () =>
      processObject({
        client: s3.client,
        bucket: s3.bucket,
        sourceKey: `incoming/${path}`,
        ...keysOf(path),
        ranges: { timeoutSeconds: 900, threads: 1, rangeBytes: 1_000_000 },
        startLargeFile: {
          runs: async () => [{ attempt: 1, status: open ? 'RUNNING' : 'ABORTED' }],
          start: async () => {
            started++;
            return { started: true, executionArn: 'x' };
          },
        },
      });
    // Even a plan that would solve the file in one invocation hands it back to its open run.
    expect(await again()).toMatchObject({ status: 'skipped', reason: 'handed-over' });
    // The finisher's window: the output landed, the report not yet written.
    await s3.admin.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: `solved/${path}`,
        Body: 'x',
        Metadata: { 'source-etag': job.eTag, 'source-key': encodeURIComponent(`incoming/${path}`) },
      }),
    );
    expect(await again()).toMatchObject({ status: 'skipped', reason: 'handed-over' });
    expect(started).toBe(0);
    expect(await reportAt(path)).toMatchObject({ outcome: 'running' });
    // A run that ended without its final report (aborted) leaves a running report: not done, not
    // failed, so the next attempt starts.
    open = false;
    expect(await again()).toMatchObject({ status: 'skipped', reason: 'handed-over' });
    expect(started).toBe(1);
  });

  it('is taken back by a job whose source was replaced or removed, so the key never says running for a version no run solves', async () => {
    const path = 'running/removed.txt';
    const job = await handedOverAfterUpload(path);
    await handleLargeFileEvent(
      { largeFile: 'range', job, range: { index: 0, start: 0, end: RANGE_BYTES } },
      { client: s3.client, progressEveryMs: 0 },
    );
    expect(await reportAt(path)).toMatchObject({ outcome: 'running' });
    await s3.admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `incoming/${path}`, Body: `${rows[0]}\n` }));
    const result = await handleLargeFileEvent(
      { largeFile: 'fail', job, error: { Error: 'SourceChangedError', Cause: '{}' } },
      { client: s3.client },
    );
    expect(result).toMatchObject({ outcome: 'superseded' });
    expect(await s3.exists(`reports/${path}.json`)).toBe(false);
    expect(s3.denials).toEqual([]);
  });
});
