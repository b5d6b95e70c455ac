import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { METRIC, outputKeysFor, prefixes } from '../../functions/contract/service-layout.js';
import { metrics } from '../../functions/observability/powertools.js';
import { processObject } from '../../functions/pipeline/index.js';
import { EASY } from '../helpers/boards.js';
import { clientFor, startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { startS3Proxy } from '../helpers/s3-proxy.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

/** The metrics one processObject call adds, by name. */
async function metricsOf(run: () => Promise<unknown>): Promise<Map<string, number>> {
  const added = new Map<string, number>();
  const spy = vi.spyOn(metrics, 'addMetric').mockImplementation((name: string, _unit, value: number) => {
    added.set(name, (added.get(name) ?? 0) + value);
    return undefined as never;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return added;
}

/** The source key under incoming/ and where its answer and report go, as the S3 adapter maps them. */
const keysOf = (path: string) => {
  const sourceKey = `${prefixes.incoming}${path}`;
  return { sourceKey, ...outputKeysFor(sourceKey, prefixes.incoming)! };
};

describe('the file metrics the dashboard shows', () => {
  it('count a file solved, a file rejected as not puzzles, and a file that failed for S3', async () => {
    await s3.put('incoming/metrics/good.txt', `${EASY}\n`);
    await s3.put('incoming/metrics/photo.jpg', 'not puzzles');
    const solved = await metricsOf(() =>
      processObject({ client: s3.client, bucket: s3.bucket, ...keysOf('metrics/good.txt') }),
    );
    expect(solved.get(METRIC.filesSolved)).toBe(1);
    expect(solved.get(METRIC.boardsSolved)).toBe(1);

    const rejected = await metricsOf(() =>
      processObject({ client: s3.client, bucket: s3.bucket, ...keysOf('metrics/photo.jpg') }),
    );
    expect(rejected.get(METRIC.filesRejected)).toBe(1);
    expect(rejected.has(METRIC.filesSolved)).toBe(false);

    // The source's GET is cut off mid-file: a transport failure, thrown so the event is retried.
    const body = `${EASY}\n`.repeat(20_000);
    await s3.put('incoming/metrics/cut.txt', body);
    const proxy = await startS3Proxy(s3.server.endpoint);
    proxy.cutGetAfter('incoming/metrics/cut.txt', 100_000);
    const client = clientFor(proxy.endpoint, 'files');
    let thrown: unknown;
    const failed = await metricsOf(() =>
      processObject({ client, bucket: s3.bucket, ...keysOf('metrics/cut.txt') }).catch((error: unknown) => {
        thrown = error;
      }),
    );
    client.destroy();
    await proxy.close();
    expect(thrown).toBeInstanceOf(Error);
    expect(failed.get(METRIC.filesFailed)).toBe(1);
    expect(failed.has(METRIC.filesSolved)).toBe(false);
  });
});
