// Where each source answers, through the twin's local S3 (every call decided by the stack's IAM
// policies) and the real entry point: no two sources meet at one output or report key.
import { createHash } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResult } from '../../functions/batch/index.js';
import {
  REPORT_OUTCOME_METADATA,
  SOURCE_ETAG_METADATA,
  SOURCE_KEY_METADATA,
} from '../../functions/contract/service-layout.js';
import { handler } from '../../functions/handler/index.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { handleS3Event } from '../../functions/s3/index.js';
import { batchEventFor } from '../batch/factories.js';
import { EASY, EASY_SOLUTION, HARD, HARD_SOLUTION } from '../helpers/boards.js';
import { startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { useFunctionEnvironment } from '../../twin/lambda/function-environment.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
  // The entry point's own S3 client talks to this server as the files function's role.
  useFunctionEnvironment(process.env, s3.server.endpoint);
  process.env.BUCKET = s3.bucket;
});
afterAll(async () => {
  await s3?.close();
});

const invoke = (event: unknown) => handler(event, createLambdaContext());
const uploaded = async (key: string) => invoke(await s3.eventFor(key));

describe('incoming/x and batch/x', () => {
  it('both end solved, each with its own answer and report, and neither run overwrites the other', async () => {
    await s3.put('incoming/same/x.txt', `${EASY}\n`);
    await s3.put('batch/same/x.txt', `${HARD}\n${HARD}\n`);
    await uploaded('incoming/same/x.txt');
    const batch = (await invoke(await batchEventFor(s3, ['batch/same/x.txt']))) as MapResult;
    expect(batch.items).toEqual([expect.objectContaining({ status: 'solved', outputKey: 'batch-solved/same/x.txt' })]);
    // The sweep of incoming/ after the batch run: the incoming file is still answered, so it is skipped.
    const sweep = (await invoke(await batchEventFor(s3, ['incoming/same/x.txt'], 'sweep'))) as MapResult;
    expect(sweep.items).toEqual([expect.objectContaining({ status: 'skipped', reason: 'already-solved' })]);

    expect(await s3.text('solved/same/x.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await s3.text('batch-solved/same/x.txt')).toBe(`${HARD_SOLUTION}\n${HARD_SOLUTION}\n`);
    expect((await s3.report('incoming/same/x.txt')).source.key).toBe('incoming/same/x.txt');
    expect((await s3.report('batch/same/x.txt')).source.key).toBe('batch/same/x.txt');
    expect(s3.denials).toEqual([]);
  });
});

describe('an upload under incoming/runs/', () => {
  it('is solved with its report under reports/runs/, which no batch run writes (the files role may write it)', async () => {
    await s3.put('incoming/runs/x.txt', `${EASY}\n`);
    await uploaded('incoming/runs/x.txt');
    expect(await s3.text('solved/runs/x.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect((await s3.report('incoming/runs/x.txt')).outcome).toBe('solved');
    expect(s3.denials).toEqual([]);
  });
});

describe('a long key', () => {
  // incoming/ + path + 4 bytes passes 1,024: the report goes under long-keys/.
  const longKey = `incoming/long/${'k'.repeat(1024 - 'incoming/long/'.length - '.txt'.length)}.txt`;
  const longKeyReport = `long-keys/${createHash('sha256').update(longKey).digest('hex')}.json`;

  it('is solved although an upload named like its report (same bytes) was answered first, each report naming its own source', async () => {
    const body = `${EASY}\n`;
    // Before the fix the long key reported at reports/long-keys/<sha256 of its path>.json, which
    // this upload also reaches; being rejected (no extension), it left a report of the same ETag
    // that made the long key's upload look already handled.
    const lookalike = `incoming/long-keys/${createHash('sha256')
      .update(longKey.slice('incoming/'.length))
      .digest('hex')}`;
    await s3.put(lookalike, body);
    await uploaded(lookalike);
    expect((await s3.report(lookalike)).outcome).toBe('rejected');

    await s3.put(longKey, body);
    await uploaded(longKey);
    expect(await s3.text(`solved/${longKey.slice('incoming/'.length)}`)).toBe(`${EASY_SOLUTION}\n`);
    expect(JSON.parse((await s3.text(longKeyReport))!)).toMatchObject({ source: { key: longKey }, outcome: 'solved' });
    expect((await s3.report(lookalike)).source.key).toBe(lookalike);
  });

  it("of 1,021 multi-byte bytes is solved and reported: the source-key metadata stays within S3's 2 KB", async () => {
    // URL-encoded, each é is 6 characters: the key alone would be ~3 KB of metadata.
    const key = `incoming/${'é'.repeat(504)}.txt`;
    expect(Buffer.byteLength(key)).toBeLessThanOrEqual(1024);
    await s3.put(key, `${EASY}\n`);
    await uploaded(key);
    expect(await s3.text(`solved/${key.slice('incoming/'.length)}`)).toBe(`${EASY_SOLUTION}\n`);
    expect((await s3.report(key)).source.key).toBe(key);
    const [again] = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(again).toMatchObject({ status: 'skipped', reason: 'already-solved' });
  });

  it("is solved although its report key holds a report of the same ETag that names another source (ownership is the source key's)", async () => {
    const key = 'incoming/owned/y.txt';
    const eTag = (await s3.put(key, `${EASY}\n`)).replace(/"/g, '');
    // A report that answers this ETag, as rejected, but for another source.
    await s3.admin.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: 'reports/owned/y.txt.json',
        Body: '{}',
        Metadata: {
          [SOURCE_ETAG_METADATA]: eTag,
          [SOURCE_KEY_METADATA]: encodeURIComponent('incoming/elsewhere/y.txt'),
          [REPORT_OUTCOME_METADATA]: 'rejected',
        },
      }),
    );
    const [result] = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(result).toMatchObject({ status: 'processed', report: { outcome: 'solved', source: { key } } });
    expect(await s3.text('solved/owned/y.txt')).toBe(`${EASY_SOLUTION}\n`);
  });
});
