// The file path under faults, against the real local S3 through a fault-injecting proxy: an
// overwrite of the source during a solve (in every order of the two runs' writes that matters), a
// body that stalls, an upload part that fails for good, and an abort that fails too. Each case
// checks that input, output and report stay consistent.
import { HeadObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputKeysFor, prefixes, SOURCE_ETAG_METADATA } from '../../functions/contract/service-layout.js';
import { processObject } from '../../functions/pipeline/index.js';
import type { ProcessObjectResult } from '../../functions/pipeline/index.js';
import { EASY, EASY_SOLUTION, HARD, HARD_SOLUTION } from '../helpers/boards.js';
import { startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { startS3Proxy } from '../helpers/s3-proxy.js';
import type { ProxiedRequest, S3Proxy } from '../helpers/s3-proxy.js';
import { localS3Client } from '../../twin/s3/local-s3-client.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

/** A files-function client through `proxy`, with the SDK's retries as given. */
function filesClient(proxy: S3Proxy, options: { maxAttempts?: number; socketTimeoutMs?: number } = {}) {
  const client = localS3Client(proxy.endpoint, 'files', {
    ...(options.socketTimeoutMs ? { socketTimeoutMs: options.socketTimeoutMs } : {}),
  });
  if (options.maxAttempts) client.config.maxAttempts = async () => options.maxAttempts!;
  return client;
}

function run(client: ReturnType<typeof filesClient>, sourceKey: string, partSize?: number) {
  const keys = outputKeysFor(sourceKey, prefixes.incoming)!;
  return processObject({ client, bucket: s3.bucket, sourceKey, ...keys, ...(partSize ? { partSize } : {}) });
}

/** As Lambda retries a failed asynchronous invocation: up to two more times. */
async function withRetries(attempt: () => Promise<ProcessObjectResult>): Promise<ProcessObjectResult | Error> {
  let last: unknown;
  for (let i = 0; i < 3; i++) {
    try {
      return await attempt();
    } catch (error) {
      last = error;
    }
  }
  return last as Error;
}

describe('an overwrite of the source while it is solved', () => {
  // The moments of a run's life at which the overwrite (and the other run) can come.
  const points: Record<string, (key: string) => (r: ProxiedRequest) => boolean> = {
    'reading the source': (key) => (r) => r.method === 'GET' && r.url.includes(`/${key}?`),
    'writing the output': (key) => (r) =>
      (r.method === 'PUT' || (r.method === 'POST' && r.url.includes('uploadId'))) &&
      r.url.includes(`/solved/${key.slice(prefixes.incoming.length)}`),
    'checking the source before the report': (key) => (r) =>
      r.method === 'HEAD' && r.url.includes(`/${key}`) && r.headers['if-match'] !== undefined,
    'writing the report': (key) => (r) =>
      r.method === 'PUT' && r.url.includes(`/reports/${key.slice(prefixes.incoming.length)}`),
  };
  const names = Object.keys(points);
  // The older run held at each point; meanwhile the source is replaced and the newer run either
  // runs to its end, or is itself held at each point while the older one finishes.
  const orders = names.flatMap((old) => [{ old, newer: 'to its end' }, ...names.map((newer) => ({ old, newer }))]);

  let proxyOld: S3Proxy;
  let proxyNew: S3Proxy;
  beforeAll(async () => {
    proxyOld = await startS3Proxy(s3.server.endpoint);
    proxyNew = await startS3Proxy(s3.server.endpoint);
  });
  afterAll(async () => {
    await Promise.all([proxyOld?.close(), proxyNew?.close()]);
  });

  it.each(orders.map((o, i) => ({ ...o, i })))(
    'ends with solved/ and the report answering the newest version: old run held at $old, new run $newer',
    async ({ old, newer, i }) => {
      const key = `incoming/overwrite/f${i}.txt`;
      const v1 = `${EASY}\n`.repeat(300);
      const v2 = `${HARD}\n${EASY}\n`;
      await s3.put(key, v1);
      const oldClient = filesClient(proxyOld);
      const newClient = filesClient(proxyNew);

      const holdOld = proxyOld.hold(points[old]!(key));
      const oldRun = withRetries(() => run(oldClient, key));
      await Promise.race([holdOld.arrived, oldRun]);
      const v2ETag = await s3.put(key, v2);

      let newRun: Promise<ProcessObjectResult | Error>;
      if (newer === 'to its end') {
        await withRetries(() => run(newClient, key));
        holdOld.release();
        await oldRun;
        newRun = Promise.resolve(new Error('done'));
      } else {
        const holdNew = proxyNew.hold(points[newer]!(key));
        newRun = withRetries(() => run(newClient, key));
        await Promise.race([holdNew.arrived, newRun]);
        holdOld.release();
        await oldRun;
        holdNew.release();
      }
      await newRun;
      oldClient.destroy();
      newClient.destroy();

      const bare = v2ETag.replace(/"/g, '');
      const output = await s3.admin.send(
        new HeadObjectCommand({ Bucket: s3.bucket, Key: key.replace('incoming/', 'solved/') }),
      );
      expect(output.Metadata?.[SOURCE_ETAG_METADATA]).toBe(bare);
      expect(await s3.text(key.replace('incoming/', 'solved/'))).toBe(`${HARD_SOLUTION}\n${EASY_SOLUTION}\n`);
      const report = await s3.report(key);
      expect(report.source.eTag).toBe(bare);
      expect(report.counts.rows).toBe(2);
    },
  );
});

describe('S3 faults mid-file', () => {
  let proxy: S3Proxy;
  beforeAll(async () => {
    proxy = await startS3Proxy(s3.server.endpoint);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('fails a GetObject whose body stalls with the connection open, within the socket timeout, writing nothing', async () => {
    const key = 'incoming/faults/stalled.txt';
    await s3.put(key, `${EASY}\n`.repeat(20_000));
    proxy.stallGetAfter('faults/stalled.txt', 100_000);
    const client = filesClient(proxy, { socketTimeoutMs: 1000 });
    await expect(run(client, key)).rejects.toMatchObject({ name: 'TimeoutError' });
    proxy.stallGetAfter('nothing-matches-this', 0);
    client.destroy();
    expect(await s3.exists('solved/faults/stalled.txt')).toBe(false);
    expect(await s3.exists('reports/faults/stalled.txt.json')).toBe(false);
  });

  const manyRows = `${EASY}\n`.repeat(160_000); // about 13 MB of answers: 3 parts of 5 MiB
  const partOf = (r: ProxiedRequest) => Number(new URL(r.url, 'http://x').searchParams.get('partNumber') ?? 0);

  it('throws the first cause when an upload part fails for good, stops solving at once, and aborts the upload', async () => {
    const key = 'incoming/faults/part2.txt';
    await s3.put(key, manyRows);
    const before = proxy.requests.length;
    proxy.failWhere((r) => r.method === 'PUT' && partOf(r) === 2);
    const client = filesClient(proxy, { maxAttempts: 1 });
    await expect(run(client, key, 5 * 1024 * 1024)).rejects.toMatchObject({ name: 'InternalError' });
    proxy.failWhere(undefined);
    client.destroy();
    const sent = proxy.requests.slice(before);
    // The solver stopped once part 2 failed: no part past the one already in flight.
    expect(Math.max(...sent.map(partOf))).toBeLessThanOrEqual(3);
    expect(sent.some((r) => r.method === 'DELETE' && r.url.includes('uploadId'))).toBe(true);
    const uploads = await s3.admin.send(
      new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'solved/faults/' }),
    );
    expect(uploads.Uploads ?? []).toEqual([]);
    expect(await s3.exists('solved/faults/part2.txt')).toBe(false);
    expect(await s3.exists('reports/faults/part2.txt.json')).toBe(false);
  });

  it('still throws the part failure, not the abort failure, when the abort fails too (SlowDown)', async () => {
    const key = 'incoming/faults/abort-fails.txt';
    await s3.put(key, manyRows);
    proxy.failWhere((r) =>
      r.method === 'DELETE' && r.url.includes('uploadId')
        ? { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' }
        : r.method === 'PUT' && partOf(r) === 2,
    );
    const client = filesClient(proxy, { maxAttempts: 1 });
    const failed = run(client, key, 5 * 1024 * 1024);
    await expect(failed).rejects.toMatchObject({ name: 'InternalError', $metadata: { httpStatusCode: 500 } });
    proxy.failWhere(undefined);
    client.destroy();
    // The abort did fail: the parts wait for the bucket's lifecycle rule; no output appeared.
    const uploads = await s3.admin.send(
      new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'solved/faults/abort' }),
    );
    expect(uploads.Uploads?.length).toBe(1);
    expect(await s3.exists('solved/faults/abort-fails.txt')).toBe(false);
  });

  it('is solved completely once S3 answers again (the retry)', async () => {
    const key = 'incoming/faults/part2.txt';
    const client = filesClient(proxy);
    const result = await run(client, key, 5 * 1024 * 1024);
    client.destroy();
    expect(result).toMatchObject({ status: 'processed', report: { counts: { rows: 160_000, solved: 160_000 } } });
    expect(await s3.text('solved/faults/part2.txt')).toBe(`${EASY_SOLUTION}\n`.repeat(160_000));
  });
});
