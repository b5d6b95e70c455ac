import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

/** Every key listed under `prefix`, page by page (one key a page, so continuation tokens carry long keys). */
async function listAll(prefix = '', pageSize = 1000): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.admin.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, MaxKeys: pageSize, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

const bytes = (key: string) => Buffer.byteLength(key);

// S3 allows keys of 1,024 bytes; the local server stores objects as files named after key segments.
const KEYS = {
  oneSegmentOf1019: `long/${'x'.repeat(1019)}`,
  segmentOf236: `long/${'m'.repeat(236)}`,
  longFolders: `long/${'é'.repeat(150)}/${'y'.repeat(300)}/z.txt`,
  likeAHashedName: 'long/~sha256-0000',
};

describe('the local S3 with long keys', () => {
  it('PUT, HEAD, GET, LIST (paged) and DELETE keys up to 1,024 bytes, and ListObjectsV2 keeps working', async () => {
    expect(bytes(KEYS.oneSegmentOf1019)).toBe(1024);
    expect(bytes(KEYS.longFolders)).toBe(612);
    for (const [name, key] of Object.entries(KEYS)) {
      await s3.admin.send(
        new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: `body of ${name}`, Metadata: { name } }),
      );
    }
    for (const [name, key] of Object.entries(KEYS)) {
      const head = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
      expect(head.Metadata).toEqual({ name });
      expect(await s3.text(key)).toBe(`body of ${name}`);
    }
    const expected = Object.values(KEYS).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(await listAll('long/', 1)).toEqual(expected);
    expect(await listAll()).toEqual(expect.arrayContaining(expected));
    const folders = await s3.admin.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'long/', Delimiter: '/' }),
    );
    expect(folders.CommonPrefixes?.map((p) => p.Prefix)).toEqual([`long/${'é'.repeat(150)}/`]);
    expect(folders.Contents).toHaveLength(3);

    for (const key of Object.values(KEYS))
      await s3.admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(await listAll('long/')).toEqual([]);
    await expect(
      s3.admin.send(new GetObjectCommand({ Bucket: s3.bucket, Key: KEYS.longFolders })),
    ).rejects.toMatchObject({ name: 'NoSuchKey' });
    // Nothing left on disk under the prefix: the hashed folders went with their objects.
    expect(readdirSync(path.join(s3.server.directory, s3.bucket))).not.toContain('long');
  });

  it('takes a multipart upload to a 1,024-byte key', async () => {
    const key = `multi/${'k'.repeat(1018)}`;
    const body = Buffer.alloc(6 * 1024 * 1024, 'p');
    await new Upload({
      client: s3.admin,
      params: { Bucket: s3.bucket, Key: key, Body: body },
      partSize: 5 * 1024 * 1024,
    }).done();
    expect(await listAll('multi/')).toEqual([key]);
    const head = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(head.ContentLength).toBe(body.length);
  });

  it('refuses a key over 1,024 bytes with KeyTooLongError, as S3 does, and stays up', async () => {
    await expect(
      s3.admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `x/${'x'.repeat(1023)}`, Body: 'x' })),
    ).rejects.toMatchObject({ name: 'KeyTooLongError', $metadata: { httpStatusCode: 400 } });
    await s3.put('after/ok.txt', 'still here');
    expect(await s3.text('after/ok.txt')).toBe('still here');
  });
});
