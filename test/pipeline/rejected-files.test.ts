import '../s3/quiet-logs.js';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processObject } from '../../functions/pipeline/index.js';
import { handleS3Event } from '../../functions/s3/index.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { startTestS3 } from '../s3/local-s3.js';
import type { TestS3 } from '../s3/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

/**
 * `text` gzipped in stored (uncompressed) deflate blocks, with block `index` made invalid (its
 * length check flipped): gunzip reads the blocks before it, then fails with Z_DATA_ERROR, which
 * is the file's fault on every Node version (a cut-short file can also be a dropped connection).
 */
function gzipBrokenAfter(text: string, index: number): Buffer {
  const bytes = Buffer.from(gzipSync(text, { level: 0 }));
  let at = 10; // after the gzip header
  for (let block = 0; block < index; block++) {
    const length = bytes.readUInt16LE(at + 1);
    if ((bytes.readUInt16LE(at + 3) ^ 0xffff) !== length || bytes[at]! & 1) throw new Error('not a stored block');
    at += 5 + length;
  }
  bytes[at + 3]! ^= 0xff;
  return bytes;
}

const headOf = (key: string) => s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));

describe('a rejected file (no output, a report saying why)', () => {
  it('does no work on a duplicate event for the same ETag: the report is not rewritten', async () => {
    const key = 'incoming/photo.jpg';
    await s3.put(key, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
    const event = await s3.eventFor(key);
    const first = await handleS3Event(event, { client: s3.client });
    expect(first[0]).toMatchObject({ status: 'processed', report: { outcome: 'rejected' } });
    const before = await headOf('reports/photo.jpg.json');
    expect(before.Metadata).toMatchObject({ outcome: 'rejected' });
    const body = await s3.text('reports/photo.jpg.json');
    // A second later, so a rewrite would show in LastModified (whole seconds) as well as in the body.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await handleS3Event(event, { client: s3.client });
    expect(second).toEqual([
      { status: 'skipped', reason: 'already-rejected', sourceKey: key, eTag: before.Metadata!['source-etag'] },
    ]);
    const after = await headOf('reports/photo.jpg.json');
    expect(after.LastModified).toEqual(before.LastModified);
    expect(await s3.text('reports/photo.jpg.json')).toBe(body);
    expect(await s3.exists('solved/photo.jpg')).toBe(false);
  });

  it('is processed again when forced, and when replaced by a new version that is a puzzle file', async () => {
    const key = 'incoming/sheet.csv';
    await s3.put(key, 'a,b\n1,2\n');
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    const forced = await processObject({
      client: s3.client,
      bucket: s3.bucket,
      sourceKey: key,
      outputKey: 'solved/sheet.csv',
      reportKey: 'reports/sheet.csv.json',
      force: true,
    });
    expect(forced).toMatchObject({ status: 'processed', report: { outcome: 'rejected' } });
    await s3.put(key, `puzzle\n${EASY}\n`);
    const again = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(again[0]).toMatchObject({ status: 'processed', report: { outcome: 'solved', counts: { solved: 1 } } });
    // The S3 path grades every unique row: the csv gains level and score columns.
    expect(await s3.text('solved/sheet.csv')).toBe(
      `puzzle,solution,status,error,level,score\n${EASY},${EASY_SOLUTION},unique,,easy,1.2\n`,
    );
  });

  it('a solved file whose report is missing (an interrupted run) is solved again, not taken as done', async () => {
    const key = 'incoming/interrupted.txt';
    await s3.put(key, `${EASY}\n`);
    const event = await s3.eventFor(key);
    await handleS3Event(event, { client: s3.client });
    await s3.admin.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: 'reports/interrupted.txt.json',
        Body: 'stale',
        // A report for another version: the output alone answers this one.
        Metadata: { 'source-etag': 'another-version', outcome: 'solved' },
      }),
    );
    const again = await handleS3Event(event, { client: s3.client });
    expect(again[0]).toMatchObject({ status: 'processed', report: { outcome: 'solved' } });
  });
});

describe('the report of a rejected file', () => {
  it('counts no answer that was not written: a .gz broken mid-file reports 0 solved and how many rows were read before the error', async () => {
    const key = 'incoming/broken.txt.gz';
    // The rows before the break decode and are solved, but the output is never written.
    await s3.put(key, gzipBrokenAfter(`${EASY}\n`.repeat(20_000), 10));
    const [result] = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(result).toMatchObject({ status: 'processed' });
    expect(await s3.exists('solved/broken.txt.gz')).toBe(false);
    const report = await s3.report(key);
    expect(report).toMatchObject({
      outcome: 'rejected',
      output: { written: false },
      error: { code: 'BAD_GZIP' },
      counts: { rows: 0, solved: 0, unique: 0, multiple: 0, noSolution: 0, contradictory: 0, malformed: 0 },
      failures: [],
      failuresTotal: 0,
      puzzlesPerSecond: 0,
    });
    expect(report.counts.rowsReadBeforeError).toBeGreaterThan(1000);
    expect(report.counts.rowsReadBeforeError).toBeLessThan(20_000);
  });

  it('a solved file has no rowsReadBeforeError, and its counts are the rows answered', async () => {
    const key = 'incoming/whole.txt';
    await s3.put(key, `${EASY}\nbad\n`);
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    const report = await s3.report(key);
    expect(report.counts).toEqual({
      rows: 2,
      blank: 0,
      solved: 1,
      unique: 1,
      multiple: 0,
      noSolution: 0,
      contradictory: 0,
      malformed: 1,
    });
    expect((await headOf('reports/whole.txt.json')).Metadata).toMatchObject({ outcome: 'solved' });
  });
});
