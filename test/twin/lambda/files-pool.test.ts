// The files function's reserved concurrency, enforced by the twin as Lambda enforces it: an invoke
// past the pool is throttled without running; S3's asynchronous events are kept and retried as
// Lambda retries a throttled event; the state machines' tasks wait the pool out with their Retry
// rule; an SQS-routed upload is received again, and survives the template's receive count.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LargeFileJob, RangeItem } from '../../../functions/contract/large-files.js';
import { THROTTLED_ERROR } from '../../../functions/contract/throttle-retry.js';
import {
  endWarmEnvironments,
  type FailedEventRecord,
  type Invocation,
  invokeFunction,
  invokeFunctionAsync,
} from '../../../twin/lambda/executions.js';
import { runLargeFileJob, type StepInvoker } from '../../../twin/stepfunctions/large-file-run.js';
import { FILES_CONCURRENCY_ENV } from '../../../twin/stack-limits.js';
import { startTestS3, type TestS3 } from '../../helpers/local-s3.js';
import { synth } from '../../infra/helpers.js';

/**
 * A function that holds its execution until `release` exists (or for `ms`), then answers each kind
 * of event as the files function shapes it: a range with its count, finish with no redo.
 */
const HANDLER = `
import { existsSync } from 'node:fs';
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const handler = async (event) => {
  if (event.release) while (!existsSync(event.release)) await wait(5);
  if (event.ms) await wait(event.ms);
  if (event.largeFile === 'range') { await wait(30); return { index: event.range.index, rows: 1 }; }
  if (event.largeFile === 'finish') return { outcome: 'solved' };
  return { done: true };
};
`;

let dir: string;
let bundle: string;
const saved = process.env[FILES_CONCURRENCY_ENV];
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-pool-'));
  bundle = path.join(dir, 'holder.mjs');
  writeFileSync(bundle, HANDLER);
});
afterEach(() => {
  if (saved === undefined) delete process.env[FILES_CONCURRENCY_ENV];
  else process.env[FILES_CONCURRENCY_ENV] = saved;
});
afterAll(() => endWarmEnvironments());

let releases = 0;
/** A file whose creation ends every invocation waiting on it. */
function gate(): { path: string; open(): void } {
  const file = path.join(dir, `release-${++releases}`);
  return { path: file, open: () => writeFileSync(file, '') };
}

const options = () => ({ timeoutMs: 20_000, bundle });
const pool = (size: number) => {
  process.env[FILES_CONCURRENCY_ENV] = String(size);
};

describe("the files function's pool", () => {
  it('throttles an invoke past the pool without running it, and serves the next once an execution is free', async () => {
    pool(2);
    const g = gate();
    const holding = [invokeFunction({ release: g.path }, options()), invokeFunction({ release: g.path }, options())];
    const third = await invokeFunction({}, options());
    expect(third).toMatchObject({ ok: false, errorType: THROTTLED_ERROR, throttled: true });
    g.open();
    expect(await Promise.all(holding)).toMatchObject([{ ok: true }, { ok: true }]);
    expect(await invokeFunction({}, options())).toMatchObject({ ok: true, result: { done: true } });
  });

  it("retries S3's events past the pool as Lambda retries a throttled event (not one of the two retries), until each is served", async () => {
    pool(1);
    const g = gate();
    const holder = invokeFunction({ release: g.path }, options());
    const events = [1, 2, 3].map(() =>
      invokeFunctionAsync({ ms: 20 }, { ...options(), throttleRetryMs: 5, failedEventsDir: dir }),
    );
    // Throttled while the one execution is held: more than the two retries a failed event gets.
    await new Promise((resolve) => setTimeout(resolve, 500));
    g.open();
    await holder;
    const results = await Promise.all(events);
    for (const result of results) expect(result.invocation.ok).toBe(true);
    expect(results.every((r) => r.throttled >= 3)).toBe(true);
    expect(results.every((r) => r.failedEventFile === undefined)).toBe(true);
  });

  it('drops a throttled event older than the maximum event age to the failed-events queue, as EventAgeExceeded', async () => {
    pool(1);
    const g = gate();
    const holder = invokeFunction({ release: g.path }, options());
    const { invocation, failedEventFile } = await invokeFunctionAsync(
      {},
      { ...options(), throttleRetryMs: 5, maxEventAgeMs: 50, failedEventsDir: dir },
    );
    g.open();
    await holder;
    expect(invocation).toMatchObject({ ok: false, throttled: true });
    const record = JSON.parse((await import('node:fs')).readFileSync(failedEventFile!, 'utf8')) as FailedEventRecord;
    expect(record.requestContext.condition).toBe('EventAgeExceeded');
  });
});

describe('a large file while the pool is full', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('waits out the throttled ranges (the Retry rule on throttling) and ends SUCCEEDED instead of failing the file', async () => {
    const ranges: RangeItem[] = Array.from({ length: 12 }, (_, index) => ({ index, start: index, end: index + 1 }));
    const manifestKey = 'staging/pool-test/manifest.json';
    await s3.put(manifestKey, JSON.stringify(ranges));
    const job = { bucket: s3.bucket, manifestKey, ranges: ranges.length } as LargeFileJob;
    let throttled = 0;
    // Each step an invocation of the function through the twin's pool, as Step Functions sees it.
    const invoke: StepInvoker = async (event) => {
      const invocation: Invocation = await invokeFunction(event, options());
      if (invocation.ok) return { ok: true, result: invocation.result };
      if (invocation.throttled) throttled++;
      return { ok: false, error: invocation.errorType, cause: invocation.errorMessage };
    };
    // A pool of 2 under a map 6 wide: most range invocations find it full, many more than twice.
    pool(2);
    const summary = await runLargeFileJob(job, {
      client: s3.client,
      invoke,
      maxConcurrency: 6,
      retryIntervalSeconds: 0.01,
    });
    expect(summary.error).toBeUndefined();
    expect(summary).toMatchObject({ status: 'SUCCEEDED', ranges: 12 });
    expect(throttled).toBeGreaterThan(ranges.length);
  });
});

describe('an upload routed through SQS (s3Events=sqs)', () => {
  it("survives throttled receives up to the template's maxReceiveCount less one, and is served when the pool frees", async () => {
    const template = synth({ s3Events: 'sqs' }).template;
    const [queue] = Object.values(template.findResources('AWS::SQS::Queue')).filter(
      (q) => (q as { Properties: { RedrivePolicy?: unknown } }).Properties.RedrivePolicy,
    ) as { Properties: { RedrivePolicy: { maxReceiveCount: number } } }[];
    const { maxReceiveCount } = queue!.Properties.RedrivePolicy;
    pool(1);
    const g = gate();
    const holder = invokeFunction({ release: g.path }, options());
    // Each receive invokes the function; a throttled one leaves the message in the queue, its
    // receive count one higher (SQS counts receives, not successes), until it reaches the redrive.
    let receives = 0;
    let outcome: Invocation | undefined;
    while (receives < maxReceiveCount) {
      receives++;
      // The pool frees after four throttled receives: what a busy hour could do.
      if (receives === 5) {
        g.open();
        await holder;
      }
      outcome = await invokeFunction({}, options());
      if (outcome.ok) break;
      expect(outcome).toMatchObject({ throttled: true });
    }
    expect(outcome).toMatchObject({ ok: true });
    // Served on the fifth receive, after four throttled ones: within the redrive, not dead-lettered.
    expect(receives).toBe(5);
    if (!existsSync(g.path)) g.open();
    await holder;
  });
});
