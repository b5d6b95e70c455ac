import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_OBJECTS, seedSamples } from '../../../twin/s3/s3-samples.js';
import { decodeEventKey, isS3Event } from '../../../functions/s3/index.js';
import { startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const eventsDir = path.join(root, 'events');
const files = readdirSync(eventsDir)
  .filter((name) => /^s3-.*\.json$/.test(name))
  .sort();
const read = (name: string) => JSON.parse(readFileSync(path.join(eventsDir, name), 'utf8')) as unknown;

describe('events/s3-*.json', () => {
  it('has a put, a multipart upload, a key with spaces and +, and two records in one event', () => {
    expect(files).toEqual([
      's3-key-with-spaces-and-plus.json',
      's3-multipart.json',
      's3-put.json',
      's3-two-records.json',
    ]);
  });

  it.each(files)(
    '%s is an S3 event as AWS delivers it, naming sample objects that npm start puts in the bucket',
    (name) => {
      const event = read(name);
      expect(isS3Event(event)).toBe(true);
      if (!isS3Event(event)) return;
      for (const record of event.Records) {
        expect(record).toMatchObject({
          eventVersion: '2.1',
          eventSource: 'aws:s3',
          s3: { s3SchemaVersion: '1.0', bucket: { name: 'sudoku-local' } },
        });
        expect(record.eventName).toMatch(/^ObjectCreated:(Put|CompleteMultipartUpload)$/);
        expect(Object.keys(SAMPLE_OBJECTS)).toContain(decodeEventKey(record.s3.object.key));
        expect(record.s3.object.sequencer).toMatch(/^[0-9A-F]+$/);
      }
    },
  );

  it("encodes the key with spaces and '+' as AWS does", () => {
    const event = read('s3-key-with-spaces-and-plus.json') as { Records: { s3: { object: { key: string } } }[] };
    expect(event.Records[0]!.s3.object.key).toBe('incoming/samples/my+puzzles%2Bmore.jsonl');
  });
});

describe('npm run invoke with the S3 samples', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3({ bucket: 'sudoku-local' });
    await seedSamples(s3.admin, s3.bucket);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('solves every sample through the handler against the local S3 server, then skips them on a second delivery', () => {
    // The second run sets only S3_PORT: by default invoke talks to the local server on 127.0.0.1.
    const endpoints = [
      { S3_ENDPOINT: s3.server.endpoint },
      { S3_ENDPOINT: '', S3_PORT: new URL(s3.server.endpoint).port },
    ];
    const invoke = () =>
      spawnSync(
        path.join(root, 'node_modules', '.bin', 'tsx'),
        ['twin/commands/invoke.ts', ...files.map((f) => `events/${f}`)],
        {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, ...endpoints.shift(), POWERTOOLS_LOG_LEVEL: 'SILENT' },
        },
      );
    const statuses = (stdout: string) =>
      stdout
        .split(/\n(?=\[)/)
        .flatMap((chunk) => JSON.parse(chunk) as { status: string }[])
        .map((r) => r.status);
    const first = invoke();
    expect(first.status, first.stderr).toBe(0);
    expect(statuses(first.stdout)).toEqual(['processed', 'processed', 'processed', 'processed', 'processed']);
    const second = invoke();
    expect(second.status, second.stderr).toBe(0);
    expect(statuses(second.stdout)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
  });
});
