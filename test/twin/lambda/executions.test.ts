// Files invocations as Lambda runs them: ended at the function's timeout, asynchronous ones
// retried twice and then kept as the failed-events queue keeps them; and the function itself
// stops with time left, so no invocation dies at its timeout with nothing said.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_MAX_ASYNC_PAYLOAD_BYTES } from '../../../functions/contract/aws-quotas.js';
import { endWarmEnvironments, invokeFunction, invokeFunctionAsync } from '../../../twin/lambda/executions.js';
import type { FailedEventRecord } from '../../../twin/lambda/executions.js';
import { readPuzzleSet } from '../../helpers/puzzle-sets.js';
import { startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';
import { startS3Proxy } from '../../helpers/s3-proxy.js';
import type { S3Proxy } from '../../helpers/s3-proxy.js';
import { useFunctionEnvironment } from '../../../twin/lambda/function-environment.js';

let s3: TestS3;
let proxy: S3Proxy;
beforeAll(async () => {
  s3 = await startTestS3();
  proxy = await startS3Proxy(s3.server.endpoint);
  // What the executions' S3 client reads (a worker thread takes the environment at its start).
  useFunctionEnvironment(process.env, proxy.endpoint);
});
afterAll(async () => {
  await proxy?.close();
  await s3?.close();
});

describe('a file longer than one invocation', () => {
  const key = 'incoming/long/hardest.txt';
  /** The function stops a quarter of it (1 s) before the end: 3 s of solving, a small part of the file's 30 s or more. */
  const timeoutMs = 4_000;
  beforeAll(async () => {
    const hardest = readPuzzleSet('puzzles6_forum_hardest_1106');
    await s3.put(key, `${Array.from({ length: 1000 }, () => hardest.join('\n')).join('\n')}\n`);
  });

  it('stops with time left: a failed report says why and how far it got, no output, no upload left behind', async () => {
    const invocation = await invokeFunction(await s3.eventFor(key), { timeoutMs });
    expect(invocation.ok).toBe(true);
    const report = await s3.report(key);
    expect(report).toMatchObject({ outcome: 'failed', output: { written: false }, error: { code: 'TIME_LIMIT' } });
    expect(report.error?.message).toMatch(/Split it into smaller files/);
    expect(report.counts.rowsReadBeforeError).toBeGreaterThan(0);
    expect(report.counts.rowsReadBeforeError).toBeLessThan(375_000);
    expect(await s3.exists('solved/long/hardest.txt')).toBe(false);
    const uploads = await s3.admin.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'solved/long/' }));
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it('is not started again for the same version: the report says it cannot fit', async () => {
    const invocation = await invokeFunction(await s3.eventFor(key), { timeoutMs });
    expect(invocation).toMatchObject({ ok: true, result: [{ status: 'skipped', reason: 'already-failed' }] });
  });
});

describe('an invocation that passes its timeout', () => {
  it('is ended there, retried twice, then kept as the failed-events queue keeps it', async () => {
    const key = 'incoming/stuck/never.txt';
    await s3.put(key, 'x\n');
    const event = await s3.eventFor(key);
    // S3 never answers this file's HEAD: the invocation hangs inside an S3 call, as a stuck one does.
    proxy.stallWhere((r) => r.method === 'HEAD' && r.url.includes('/stuck/'));
    const failedEventsDir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-failed-events-'));
    const { invocation, attempts, failedEventFile } = await invokeFunctionAsync(event, {
      timeoutMs: 1000,
      retryDelayMs: 10,
      failedEventsDir,
    });
    proxy.stallWhere(undefined);
    expect(invocation).toMatchObject({ ok: false, errorType: 'Sandbox.Timedout', timedOut: true });
    expect(invocation.ok || invocation.errorMessage).toBe('Task timed out after 1.00 seconds');
    expect(attempts).toBe(3);
    expect(failedEventFile && existsSync(failedEventFile)).toBe(true);
    const record = JSON.parse(readFileSync(failedEventFile!, 'utf8')) as FailedEventRecord;
    expect(record).toMatchObject({
      requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 3 },
      responsePayload: { errorType: 'Sandbox.Timedout' },
      requestPayload: event,
    });
  });
});

describe("an asynchronous event past Lambda's payload quota", () => {
  it('is refused with RequestEntityTooLargeException (413): never run, never retried, no failed-event record', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-async-payload-'));
    const marker = path.join(dir, 'ran');
    const bundle = path.join(dir, 'marks.mjs');
    writeFileSync(
      bundle,
      `import { writeFileSync } from 'node:fs';\nexport const handler = async () => writeFileSync(${JSON.stringify(marker)}, '1');\n`,
    );
    const failedEventsDir = path.join(dir, 'failed');
    // As many records as it takes: S3 sends one a notification, but the quota is on the payload.
    await s3.put('incoming/payload/x.txt', 'x\n');
    const record = (await s3.eventFor('incoming/payload/x.txt')).Records[0]!;
    const recordBytes = JSON.stringify(record).length + 1;
    const records = Array.from({ length: Math.ceil(LAMBDA_MAX_ASYNC_PAYLOAD_BYTES / recordBytes) + 1 }, () => record);
    const { invocation, attempts, failedEventFile } = await invokeFunctionAsync(
      { Records: records },
      { timeoutMs: 1000, bundle, failedEventsDir },
    );
    expect(invocation).toMatchObject({ ok: false, errorType: 'RequestEntityTooLargeException' });
    expect(invocation.ok || invocation.errorMessage).toMatch(`(limit ${LAMBDA_MAX_ASYNC_PAYLOAD_BYTES} bytes)`);
    expect(attempts).toBe(0);
    expect(failedEventFile).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
    // One record fewer than the quota runs.
    const within = Array.from({ length: Math.floor(LAMBDA_MAX_ASYNC_PAYLOAD_BYTES / recordBytes) - 1 }, () => record);
    expect(
      (await invokeFunctionAsync({ Records: within }, { timeoutMs: 5000, bundle, failedEventsDir })).invocation.ok,
    ).toBe(true);
    expect(existsSync(marker)).toBe(true);
  });
});

describe('execution environments, as Lambda keeps them', () => {
  // A function whose module counts its invocations: the count says which environment ran it.
  let bundle: string;
  beforeAll(() => {
    bundle = path.join(mkdtempSync(path.join(os.tmpdir(), 'sudoku-warm-')), 'counter.mjs');
    writeFileSync(
      bundle,
      'let n = 0;\nexport const handler = async (event, context) => event.hang ? new Promise(() => {}) : { n: ++n, left: context.getRemainingTimeInMillis(), deadline: Date.now() + context.getRemainingTimeInMillis(), init: process.env.AWS_LAMBDA_INITIALIZATION_TYPE };\n',
    );
  });
  afterAll(() => endWarmEnvironments());

  const invoke = (event: object, env: Record<string, string> = {}) =>
    invokeFunction(event, { timeoutMs: 2000, bundle, functionName: 'warm-test', env });

  it('gives the next invocation the warm environment (its module state kept), each with its own deadline', async () => {
    const first = await invoke({});
    const beforeSecond = Date.now();
    const second = await invoke({});
    // As Lambda sets it (Powertools tells cold starts by it: cold_start true on n = 1 only).
    expect(first).toMatchObject({ ok: true, result: { n: 1, init: 'on-demand' } });
    expect(second).toMatchObject({ ok: true, result: { n: 2 } });
    // The clock restarts per invocation: the second's deadline is the whole timeout from its own
    // invoke, not the first's (compared as instants, so a slow machine cannot fail it).
    expect((second as { result: { deadline: number } }).result.deadline).toBeGreaterThanOrEqual(beforeSecond + 2000);
  });

  it("tells a cold invocation the deadline it is ended at, counted from the invoke, not from its environment's start", async () => {
    await endWarmEnvironments();
    const before = Date.now();
    const pending = invoke({});
    const sent = Date.now();
    const cold = (await pending) as { ok: true; result: { n: number; deadline: number } };
    expect(cold.result.n).toBe(1);
    // A new thread takes milliseconds to start; a deadline counted from then would be that late.
    expect(cold.result.deadline).toBeGreaterThanOrEqual(before + 2000);
    expect(cold.result.deadline).toBeLessThanOrEqual(sent + 2000 + 1);
  });

  it('starts cold after a timeout (the environment is discarded) and for other settings', async () => {
    await invoke({});
    const timedOut = await invoke({ hang: true });
    expect(timedOut).toMatchObject({ ok: false, errorType: 'Sandbox.Timedout', timedOut: true });
    expect(await invoke({})).toMatchObject({ ok: true, result: { n: 1 } });
    expect(await invoke({})).toMatchObject({ ok: true, result: { n: 2 } });
    // Other environment variables are another function configuration: an environment of its own.
    expect(await invoke({}, { SOME_SETTING: 'changed' })).toMatchObject({ ok: true, result: { n: 1 } });
    await endWarmEnvironments();
    expect(await invoke({})).toMatchObject({ ok: true, result: { n: 1 } });
  });
});
