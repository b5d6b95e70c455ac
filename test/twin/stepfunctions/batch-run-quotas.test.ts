// The twin's batch run under Step Functions' 256 KiB on a child's data: keys grouped by bytes as
// the stack's item batcher groups them (MaxInputBytesPerBatch), and a child whose result passes
// the quota failed with States.DataLimitExceeded, every file of it counted failed, as the map
// counts them. The function's side is answered in process (what it returns is all that is measured).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapEvent, MapItemResult, MapResult } from '../../../functions/batch/index.js';
import { SFN_MAX_STATE_BYTES } from '../../../functions/contract/aws-quotas.js';
import { MAX_ITEMS_PER_BATCH } from '../../../functions/contract/batch-limits.js';
import { dataBytes } from '../../../twin/stepfunctions/asl-data.js';
import { runBatchJob } from '../../../twin/stepfunctions/batch-run.js';
import { clientFor, startTestS3, type TestS3 } from '../../helpers/local-s3.js';

let s3: TestS3;
/** 260 files whose keys are 1,020 bytes: their ListObjectsV2 entries pass 256 KiB together. */
const keys = Array.from({ length: 260 }, (_, i) => `batch/long/${String(i).padStart(4, '0')}-${'k'.repeat(1000)}.txt`);
beforeAll(async () => {
  s3 = await startTestS3();
  for (let i = 0; i < keys.length; i += 20) await Promise.all(keys.slice(i, i + 20).map((key) => s3.put(key, '')));
});
afterAll(async () => {
  await s3?.close();
});

/** What the function answers for a batch: each file solved, its result naming its output and report keys. */
function solvedResult(event: MapEvent): MapResult {
  const items: MapItemResult[] = event.Items.map((item) => ({
    key: item.Key,
    status: 'solved',
    eTag: 'e'.repeat(32),
    outputKey: item.Key.replace('batch/', 'solved/'),
    reportKey: item.Key.replace('batch/', 'reports/'),
    puzzles: { rows: 1, solved: 1, failed: 0 },
    durationMs: 1,
  }));
  return {
    mode: 'batch',
    bucket: event.BatchInput.bucket,
    items,
    durationMs: 1,
    files: { solved: items.length, rejected: 0, skipped: 0, ignored: 0, failed: 0 },
    puzzles: { rows: items.length, solved: items.length, failed: 0 },
  };
}

const run = (itemsPerInvocation: number, invoke: (event: MapEvent) => Promise<MapResult>) => {
  const runClient = clientFor(s3.server.endpoint, 'run');
  return runBatchJob({
    client: s3.client,
    runClient,
    bucket: s3.bucket,
    mode: 'batch',
    prefix: 'long/',
    itemsPerInvocation,
    writeReport: false,
    retry: { intervalSeconds: 0.01 },
    invoke,
  }).finally(() => runClient.destroy());
};

describe('a batch run under the 256 KiB of a child', () => {
  it("groups keys by bytes as the item batcher's MaxInputBytesPerBatch does: no child's input passes 256 KiB", async () => {
    const inputs: number[] = [];
    const summary = await run(1000, async (event) => {
      inputs.push(dataBytes(event));
      return { ...solvedResult(event), items: [] };
    });
    expect(summary.listed).toBe(keys.length);
    expect(inputs.length).toBeGreaterThan(1);
    expect(Math.max(...inputs)).toBeLessThanOrEqual(SFN_MAX_STATE_BYTES);
  });

  it('fails every file of a child whose result passes 256 KiB with States.DataLimitExceeded, and none at the bound', async () => {
    const over = await run(100, async (event) => solvedResult(event));
    // 100 results naming three ~1 KB keys each: ~310 KB per child; the last child (60 files) fits.
    expect(over.files).toMatchObject({ failed: 200, solved: 60 });
    expect(over.failures[0]!.error.code).toBe('States.DataLimitExceeded');
    expect(over.invocations).toMatchObject({ failed: 2, retried: 0 });

    const within = await run(MAX_ITEMS_PER_BATCH, async (event) => solvedResult(event));
    expect(within.files).toMatchObject({ failed: 0, solved: keys.length });
  });
});
