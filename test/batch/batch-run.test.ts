import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatchJob } from '../../twin/stepfunctions/batch-run.js';
import type { RunSummary } from '../../twin/stepfunctions/batch-run.js';
import type { ChildExecution, RunManifest } from '../../twin/stepfunctions/run-report.js';
import { MAP_ITEM_RETRY } from '../../functions/contract/service-layout.js';
import type { MapItemResult, MapResult } from '../../functions/batch/index.js';
import { handleS3Event } from '../../functions/s3/index.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { clientFor, startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { startS3Proxy } from '../helpers/s3-proxy.js';
import type { S3Proxy } from '../helpers/s3-proxy.js';
import { mixedPuzzleFiles, putAll, readJson, reportOf, solvedCorrectly } from './puzzle-files.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const run = (options: Partial<Parameters<typeof runBatchJob>[0]> = {}): Promise<RunSummary> =>
  runBatchJob({
    client: s3.client,
    runClient: clientFor(s3.server.endpoint, 'run'),
    bucket: s3.bucket,
    mode: 'batch',
    // The map's retry rule, with the waits shortened.
    retry: { intervalSeconds: 0.01 },
    ...options,
  });

describe('a batch run over batch/', () => {
  const files = mixedPuzzleFiles('batch/', 'fifty', 50);
  let first: RunSummary;

  beforeAll(async () => {
    await putAll(s3, files);
    first = await run({ prefix: 'fifty/' });
  });

  it('solves all 50 files of mixed formats (txt, csv, jsonl, json, each plain and .gz) in one run, every answer verified', async () => {
    expect(first).toMatchObject({
      listed: 50,
      prefix: 'batch/fifty/',
      files: { solved: 50, skipped: 0, rejected: 0, ignored: 0, failed: 0 },
      puzzles: { rows: 200, solved: 200, failed: 0 },
      invocations: { succeeded: 5, failed: 0 },
    });
    const checks = await Promise.all(files.map((f) => solvedCorrectly(s3, f)));
    expect(files.filter((_, i) => !checks[i]).map((f) => f.key)).toEqual([]);
  });

  it('writes each file the same report as the S3 pipeline: batch-reports/<path>.json with its batch/ source and ETag', async () => {
    const file = files[13]!;
    const report = await reportOf(s3, file.key);
    const head = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: file.key }));
    expect(report).toMatchObject({
      source: { bucket: s3.bucket, key: file.key, eTag: head.ETag!.replace(/"/g, '') },
      outcome: 'solved',
      output: { key: `batch-solved/${file.path}`, written: true },
      counts: { rows: 4, solved: 4 },
      failuresTotal: 0,
    });
  });

  it('writes a run report under run-reports/<run id>/ in the shape of Step Functions result files', async () => {
    expect(first.reportPrefix).toBe(`run-reports/${first.runId}/`);
    const manifest = await readJson<RunManifest>(s3, `${first.reportPrefix}manifest.json`);
    expect(manifest.DestinationBucket).toBe(s3.bucket);
    expect(manifest.ResultFiles.FAILED).toEqual([]);
    expect(manifest.ResultFiles.SUCCEEDED).toEqual([
      { Key: `${first.reportPrefix}SUCCEEDED_0.json`, Size: expect.any(Number) },
    ]);
    const succeeded = await readJson<ChildExecution[]>(s3, manifest.ResultFiles.SUCCEEDED[0]!.Key);
    expect(succeeded).toHaveLength(5);
    const keys = succeeded.flatMap((execution) => {
      expect(execution.Status).toBe('SUCCEEDED');
      const input = JSON.parse(execution.Input) as { Items: { Key: string; Etag: string }[]; BatchInput: unknown };
      expect(input.BatchInput).toEqual({ bucket: s3.bucket, mode: 'batch' });
      expect(input.Items.length).toBeLessThanOrEqual(10);
      const output = JSON.parse(execution.Output!) as MapResult;
      expect(output.items.map((i) => i.key)).toEqual(input.Items.map((i) => i.Key));
      return input.Items.map((i) => i.Key);
    });
    expect(keys.sort()).toEqual(files.map((f) => f.key).sort());
    expect(await readJson<RunSummary>(s3, `${first.reportPrefix}summary.json`)).toMatchObject({
      runId: first.runId,
      files: first.files,
    });
  });

  it('does no work on a second run: every file skipped as already solved, no output rewritten', async () => {
    const output = `batch-solved/${files[0]!.path}`;
    const before = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: output }));
    const seen: MapItemResult[] = [];
    const second = await run({ prefix: 'fifty/', onItem: (r) => seen.push(r) });
    expect(second).toMatchObject({ listed: 50, files: { solved: 0, skipped: 50, failed: 0 }, puzzles: { rows: 0 } });
    expect(seen.every((r) => r.status === 'skipped' && r.reason === 'already-solved')).toBe(true);
    const after = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: output }));
    expect(after.LastModified).toEqual(before.LastModified);
    expect(after.ETag).toBe(before.ETag);
  });

  it('solves again a file replaced by a new version (new ETag) and only that one', async () => {
    const file = files[1]!;
    expect(file.key).toMatch(/\.csv$/);
    await s3.put(file.key, `quizzes,solutions\n${EASY},\n`);
    const third = await run({ prefix: 'fifty/' });
    expect(third.files).toMatchObject({ solved: 1, skipped: 49, failed: 0 });
    const rows = (await s3.text(`batch-solved/${file.path}`))!.split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.split(',').slice(0, 2)).toEqual([EASY, EASY_SOLUTION]);
  });
});

describe('the sweep of incoming/', () => {
  it('solves an incoming/ file that was never processed (its event lost) and skips the one already solved', async () => {
    await s3.put('incoming/sweep/missed.txt', `${EASY}\n`);
    await s3.put('incoming/sweep/handled.txt', `${EASY}\n${EASY}\n`);
    // This one had its S3 event delivered; the other's was lost (the test server delivers none).
    await handleS3Event(await s3.eventFor('incoming/sweep/handled.txt'), { client: s3.client });
    expect(await s3.exists('solved/sweep/missed.txt')).toBe(false);

    const seen: MapItemResult[] = [];
    const sweep = await run({ mode: 'sweep', prefix: 'sweep/', onItem: (r) => seen.push(r) });

    expect(sweep).toMatchObject({
      mode: 'sweep',
      prefix: 'incoming/sweep/',
      listed: 2,
      files: { solved: 1, skipped: 1, failed: 0 },
    });
    expect(seen.find((r) => r.key === 'incoming/sweep/missed.txt')).toMatchObject({
      status: 'solved',
      outputKey: 'solved/sweep/missed.txt',
    });
    expect(seen.find((r) => r.key === 'incoming/sweep/handled.txt')).toMatchObject({
      status: 'skipped',
      reason: 'already-solved',
    });
    expect(await s3.text('solved/sweep/missed.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await reportOf(s3, 'incoming/sweep/missed.txt')).toMatchObject({
      source: { key: 'incoming/sweep/missed.txt' },
      outcome: 'solved',
    });
  });

  it('lists only incoming/: files under batch/ are left to the batch mode', async () => {
    await s3.put('batch/not-swept/a.txt', `${EASY}\n`);
    const sweep = await run({ mode: 'sweep', prefix: 'not-swept/' });
    expect(sweep.listed).toBe(0);
    expect(await s3.exists('batch-solved/not-swept/a.txt')).toBe(false);
  });
});

describe('a bad file in a group', () => {
  // The real server behind a proxy that drops the connection in the middle of one file's body,
  // as when S3 or the network fails: the kind of failure a retry may cure.
  let proxy: S3Proxy;
  beforeAll(async () => {
    proxy = await startS3Proxy(s3.server.endpoint);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  const throughProxy = (options: Partial<Parameters<typeof runBatchJob>[0]> = {}) =>
    run({ client: clientFor(proxy.endpoint, 'files'), ...options });

  it('fails alone: the other files of its invocation are solved, the run counts it failed and reports the invocation failed', async () => {
    const good = mixedPuzzleFiles('batch/', 'group', 9, 2);
    await putAll(s3, good);
    await s3.put('batch/group/file-004-broken.txt.gz', gzipSync(`${EASY}\n`.repeat(50)));
    proxy.cutGetAfter('file-004-broken', 20);

    const seen: MapItemResult[] = [];
    const summary = await throughProxy({ prefix: 'group/', onItem: (r) => seen.push(r) });

    expect(summary).toMatchObject({
      listed: 10,
      files: { solved: 9, failed: 1 },
      // The map retried the group twice (MAP_ITEM_RETRY); the file failed each time.
      invocations: { succeeded: 0, failed: 1, retried: MAP_ITEM_RETRY.retries },
    });
    expect(summary.failures).toEqual([
      { key: 'batch/group/file-004-broken.txt.gz', error: { code: expect.any(String), message: expect.any(String) } },
    ]);
    expect(seen.filter((r) => r.status === 'failed').map((r) => r.key)).toEqual(['batch/group/file-004-broken.txt.gz']);
    const checks = await Promise.all(good.map((f) => solvedCorrectly(s3, f)));
    expect(checks.every(Boolean)).toBe(true);
    // The output appears only when complete: none for the broken file.
    expect(await s3.exists('batch-solved/group/file-004-broken.txt.gz')).toBe(false);

    const manifest = await readJson<RunManifest>(s3, `${summary.reportPrefix}manifest.json`);
    expect(manifest.ResultFiles.SUCCEEDED).toEqual([]);
    const [failed] = await readJson<ChildExecution[]>(s3, manifest.ResultFiles.FAILED[0]!.Key);
    expect(failed).toMatchObject({ Status: 'FAILED', Error: 'BatchItemsFailedError' });
    expect(JSON.parse(failed!.Input).Items).toHaveLength(10);
    expect(JSON.parse(failed!.Cause!)).toMatchObject({
      errorType: 'BatchItemsFailedError',
      errorMessage: expect.stringMatching(/^1 of 10 file\(s\) failed: batch\/group\/file-004-broken\.txt\.gz \(/),
    });
  });

  it('is retried within the run when the failure was transient: the group is invoked again, the solved files skipped', async () => {
    const files = mixedPuzzleFiles('batch/', 'flaky', 4, 2);
    await putAll(s3, files);
    // Three 500s in a row: more than the SDK's own retries (3 attempts) absorb, so the file fails once.
    let failures = 0;
    proxy.failWhere((request) => request.method === 'GET' && request.url.includes('flaky/file-002') && failures++ < 3);
    const before = proxy.requests.length;
    const seen: MapItemResult[] = [];
    const summary = await throughProxy({ prefix: 'flaky/', onItem: (r) => seen.push(r) });
    proxy.failWhere(undefined);
    expect(summary).toMatchObject({
      files: { solved: 4, failed: 0, skipped: 0 },
      invocations: { succeeded: 1, failed: 0, retried: 1 },
    });
    expect(seen.map((r) => r.status)).toEqual(['solved', 'solved', 'solved', 'solved']);
    const checks = await Promise.all(files.map((f) => solvedCorrectly(s3, f)));
    expect(checks.every(Boolean)).toBe(true);
    // The retry read only the failed file again: three sources once, the flaky one 3 + 1 times.
    const sourceReads = proxy.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.url.includes('/batch/flaky/') && !r.url.includes('list-type'));
    expect(sourceReads).toHaveLength(7);
  });

  it('is solved by the next run once S3 answers again, while the files already done are skipped', async () => {
    proxy.cutGetAfter('nothing-matches-this', 0);
    const summary = await throughProxy({ prefix: 'group/' });
    expect(summary.files).toMatchObject({ solved: 1, skipped: 9, failed: 0 });
    expect(await s3.text('batch-solved/group/file-004-broken.txt.gz')).toBe(`${EASY_SOLUTION}\n`.repeat(50));
  });

  it('that is not a puzzle file (unknown extension, a .gz that is not gzip) is rejected with a report, not failed: retrying cannot help', async () => {
    await s3.put('batch/rejects/notes.md', '# not puzzles\n');
    await s3.put('batch/rejects/fake.txt.gz', 'this is not gzip data');
    const summary = await run({ prefix: 'rejects/' });
    expect(summary.files).toMatchObject({ rejected: 2, failed: 0 });
    expect(await reportOf(s3, 'batch/rejects/notes.md')).toMatchObject({
      outcome: 'rejected',
      error: { code: 'UNKNOWN_EXTENSION' },
    });
    expect(await reportOf(s3, 'batch/rejects/fake.txt.gz')).toMatchObject({
      outcome: 'rejected',
      error: { code: 'BAD_GZIP' },
    });
  });
});
