// S3 keys are opaque strings: `..`, `.` and empty segments name objects like any other text. The
// local S3 stores objects as files named after key segments, so such a key must neither land
// outside its data folder nor at another key's file (where IAM, which decides on the literal key,
// would have let a caller write through a prefix it may not write).
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf, startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

async function listAll(prefix = ''): Promise<string[]> {
  const page = await s3.admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key!);
}

describe('the local S3 with keys that look like paths', () => {
  it('keeps an object whose key climbs with .. inside its data folder, under its own key', async () => {
    const name = `sudoku-s3-escape-${process.pid}-${Date.now()}`;
    const key = `../../${name}`;
    // Where a key taken as a path would land: two folders above the bucket's, beside the data folder.
    const escaped = path.resolve(s3.server.directory, s3.bucket, '..', '..', `${name}._S3rver_object`);
    expect(path.dirname(escaped)).toBe(path.dirname(s3.server.directory));
    try {
      expect(
        await outcomeOf(s3.admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'climbed' }))),
      ).toEqual({
        status: 200,
        code: 'OK',
      });
      expect(existsSync(escaped)).toBe(false);
      expect(await s3.text(key)).toBe('climbed');
      expect(await listAll('../')).toEqual([key]);
    } finally {
      rmSync(escaped, { force: true });
      rmSync(escaped.replace(/_object$/, '_metadata.json'), { force: true });
      rmSync(`${escaped}.md5`, { force: true });
    }
  });

  it('stores a key with .. in it at that key, not at the key it resolves to as a path', async () => {
    // The files role may write solved/ but not incoming/: IAM decides on the literal key.
    const key = 'solved/../incoming/through-dots.txt';
    expect(
      await outcomeOf(s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'dots' }))),
    ).toEqual({
      status: 200,
      code: 'OK',
    });
    expect(await s3.text('incoming/through-dots.txt')).toBeUndefined();
    expect(await s3.text(key)).toBe('dots');
    expect(await listAll('solved/')).toContain(key);
    expect(await listAll('incoming/')).not.toContain('incoming/through-dots.txt');
  });

  it('tells apart keys that differ only by . and .. segments', async () => {
    const keys = ['dots/a/b.txt', 'dots/a/./b.txt', 'dots/./a/../a/b.txt', 'dots/a/b.txt/', 'dots/a/..', 'dots/a/.'];
    for (const key of keys) await s3.put(key, `body of ${key}`);
    for (const key of keys) expect(await s3.text(key)).toBe(`body of ${key}`);
    expect((await listAll('dots/')).sort()).toEqual([...keys].sort());
    for (const key of keys) await s3.admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(await listAll('dots/')).toEqual([]);
  });
});
