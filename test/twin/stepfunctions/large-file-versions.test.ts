// Any sequence of uploads and deletes of one key ends with the newest version solved and reported
// (issue 36 item 1, issue 35 fix 2): each run of a version is an attempt of its own, so a run that
// failed, timed out, was aborted or was superseded never keeps the version from the next run, and a
// run whose source was put back while it ran hands the version on. Through the twin: S3 events
// delivered as `npm start` delivers them, each step an execution of the bundled function, the
// source's reads held or failed at a proxy to place each upload inside a run.
import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import type { S3Event } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FILE_TRIES_PER_VERSION,
  largeFileExecutionName,
  largeFileJobId,
} from '../../../functions/contract/large-files.js';
import { invokeFunction, invokeFunctionAsync } from '../../../twin/lambda/executions.js';
import { type LocalStepFunctions, startStackStepFunctions } from '../../../twin/stepfunctions/step-functions-server.js';
import { EASY, HARD } from '../../helpers/boards.js';
import { startTestS3, type TestS3 } from '../../helpers/local-s3.js';
import { type ProxiedRequest, startS3Proxy, type S3Proxy } from '../../helpers/s3-proxy.js';
import { isSolutionOf } from '../../helpers/sudoku-rules.js';
import { useTwinForLargeFiles } from '../../helpers/large-file-steps.js';

const TIMEOUT_MS = 10_000;
/** About 16 KB in ranges of 4,000 bytes: five ranges, two at a time. */
const A_LINES = Array.from({ length: 200 }, (_, i) => (i % 2 ? EASY : HARD));
const A = `${A_LINES.join('\n')}\n`;
/** Another version of the same key: one line, solved in one invocation. */
const B = `${EASY}\n`;

let s3: TestS3;
let proxy: S3Proxy;
let sfn: LocalStepFunctions;
let restoreEnvironment: (() => void) | undefined;
/** S3 events delivered so far (an upload's event arrives just after S3 answers the upload). */
let deliveries = 0;

beforeAll(async () => {
  // Every incoming/ upload is one asynchronous invocation, retried as Lambda retries it (s3-service.ts).
  s3 = await startTestS3({
    onObjectCreated: (event: S3Event) => {
      deliveries++;
      return invokeFunctionAsync(event, { timeoutMs: TIMEOUT_MS, retryDelayMs: 10 });
    },
  });
  proxy = await startS3Proxy(s3.server.endpoint);
  sfn = await startStackStepFunctions(s3.server.endpoint, s3.bucket, TIMEOUT_MS, { retryIntervalSeconds: 0 });
  restoreEnvironment = useTwinForLargeFiles(proxy.endpoint, sfn, TIMEOUT_MS, 4000);
});
afterAll(async () => {
  restoreEnvironment?.();
  await sfn?.idle();
  await sfn?.close();
  await proxy?.close();
  await s3?.close();
});
beforeEach(() => {
  proxy.failWhere(undefined);
});

/** Uploads `body` at `key` and waits until its event has been handled (not for the runs it starts). */
async function upload(key: string, body: string): Promise<string> {
  const before = deliveries;
  const eTag = (await s3.put(key, body)).replace(/"/g, '');
  await until(() => deliveries > before);
  await s3.server.settled();
  return eTag;
}

async function settle(): Promise<void> {
  await s3.server.settled();
  await sfn.idle();
}

/** A read of `key`'s version `eTag` by the function (If-Match names the version a step reads). */
const readOf =
  (key: string, eTag: string) =>
  (r: ProxiedRequest): boolean =>
    r.method === 'GET' && r.url.includes(encodeURI(key)) && r.headers['if-match'] === `"${eTag}"`;

/** A HEAD of `key` that names no version: the first S3 call of the fail step (and of an event's run). */
const plainHeadOf =
  (key: string) =>
  (r: ProxiedRequest): boolean =>
    r.method === 'HEAD' && r.url.endsWith(encodeURI(key)) && r.headers['if-match'] === undefined;

/** The key's report answers its source as it is now, as solved, and the output solves every line of `body`. */
async function expectSolvedNewest(key: string, body: string) {
  const head = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
  const report = await s3.report(key);
  expect(report.source.eTag).toBe(head.ETag!.replace(/"/g, ''));
  expect(report.outcome).toBe('solved');
  const lines = body.trimEnd().split('\n');
  const output = (await s3.text(key.replace('incoming/', 'solved/')))!.trimEnd().split('\n');
  expect(output.length).toBe(lines.length);
  lines.forEach((puzzle, i) => {
    if (!isSolutionOf(puzzle, output[i]!)) throw new Error(`line ${i + 1}: ${output[i]} does not solve ${puzzle}`);
  });
  return report;
}

const runName = (key: string, eTag: string, attempt: number) =>
  largeFileExecutionName(largeFileJobId(key, eTag), attempt);

describe('one key uploaded, replaced, deleted and put back, on the twin', () => {
  it('A, B, A: A put back after its run failed for B gets a run of its own and ends solved and reported', async () => {
    const key = 'incoming/versions/aba.txt';
    // A's first read waits until B has replaced it: that read of A's run then finds B.
    const firstRead = proxy.hold(readOf(key, md5(A)));
    await upload(key, A);
    await firstRead.arrived;
    await upload(key, B);
    firstRead.release();
    await settle();
    expect((await s3.report(key)).source.eTag).toBe(md5(B));
    // A again: its first run's name stays taken for 90 days; the version's next attempt solves it.
    await upload(key, A);
    await settle();
    await expectSolvedNewest(key, A);
    expect(sfn.executions.get(runName(key, md5(A), 2))?.status).toBe('SUCCEEDED');
  });

  it('A, B, A: A put back while its run still runs (its event finds the run open): the run hands A to the next', async () => {
    const key = 'incoming/versions/aba-open.txt';
    // A's run reads while B is the source, fails, and its fail step looks at the source only once A is back.
    const firstRead = proxy.hold(readOf(key, md5(A)));
    await upload(key, A);
    await firstRead.arrived;
    await upload(key, B);
    const failStep = proxy.hold(plainHeadOf(key));
    firstRead.release();
    await failStep.arrived;
    await upload(key, A);
    failStep.release();
    await settle();
    await expectSolvedNewest(key, A);
    expect(sfn.executions.get(runName(key, md5(A), 1))?.status).toBe('FAILED');
    expect(sfn.executions.get(runName(key, md5(A), 2))?.status).toBe('SUCCEEDED');
  });

  it('A, delete, A: A uploaded again after its run ended for the delete gets a run of its own', async () => {
    const key = 'incoming/versions/deleted-then-back.txt';
    const firstRead = proxy.hold(readOf(key, md5(A)));
    await upload(key, A);
    await firstRead.arrived;
    await s3.admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    firstRead.release();
    await settle();
    expect(await s3.exists(`${key.replace('incoming/', 'reports/')}.json`)).toBe(false);
    await upload(key, A);
    await settle();
    await expectSolvedNewest(key, A);
  });

  it('A, delete, A while its run runs: the run that found A gone hands A, back again, to the next', async () => {
    const key = 'incoming/versions/delete.txt';
    const firstRead = proxy.hold(readOf(key, md5(A)));
    await upload(key, A);
    await firstRead.arrived;
    await s3.admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    const failStep = proxy.hold(plainHeadOf(key));
    firstRead.release();
    await failStep.arrived;
    await upload(key, A);
    failStep.release();
    await settle();
    await expectSolvedNewest(key, A);
  });
});

describe('a run that ended without solving its version', () => {
  for (const status of ['TIMED_OUT', 'ABORTED'] as const)
    it(`is followed by a new attempt when it ${status === 'TIMED_OUT' ? 'timed out' : 'was aborted'}: by the next event, and by the sweep`, async () => {
      for (const by of ['event', 'sweep'] as const) {
        const key = `incoming/versions/${status.toLowerCase()}-${by}.txt`;
        const eTag = md5(A);
        const firstRead = proxy.hold(readOf(key, eTag));
        await upload(key, A);
        await firstRead.arrived;
        expect(sfn.stop(runName(key, eTag, 1), status)).toBe(true);
        firstRead.release();
        await settle();
        // The stopped run wrote no final report: at most the running report its ranges left.
        const left = await s3.text(`${key.replace('incoming/', 'reports/')}.json`);
        if (left !== undefined) expect(JSON.parse(left)).toMatchObject({ outcome: 'running' });
        const event = by === 'event' ? await s3.eventFor(key) : sweepOf(key);
        expect((await invokeFunction(event, { timeoutMs: TIMEOUT_MS })).ok).toBe(true);
        await settle();
        await expectSolvedNewest(key, A);
        expect(sfn.executions.get(runName(key, eTag, 2))?.status).toBe('SUCCEEDED');
      }
    });

  it('is not started twice while it runs: a duplicate event and the sweep find it open', async () => {
    const key = 'incoming/versions/open.txt';
    const eTag = md5(A);
    const firstRead = proxy.hold(readOf(key, eTag));
    await upload(key, A);
    await firstRead.arrived;
    for (const event of [await s3.eventFor(key), sweepOf(key)]) {
      const invocation = await invokeFunction(event, { timeoutMs: TIMEOUT_MS });
      expect(JSON.stringify(invocation)).toContain('handed-over');
    }
    firstRead.release();
    await settle();
    await expectSolvedNewest(key, A);
    expect(sfn.executions.has(runName(key, eTag, 2))).toBe(false);
  });
});

describe('a failed run: tried again while its failure can pass, within a bound', () => {
  /** Every read of this version of `key` answered 500 InternalError: the run fails past its retries. */
  const failReadsOf = (key: string) => proxy.failWhere(readOf(key, md5(A)));

  async function reportHead(key: string) {
    const reportKey = `${key.replace('incoming/', 'reports/')}.json`;
    return s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: reportKey }));
  }

  for (const by of ['an identical re-upload', 'the sweep'] as const)
    it(`is tried again by ${by} after S3 errors failed it, as its report says, and ends solved`, async () => {
      const key = `incoming/retries/${by === 'the sweep' ? 'sweep' : 'upload'}.txt`;
      failReadsOf(key);
      await upload(key, A);
      await settle();
      const failed = await s3.report(key);
      expect(failed).toMatchObject({ outcome: 'failed', error: { code: 'RANGES_FAILED' } });
      expect(failed.error!.message).toContain('upload the same file again (or wait for the nightly sweep)');
      expect((await reportHead(key)).Metadata).toMatchObject({ failure: 'transient', tries: '1' });
      proxy.failWhere(undefined);
      if (by === 'the sweep') expect((await invokeFunction(sweepOf(key), { timeoutMs: TIMEOUT_MS })).ok).toBe(true);
      else await upload(key, A);
      await settle();
      await expectSolvedNewest(key, A);
      expect(sfn.executions.get(runName(key, md5(A), 2))?.status).toBe('SUCCEEDED');
    });

  it(`is not tried again once ${FILE_TRIES_PER_VERSION} runs of the version failed: the last report says so`, async () => {
    const key = 'incoming/retries/for-good.txt';
    failReadsOf(key);
    for (let run = 1; run <= FILE_TRIES_PER_VERSION; run++) {
      await upload(key, A);
      await settle();
      expect((await reportHead(key)).Metadata).toMatchObject({ failure: 'transient', tries: String(run) });
    }
    const last = await s3.report(key);
    expect(last.error!.message).toContain(`tried ${FILE_TRIES_PER_VERSION} time(s) and is not tried again`);
    const again = await invokeFunction(await s3.eventFor(key), { timeoutMs: TIMEOUT_MS });
    expect(again).toMatchObject({ ok: true, result: [{ status: 'skipped', reason: 'already-failed' }] });
    expect(sfn.executions.has(runName(key, md5(A), FILE_TRIES_PER_VERSION + 1))).toBe(false);
    // Changed bytes are a new version, with tries of their own.
    proxy.failWhere(undefined);
    const changed = `${A}${EASY}\n`;
    await upload(key, changed);
    await settle();
    await expectSolvedNewest(key, changed);
  });

  it('a timed-out run counts as a failed try: the version past its tries gets a failed report, not another run', async () => {
    const key = 'incoming/retries/timed-out.txt';
    for (let run = 1; run <= FILE_TRIES_PER_VERSION; run++) {
      const firstRead = proxy.hold(readOf(key, md5(A)));
      if (run === 1) await upload(key, A);
      else expect((await invokeFunction(sweepOf(key), { timeoutMs: TIMEOUT_MS })).ok).toBe(true);
      await firstRead.arrived;
      expect(sfn.stop(runName(key, md5(A), run), 'TIMED_OUT')).toBe(true);
      firstRead.release();
      await settle();
    }
    expect((await invokeFunction(sweepOf(key), { timeoutMs: TIMEOUT_MS })).ok).toBe(true);
    const report = await s3.report(key);
    expect(report).toMatchObject({ outcome: 'failed', error: { code: 'TRIES_EXHAUSTED' } });
    expect((await reportHead(key)).Metadata).toMatchObject({ failure: 'final', tries: String(FILE_TRIES_PER_VERSION) });
    expect(sfn.executions.has(runName(key, md5(A), FILE_TRIES_PER_VERSION + 1))).toBe(false);
  });

  it('a rejected file (bad format) stays rejected: an identical re-upload and the sweep skip it', async () => {
    const key = 'incoming/retries/no-column.csv';
    const body = `name,grid\n${A_LINES.map((p, i) => `n${i},${p}`).join('\n')}\n`;
    await upload(key, body);
    await settle();
    expect(await s3.report(key)).toMatchObject({ outcome: 'rejected', error: { code: 'NO_PUZZLE_COLUMN' } });
    const again = await invokeFunction(await s3.eventFor(key), { timeoutMs: TIMEOUT_MS });
    expect(again).toMatchObject({ ok: true, result: [{ status: 'skipped', reason: 'already-rejected' }] });
    const swept = await invokeFunction(sweepOf(key), { timeoutMs: TIMEOUT_MS });
    expect(JSON.stringify(swept)).toContain('already-rejected');
  });
});

/** The sweep's map invoking the function for one incoming/ file. */
function sweepOf(key: string) {
  return { Items: [{ Key: key }], BatchInput: { bucket: s3.bucket, mode: 'sweep' } };
}

/** The ETag S3 gives a single-part upload of `body`. */
function md5(body: string): string {
  return createHash('md5').update(body).digest('hex');
}

async function until(probe: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
