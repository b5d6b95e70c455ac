import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Event } from '../../twin/s3/s3-event.js';
import { processObject } from '../../functions/pipeline/index.js';
import { outputKeysFor, prefixes } from '../../functions/contract/service-layout.js';
import { handleS3Event } from '../../functions/s3/index.js';
import { DUPLICATE as CONTRADICTORY, EASY, EASY_SOLUTION, MULTIPLE, NO_SOLUTION } from '../helpers/boards.js';
import { startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

describe('handleS3Event', () => {
  it('reports each malformed row with its line, code and message, and still solves every other row', async () => {
    const key = 'incoming/mixed.txt';
    await s3.put(
      key,
      `${[EASY, 'garbage', '', CONTRADICTORY, NO_SOLUTION, MULTIPLE, EASY.slice(1), EASY].join('\n')}\n`,
    );
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    const out = (await s3.text('solved/mixed.txt'))!.split('\n');
    expect(out[0]).toBe(EASY_SOLUTION);
    expect(out[2]).toBe('');
    expect(out[7]).toBe(EASY_SOLUTION);
    const report = await s3.report(key);
    expect(report.counts).toEqual({
      rows: 7,
      blank: 1,
      solved: 3,
      unique: 2,
      multiple: 1,
      noSolution: 1,
      contradictory: 1,
      malformed: 2,
    });
    expect(report.failuresTotal).toBe(4);
    expect(report.failures).toEqual([
      expect.objectContaining({ line: 2, status: 'malformed', code: 'BAD_CHARACTER', row: 1, col: 1 }),
      expect.objectContaining({
        line: 4,
        status: 'contradictory',
        code: 'DUPLICATE_IN_ROW',
        cells: [
          { row: 1, col: 1 },
          { row: 1, col: 2 },
        ],
      }),
      expect.objectContaining({ line: 5, status: 'no-solution', code: 'NO_SOLUTION' }),
      expect.objectContaining({ line: 7, status: 'malformed', code: 'WRONG_LENGTH' }),
    ]);
    for (const f of report.failures) expect(f.message.length).toBeGreaterThan(10);
  });

  it('caps the failures listed in the report but counts them all', async () => {
    const key = 'incoming/many-bad.txt';
    await s3.put(key, 'x\n'.repeat(250));
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    const report = await s3.report(key);
    expect(report.failures).toHaveLength(100);
    expect(report.failuresTotal).toBe(250);
    expect(report.counts.malformed).toBe(250);
  });

  it("decodes URL-encoded keys: spaces sent as '+', a literal '+', and non-ASCII letters", async () => {
    const key = 'incoming/dossier été/grille+1 Ünïcode ß.txt';
    await s3.put(key, `${EASY}\n`);
    const event = await s3.eventFor(key);
    expect(event.Records[0]!.s3.object.key).toBe(
      'incoming/dossier+%C3%A9t%C3%A9/grille%2B1+%C3%9Cn%C3%AFcode+%C3%9F.txt',
    );
    await handleS3Event(event, { client: s3.client });
    expect(await s3.text('solved/dossier été/grille+1 Ünïcode ß.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect((await s3.report(key)).source.key).toBe(key);
  });

  it('solves a file whose key is 1,024 bytes, its report under long-keys/ naming the key, and skips a duplicate', async () => {
    const key = `incoming/long/${'k'.repeat(1024 - 'incoming/long/'.length - '.txt'.length)}.txt`;
    expect(Buffer.byteLength(key)).toBe(1024);
    await s3.put(key, `${EASY}\n`);
    const [first] = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(first).toMatchObject({ status: 'processed', report: { outcome: 'solved', source: { key } } });
    expect(await s3.text(`solved/${key.slice('incoming/'.length)}`)).toBe(`${EASY_SOLUTION}\n`);
    const reportKey = outputKeysFor(key, prefixes.incoming)!.reportKey;
    expect(reportKey).toMatch(/^long-keys\/[0-9a-f]{64}\.json$/);
    expect(JSON.parse((await s3.text(reportKey))!)).toMatchObject({ source: { key }, outcome: 'solved' });
    const [again] = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(again).toMatchObject({ status: 'skipped', reason: 'already-solved' });
  });

  it('does no work for a duplicate delivery of the same event (idempotent by source ETag)', async () => {
    const key = 'incoming/dup.txt';
    await s3.put(key, `${EASY}\n`);
    const event = await s3.eventFor(key);
    const first = await handleS3Event(event, { client: s3.client });
    const headOut = () => s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'solved/dup.txt' }));
    const before = await headOut();
    const second = await handleS3Event(event, { client: s3.client });
    expect(first[0]).toMatchObject({ status: 'processed' });
    expect(second).toEqual([
      { status: 'skipped', reason: 'already-solved', sourceKey: key, eTag: before.Metadata!['source-etag'] },
    ]);
    const after = await headOut();
    expect(after.LastModified).toEqual(before.LastModified);
    expect(after.ETag).toBe(before.ETag);
  });

  it('solves again when the source is replaced by a new version (new ETag)', async () => {
    const key = 'incoming/replaced.txt';
    await s3.put(key, `${EASY}\n`);
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    await s3.put(key, `${EASY}\n${EASY}\n`);
    const again = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(again[0]).toMatchObject({ status: 'processed' });
    expect(await s3.text('solved/replaced.txt')).toBe(`${EASY_SOLUTION}\n${EASY_SOLUTION}\n`);
  });

  it('writes a report and no output for an unknown extension', async () => {
    const key = 'incoming/sheet.xlsx';
    await s3.put(key, 'whatever');
    const results = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(results[0]).toMatchObject({ status: 'processed', report: { outcome: 'rejected' } });
    expect(await s3.exists('solved/sheet.xlsx')).toBe(false);
    const report = await s3.report(key);
    expect(report).toMatchObject({
      outcome: 'rejected',
      output: { written: false },
      error: { code: 'UNKNOWN_EXTENSION' },
    });
    expect(report.error!.message).toMatch(/\.txt, \.csv, \.jsonl or \.json/);
  });

  it('writes a report and no output for a CSV without a puzzle column, even with a big body', async () => {
    const key = 'incoming/nocolumn.csv';
    await s3.put(key, `a,b\n${'1,2\n'.repeat(10_000)}`);
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(await s3.exists('solved/nocolumn.csv')).toBe(false);
    expect(await s3.report(key)).toMatchObject({ outcome: 'rejected', error: { code: 'NO_PUZZLE_COLUMN', line: 1 } });
  });

  it("repeats at most a few hundred characters of a rejected CSV's 200 KB header in its report", async () => {
    const key = 'incoming/wide-header.csv';
    await s3.put(key, `${'h'.repeat(200_000)},b\n${EASY},1\n`);
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    const report = await s3.report(key);
    expect(report).toMatchObject({ outcome: 'rejected', error: { code: 'NO_PUZZLE_COLUMN', line: 1 } });
    expect(report.error!.message).toMatch(/h{200}\u2026 \(the header has 2 fields, 200,002 characters\)\.$/);
    expect(JSON.stringify(report).length).toBeLessThan(2_000);
  });

  it('writes a solved CSV whose echoed cells cannot run as spreadsheet formulas', async () => {
    const key = 'incoming/formulas.csv';
    await s3.put(key, `note,puzzle\n=1+2,${EASY}\n-3,${EASY}\n`);
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(await s3.text('solved/formulas.csv')).toBe(
      `note,puzzle,solution,status,error\n"'=1+2",${EASY},${EASY_SOLUTION},unique,\n"'-3",${EASY},${EASY_SOLUTION},unique,\n`,
    );
  });

  it('writes a report and no output for a .gz file that is not gzip', async () => {
    const key = 'incoming/fake.txt.gz';
    await s3.put(key, `${EASY}\n`);
    await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(await s3.exists('solved/fake.txt.gz')).toBe(false);
    expect(await s3.report(key)).toMatchObject({ outcome: 'rejected', error: { code: 'BAD_GZIP' } });
  });

  it('ignores a folder marker (a key ending in /) under incoming/', async () => {
    const event = s3Event({
      bucket: s3.bucket,
      key: 'incoming/folder/',
      size: 0,
      eTag: 'd41d8cd98f00b204e9800998ecf8427e',
    });
    expect(await handleS3Event(event, { client: s3.client })).toEqual([
      { status: 'ignored', reason: 'folder', sourceKey: 'incoming/folder/' },
    ]);
  });

  it('ignores keys outside incoming/ (so its own outputs never retrigger it) and non-create events', async () => {
    await s3.put('solved/elsewhere.txt', `${EASY}\n`);
    const event = await s3.eventFor('solved/elsewhere.txt');
    const removed = s3Event({ bucket: s3.bucket, key: 'incoming/x.txt', size: 0, eTag: 'x' });
    removed.Records[0]!.eventName = 'ObjectRemoved:Delete';
    const results = await handleS3Event({ Records: [...event.Records, ...removed.Records] }, { client: s3.client });
    expect(results).toEqual([
      { status: 'ignored', reason: 'outside-prefix', sourceKey: 'solved/elsewhere.txt' },
      { status: 'ignored', reason: 'not-object-created', sourceKey: 'incoming/x.txt' },
    ]);
    expect(await s3.exists('reports/elsewhere.txt.json')).toBe(false);
  });

  it('handles two records in one event, each into its own output', async () => {
    await s3.put('incoming/two/a.txt', `${EASY}\n`);
    await s3.put('incoming/two/b.jsonl', `${JSON.stringify(EASY)}\n`);
    const a = await s3.eventFor('incoming/two/a.txt');
    const b = await s3.eventFor('incoming/two/b.jsonl');
    const results = await handleS3Event({ Records: [...a.Records, ...b.Records] }, { client: s3.client });
    expect(results.map((r) => r.status)).toEqual(['processed', 'processed']);
    expect(await s3.text('solved/two/a.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(JSON.parse((await s3.text('solved/two/b.jsonl'))!)).toEqual({ status: 'unique', solution: EASY_SOLUTION });
  });

  it('skips, without failing, an event for an object deleted since', async () => {
    const results = await handleS3Event(
      s3Event({ bucket: s3.bucket, key: 'incoming/gone.txt', size: 1, eTag: 'abc' }),
      { client: s3.client },
    );
    expect(results).toEqual([{ status: 'skipped', reason: 'source-missing', sourceKey: 'incoming/gone.txt' }]);
  });
});

describe('processObject', () => {
  it('is callable by any adapter with its own keys (as the batch does)', async () => {
    await s3.put('batch/job/1.txt', `${EASY}\n`);
    const result = await processObject({
      client: s3.client,
      bucket: s3.bucket,
      sourceKey: 'batch/job/1.txt',
      outputKey: 'solved/batch/1.txt',
      reportKey: 'reports/batch/1.txt.json',
    });
    expect(result).toMatchObject({ status: 'processed', report: { counts: { solved: 1 } } });
    expect(await s3.text('solved/batch/1.txt')).toBe(`${EASY_SOLUTION}\n`);
  });
});
