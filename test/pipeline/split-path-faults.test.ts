// The split path under faults, through the twin: uploads delivered as S3 events to the files
// function's code, the real large-file starter starting the twin's Step Functions (execution names
// and all), each step run in this process with the files function's role, and every S3 call of the
// function through a proxy that answers 503 SlowDown, resets connections (before an answer and
// mid-body) and stalls. Each run must end consistent: the newest version's answer and report, or a
// report saying why, and nothing left in staging/. Faults come from a seeded generator, so a run's
// fault pattern varies only with the order the concurrent calls reach the proxy.
import {
  type S3Client,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LargeFileEvent } from '../../functions/contract/large-files.js';
import { SOURCE_ETAG_METADATA } from '../../functions/contract/service-layout.js';
import { localCredentials } from '../../twin/iam/local-account.js';
import type { StepInvoker } from '../../twin/stepfunctions/large-file-run.js';
import {
  type LocalStepFunctions,
  startStackStepFunctions,
  useLocalStepFunctions,
} from '../../twin/stepfunctions/step-functions-server.js';
import {
  type createS3Client,
  processObject,
  RANGE_BYTES_ENV,
  type S3RetrySettings,
} from '../../functions/pipeline/index.js';
import { handleS3Event } from '../../functions/s3/index.js';
import { inProcessSteps } from '../helpers/large-file-steps.js';
import { startTestS3, type TestS3 } from '../helpers/local-s3.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { type ProxiedRequest, type S3Proxy, startS3Proxy } from '../helpers/s3-proxy.js';
import { localS3Client } from '../../twin/s3/local-s3-client.js';
import { keepEnvironment } from '../helpers/environment.js';

/** The function's own retries, their waits shortened (the counts are the deployed ones). */
const FAST_RETRY: S3RetrySettings = { attempts: 8, baseDelayMs: 5, maxDelayMs: 40 };
/** A stalled call fails after this much silence (30 s deployed). */
const SOCKET_TIMEOUT_MS = 1_000;
const TIMEOUT_MS = 60_000;

const puzzles = readPuzzleSet('puzzles2_17_clue');
/**
 * The SDK's own retries as deployed (3 attempts of what it deems retryable), their waits cut from
 * up to 20 s to milliseconds: the test waits out fewer seconds, the faults still reach the code.
 */
const quickSdkRetries: NonNullable<Awaited<ReturnType<S3Client['config']['retryStrategy']>>> = {
  acquireInitialRetryToken: async () => ({ getRetryCount: () => 0, getRetryDelay: () => 0 }),
  refreshRetryTokenForRetry: async (token, info) => {
    const count = token.getRetryCount() + 1;
    if (count >= 3 || info.errorType === 'CLIENT_ERROR') throw new Error('no retry left');
    return { getRetryCount: () => count, getRetryDelay: () => 5 * count };
  },
  recordSuccess: () => undefined,
};
const SLOW_DOWN = { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' };

let s3: TestS3;
let proxy: S3Proxy;
let sfn: LocalStepFunctions;
let files: ReturnType<typeof createS3Client>;
let restoreEnvironment: (() => void) | undefined;
/** Every step of every execution, in order: which file, which step. */
const steps: { sourceKey: string; eTag: string; step: LargeFileEvent['largeFile'] }[] = [];
/** Called before each step runs (a test holds a step there). */
let beforeStep: (event: LargeFileEvent) => Promise<void> = async () => undefined;

beforeAll(async () => {
  s3 = await startTestS3();
  proxy = await startS3Proxy(s3.server.endpoint);
  files = localS3Client(proxy.endpoint, 'files', { socketTimeoutMs: SOCKET_TIMEOUT_MS });
  files.config.retryStrategy = async () => quickSdkRetries;
  const inProcess = inProcessSteps(() => files, { s3Retry: FAST_RETRY });
  const invoke: StepInvoker = async (event) => {
    steps.push({ sourceKey: event.job.sourceKey, eTag: event.job.eTag, step: event.largeFile });
    await beforeStep(event);
    return inProcess(event);
  };
  sfn = await startStackStepFunctions(s3.server.endpoint, s3.bucket, TIMEOUT_MS, {
    invoke,
    retryIntervalSeconds: 0,
    maxConcurrency: 4,
  });
  restoreEnvironment = keepEnvironment([
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_REGION',
    'SOLVER_THREADS',
    RANGE_BYTES_ENV,
  ]);
  const { accessKeyId, secretAccessKey } = localCredentials('files');
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_REGION: 'us-east-1',
  });
  process.env.SOLVER_THREADS = '1';
  useLocalStepFunctions(process.env, sfn, TIMEOUT_MS);
});
afterAll(async () => {
  restoreEnvironment?.();
  await sfn?.close();
  files?.destroy();
  await proxy?.close();
  await s3?.close();
});
beforeEach(() => {
  beforeStep = async () => undefined;
  calm();
});

/** A seeded generator (mulberry32): the same faults for the same order of calls. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Weather {
  seed: number;
  /** Share of requests answered 503 SlowDown. */
  slowDown: number;
  /** Share of requests whose connection is reset: half before any answer, half mid-body. */
  resets: number;
  /** Requests never answered (the connection left open), the first ones `stallsWhere` picks. */
  stalls: number;
  stallsWhere?: (request: ProxiedRequest) => boolean;
}

/** Faults from now on, on every call of the files function. */
function weather({ seed, slowDown, resets, stalls, stallsWhere = () => true }: Weather): void {
  const random = seeded(seed);
  proxy.failWhere(() => random() < slowDown && SLOW_DOWN);
  proxy.resetWhere(() => {
    const roll = random();
    if (roll >= resets) return false;
    return roll < resets / 2 ? true : 40 + Math.floor(random() * 400);
  });
  let stalled = 0;
  proxy.stallWhere((request) => {
    if (stalled >= stalls || !stallsWhere(request)) return false;
    stalled++;
    return true;
  });
}

function calm(): void {
  proxy.failWhere(undefined);
  proxy.resetWhere(undefined);
  proxy.stallWhere(undefined);
}

/** As Lambda delivers an S3 event to the files function: tried again, up to two more times, on failure. */
async function deliver(key: string): Promise<string> {
  const event = await s3.eventFor(key);
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const [result] = await handleS3Event(event, { client: files });
      return `${result?.status}${result && 'reason' in result ? `:${result.reason}` : ''}`;
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

async function bytes(key: string): Promise<Buffer | undefined> {
  try {
    const got = await s3.admin.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

async function stagingKeys(): Promise<string[]> {
  const listed = await s3.admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'staging/' }));
  return (listed.Contents ?? []).map((o) => o.Key!);
}

/**
 * The output of `body` solved fault-free in one invocation: what the split path writes, byte for
 * byte (test/pipeline/large-files-in-ranges.test.ts; a .gz's once inflated, its gzip members differ).
 */
async function cleanAnswer(name: string, body: string | Buffer): Promise<string> {
  const key = `incoming/clean/${name}`;
  await s3.put(key, body);
  const result = await processObject({
    client: s3.client,
    bucket: s3.bucket,
    sourceKey: key,
    outputKey: `solved/clean/${name}`,
    reportKey: `reports/clean/${name}.json`,
    ranges: { timeoutSeconds: 900, threads: 1 },
  });
  expect(result.status).toBe('processed');
  return (await answerOf(`solved/clean/${name}`))!;
}

/** An output's bytes as text (a .gz's inflated), as latin1 so any byte compares. */
async function answerOf(key: string): Promise<string | undefined> {
  const raw = await bytes(key);
  if (!raw) return undefined;
  return (key.endsWith('.gz') ? gunzipSync(raw) : raw).toString('latin1');
}

/**
 * The end every run must reach: the source's current version answered and reported, the output
 * byte for byte `expected`, its metadata and the report naming that version; staging/ empty.
 */
async function expectConsistent(key: string, expected: string): Promise<void> {
  const eTag = (await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }))).ETag!.replace(/"/g, '');
  const report = await s3.report(key);
  const outputKey = key.replace('incoming/', 'solved/');
  expect({ outcome: report.outcome, eTag: report.source.eTag, error: report.error }).toEqual({
    outcome: 'solved',
    eTag,
    error: undefined,
  });
  const output = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: outputKey }));
  expect(output.Metadata?.[SOURCE_ETAG_METADATA]).toBe(eTag);
  expect((await answerOf(outputKey)) === expected).toBe(true);
  expect(await stagingKeys()).toEqual([]);
}

/** `count` rows of 17-clue puzzles, as the format writes them. */
function fileOf(format: 'txt' | 'csv' | 'jsonl' | 'txt.gz', count: number, offset = 0): string | Buffer {
  const rows = Array.from({ length: count }, (_, i) => puzzles[(offset + i) % puzzles.length]!);
  if (format === 'csv') return `id,puzzle\n${rows.map((p, i) => `r${i},${p}`).join('\n')}\n`;
  if (format === 'jsonl') return `${rows.map((p) => JSON.stringify({ board: p })).join('\n')}\n`;
  const text = `${rows.join('\n')}\n`;
  return format === 'txt.gz' ? gzipSync(text) : text;
}

/** A Complete of the output's multipart upload (a POST with an uploadId) for `key`. */
const completes = (key: string) => (r: ProxiedRequest) =>
  r.method === 'POST' && r.url.includes('uploadId=') && decodeURIComponent(r.url).includes(`/solved/${key}`);

describe('an upload while the finish of the version before it completes its output', () => {
  const body = (offset: number) => fileOf('txt', 2_000, offset);
  beforeAll(() => {
    process.env[RANGE_BYTES_ENV] = '8200';
  });

  it.each([
    { withdrawal: 'removes its output', refuseDeletes: false },
    { withdrawal: 'cannot remove its output, so the newer run lands over it', refuseDeletes: true },
  ])('ends with the newer version answered and reported: the superseded run $withdrawal', async ({ refuseDeletes }) => {
    const name = `complete-held-${refuseDeletes ? 'refused' : 'removed'}.txt`;
    const key = `incoming/race/${name}`;
    const expected = await cleanAnswer(`b-${name}`, body(5_000));
    await s3.put(key, body(0));
    // A's Complete is held at the proxy, after A's finish checked the source.
    const held = proxy.hold(completes(`race/${name}`));
    if (refuseDeletes)
      proxy.failWhere((r) => r.method === 'DELETE' && decodeURIComponent(r.url).includes(`/solved/race/`));
    expect(await deliver(key)).toBe('skipped:handed-over');
    await held.arrived;
    // B is uploaded and handed over (its job sees no output yet); its finish waits until A's run ended.
    const bETag = (await s3.put(key, body(5_000))).replace(/"/g, '');
    let aEnded!: () => void;
    const aDone = new Promise<void>((resolve) => {
      aEnded = resolve;
    });
    beforeStep = async (event) => {
      if (event.largeFile !== 'range' && event.job.eTag === bETag) await aDone;
    };
    expect(await deliver(key)).toBe('skipped:handed-over');
    held.release();
    const aExecution = [...sfn.executions.values()].find((e) => !e.input.includes(bETag) && e.input.includes(key))!;
    const aSummary = await aExecution.done;
    aEnded();
    await sfn.idle();
    expect(aSummary.finish).toEqual({ outcome: 'superseded' });
    await expectConsistent(key, expected);
  });
});

describe('the finish of a file of a few hundred ranges under faults', () => {
  it('ends solved and reported, byte for byte the fault-free output, under 20% 503 SlowDown, resets and a stall', async () => {
    process.env[RANGE_BYTES_ENV] = '8200';
    const body = fileOf('txt', 20_000);
    const expected = await cleanAnswer('many-ranges.txt', body);
    const key = 'incoming/weather/many-ranges.txt';
    await s3.put(key, body);
    expect(await deliver(key)).toBe('skipped:handed-over');
    const from = steps.length;
    // The ranges are solved in calm weather; faults start with the finish, whose calls they test.
    let faults = false;
    beforeStep = async (event) => {
      if (event.largeFile === 'finish' && !faults) {
        faults = true;
        weather({
          seed: 36,
          slowDown: 0.2,
          resets: 0.03,
          stalls: 1,
          stallsWhere: (r) => r.method === 'GET' && r.url.includes('/staging/'),
        });
      }
    };
    await sfn.idle();
    calm();
    const run = steps.slice(from).filter((s) => s.sourceKey === key);
    expect(run.filter((s) => s.step === 'range').length).toBeGreaterThanOrEqual(200);
    // One finish invocation: its calls were retried on their own, the step never failed.
    expect(run.filter((s) => s.step !== 'range').map((s) => s.step)).toEqual(['finish']);
    await expectConsistent(key, expected);
  }, 120_000);
});

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

/** The execution of the job for `eTag` of `key` (the twin's Step Functions keeps each by name). */
function executionOf(key: string, eTag: string) {
  const bare = eTag.replace(/"/g, '');
  return [...sfn.executions.values()].find((e) => e.input.includes(`"eTag":"${bare}"`) && e.input.includes(key));
}

describe('overwrites of a split file at every step, under 20% 503s, resets and stalls', () => {
  /** Where the older version's run is when the newer version is uploaded. */
  const points = ['during the ranges', 'during the finish', 'as the output completes'] as const;
  const formats = ['txt', 'csv', 'jsonl', 'txt.gz'] as const;
  const cases = formats.flatMap((format, f) => points.map((point, p) => ({ format, point, seed: 100 + f * 10 + p })));

  it.each(cases)(
    'a .$format overwritten $point ends with the newest version answered and reported',
    async ({ format, point, seed }) => {
      process.env[RANGE_BYTES_ENV] = '4100';
      const name = `${point.replace(/ /g, '-')}.${format}`;
      const key = `incoming/overwrites/${name}`;
      // 800 rows: 16-26 ranges of 4,100 bytes, so the older run is still in its ranges at the 10th.
      const older = fileOf(format, 800, 0);
      const newer = fileOf(format, 800, 7_000);
      const expected = await cleanAnswer(`overwrites-${name}`, newer);
      weather({ seed, slowDown: 0.2, resets: 0.02, stalls: 1, stallsWhere: (r) => r.url.includes('/staging/') });

      const reached = signal();
      const go = signal();
      const olderETag = await s3.put(key, older);
      const bare = olderETag.replace(/"/g, '');
      let ranges = 0;
      let held: ReturnType<S3Proxy['hold']> | undefined;
      if (point === 'as the output completes') held = proxy.hold(completes(`overwrites/${name}`));
      beforeStep = async (event) => {
        if (event.job.eTag !== bare) return;
        const at =
          (point === 'during the ranges' && event.largeFile === 'range' && ++ranges === 10) ||
          (point === 'during the finish' && event.largeFile === 'finish');
        if (!at) return;
        reached.fire();
        await go.promise;
      };
      expect(await deliver(key)).toBe('skipped:handed-over');
      await (held ? held.arrived : reached.promise);
      await s3.put(key, newer);
      expect(await deliver(key)).toBe('skipped:handed-over');
      go.fire();
      held?.release();
      await sfn.idle();
      calm();
      expect(executionOf(key, olderETag)?.summary?.finish?.outcome ?? 'failed: superseded').not.toBe('solved');
      await expectConsistent(key, expected);
    },
    120_000,
  );
});

describe('a version put back, or deleted and uploaded again, while it is solved in ranges', () => {
  // The older run is superseded and writes no report; the version's new event must start the
  // version's next attempt (file-<version>-<attempt>), not find the ended run's name taken.
  const sequences = [
    { name: 'A, B, A', between: async (key: string) => void (await s3.put(key, fileOf('txt', 800, 7_000))) },
    {
      name: 'A, delete, A',
      between: async (key: string) =>
        void (await s3.admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }))),
    },
  ];
  it.each(sequences)(
    '$name ends with A answered and reported',
    async ({ name, between }) => {
      process.env[RANGE_BYTES_ENV] = '4100';
      const key = `incoming/put-back/${name.replace(/[^A-Za-z]+/g, '-')}.txt`;
      // 800 rows: 16 ranges, so A's first run is held in its ranges (at the 5th).
      const a = fileOf('txt', 800, 0);
      const expected = await cleanAnswer(`put-back-${name.replace(/[^A-Za-z]+/g, '-')}.txt`, a);
      const aETag = await s3.put(key, a);
      const reached = signal();
      const go = signal();
      let ranges = 0;
      beforeStep = async (event) => {
        if (event.job.eTag !== aETag.replace(/"/g, '') || event.largeFile !== 'range' || ++ranges !== 5) return;
        reached.fire();
        await go.promise;
      };
      expect(await deliver(key)).toBe('skipped:handed-over');
      await reached.promise;
      await between(key);
      if (name === 'A, B, A') expect(await deliver(key)).toBe('skipped:handed-over');
      go.fire();
      // The first run of A ends (superseded) before A is uploaded again.
      await executionOf(key, aETag)!.done;
      beforeStep = async () => undefined;
      await s3.put(key, a);
      await deliver(key);
      await sfn.idle();
      await expectConsistent(key, expected);
    },
    120_000,
  );
});
