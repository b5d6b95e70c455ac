// Where the local S3 must answer as S3 does for the pipeline's own protections to be tested here:
// conditional reads and writes, aborting and listing multipart uploads, and whole versions to readers.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  CompleteMultipartUploadCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
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

describe('conditional requests', () => {
  it('answers a GET or HEAD whose If-Match names another version 412, and If-None-Match of the current one 304', async () => {
    const eTag = await s3.put('solved/cond/read.txt', 'v1');
    const stale = '"00000000000000000000000000000000"';
    const bucket = s3.bucket;
    const key = 'solved/cond/read.txt';
    expect(await outcomeOf(s3.admin.send(new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: stale })))).toEqual({
      status: 412,
      code: 'PreconditionFailed',
    });
    expect(
      (await outcomeOf(s3.admin.send(new HeadObjectCommand({ Bucket: bucket, Key: key, IfMatch: stale })))).status,
    ).toBe(412);
    expect(await outcomeOf(s3.admin.send(new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: eTag })))).toEqual({
      status: 200,
      code: 'OK',
    });
    expect(
      (await outcomeOf(s3.admin.send(new GetObjectCommand({ Bucket: bucket, Key: key, IfNoneMatch: eTag })))).status,
    ).toBe(304);
  });

  it('writes with If-None-Match: * only a new key, and with If-Match only over the version named (412 otherwise)', async () => {
    const key = 'solved/cond/write.txt';
    const put = (body: string, condition: { IfMatch?: string; IfNoneMatch?: string }) =>
      outcomeOf(s3.admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ...condition })));
    expect(await put('first', { IfNoneMatch: '*' })).toEqual({ status: 200, code: 'OK' });
    expect(await put('again', { IfNoneMatch: '*' })).toEqual({ status: 412, code: 'PreconditionFailed' });
    const head = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(await put('second', { IfMatch: head.ETag! })).toEqual({ status: 200, code: 'OK' });
    expect(await put('third', { IfMatch: head.ETag! })).toEqual({ status: 412, code: 'PreconditionFailed' });
    expect(await s3.text(key)).toBe('second');
    expect(
      await outcomeOf(
        s3.admin.send(
          new PutObjectCommand({ Bucket: s3.bucket, Key: 'solved/cond/none.txt', Body: 'x', IfMatch: head.ETag! }),
        ),
      ),
    ).toEqual({ status: 404, code: 'NoSuchKey' });
  });

  it('refuses to complete a multipart upload whose If-Match no longer holds, and leaves the object as it was', async () => {
    const key = 'solved/cond/multipart.txt';
    const old = await s3.put(key, 'old');
    await s3.put(key, 'newer');
    const body = Buffer.alloc(6 * 1024 * 1024, 'a');
    const upload = new Upload({
      client: s3.admin,
      params: { Bucket: s3.bucket, Key: key, Body: body, IfMatch: old },
      partSize: 5 * 1024 * 1024,
    });
    await expect(upload.done()).rejects.toMatchObject({ name: 'PreconditionFailed' });
    expect(await s3.text(key)).toBe('newer');
  });

  it('deletes with If-Match only the version named: 412 and the object kept otherwise, 404 NoSuchKey once gone', async () => {
    const key = 'solved/cond/delete.txt';
    const old = await s3.put(key, 'old');
    const current = await s3.put(key, 'newer');
    const remove = (IfMatch: string) =>
      outcomeOf(s3.admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key, IfMatch })));
    expect(await remove(old)).toEqual({ status: 412, code: 'PreconditionFailed' });
    expect(await s3.text(key)).toBe('newer');
    expect(await remove(current)).toEqual({ status: 204, code: 'OK' });
    expect(await s3.exists(key)).toBe(false);
    expect(await remove(current)).toEqual({ status: 404, code: 'NoSuchKey' });
  });
});

describe('multipart uploads', () => {
  it('are listed while in progress, and an abort removes the upload and its parts (204), as S3 does', async () => {
    const key = 'solved/uploads/aborted.txt';
    const { UploadId } = await s3.admin.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }));
    await s3.admin.send(
      new UploadPartCommand({
        Bucket: s3.bucket,
        Key: key,
        UploadId,
        PartNumber: 1,
        Body: Buffer.alloc(5 * 1024 * 1024),
      }),
    );
    const listed = await s3.admin.send(
      new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'solved/uploads/' }),
    );
    expect(listed.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([[key, UploadId]]);

    const aborted = await s3.admin.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId }));
    expect(aborted.$metadata.httpStatusCode).toBe(204);
    const after = await s3.admin.send(
      new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'solved/uploads/' }),
    );
    expect(after.Uploads ?? []).toEqual([]);
    const uploadsOnDisk = readdirSync(path.join(s3.server.directory, s3.bucket, '._S3rver_uploads'));
    expect(uploadsOnDisk).not.toContain(UploadId);
    expect(
      await outcomeOf(s3.admin.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId }))),
    ).toEqual({
      status: 404,
      code: 'NoSuchUpload',
    });
  });
});

describe('parts of a multipart upload', () => {
  const MIB = 1024 * 1024;
  const start = async (key: string) =>
    (await s3.admin.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }))).UploadId!;
  const complete = (key: string, uploadId: string, eTags: (string | undefined)[]) =>
    s3.admin.send(
      new CompleteMultipartUploadCommand({
        Bucket: s3.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: eTags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );

  it('copies a byte range of another object into a part (UploadPartCopy), which s3rver alone stores empty', async () => {
    const source = Buffer.alloc(6 * MIB, 'a');
    source.write('the middle', 3 * MIB);
    await s3.put('staging/parts/source', source);
    const key = 'solved/parts/copied.txt';
    const uploadId = await start(key);
    const copied = await s3.admin.send(
      new UploadPartCopyCommand({
        Bucket: s3.bucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: 1,
        CopySource: `${s3.bucket}/staging/parts/source`,
        CopySourceRange: `bytes=0-${5 * MIB}`,
      }),
    );
    const tail = await s3.admin.send(
      new UploadPartCommand({ Bucket: s3.bucket, Key: key, UploadId: uploadId, PartNumber: 2, Body: 'tail' }),
    );
    await complete(key, uploadId, [copied.CopyPartResult?.ETag, tail.ETag]);
    const text = await s3.text(key);
    expect(text?.length).toBe(5 * MIB + 1 + 4);
    expect(text?.slice(3 * MIB, 3 * MIB + 10)).toBe('the middle');
    expect(text?.endsWith('atail')).toBe(true);
  });

  it('refuses to complete an upload whose part but the last is under 5 MiB (400 EntityTooSmall), as S3 does', async () => {
    const key = 'solved/parts/small.txt';
    const uploadId = await start(key);
    const parts = await Promise.all(
      ['small', 'last'].map((body, i) =>
        s3.admin.send(
          new UploadPartCommand({ Bucket: s3.bucket, Key: key, UploadId: uploadId, PartNumber: i + 1, Body: body }),
        ),
      ),
    );
    expect(
      await outcomeOf(
        complete(
          key,
          uploadId,
          parts.map((p) => p.ETag),
        ),
      ),
    ).toEqual({ status: 400, code: 'EntityTooSmall' });
    expect(await s3.exists(key)).toBe(false);
  });
});

describe('an overwrite under a reader', () => {
  it('serves the reader the whole version it started with, and the next reader the new one', async () => {
    const key = 'incoming/versions/big.txt';
    const v1 = Buffer.alloc(8 * 1024 * 1024, '1');
    await s3.put(key, v1);
    const got = await s3.admin.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    const reader = got.Body as Readable;
    const chunks: Buffer[] = [];
    const firstChunk = await new Promise<Buffer>((resolve) => reader.once('data', resolve));
    chunks.push(firstChunk);
    reader.pause();
    await s3.put(key, Buffer.alloc(1024, '2'));
    reader.resume();
    for await (const chunk of reader) chunks.push(chunk as Buffer);
    const read = Buffer.concat(chunks);
    expect(read.length).toBe(v1.length);
    expect(read.equals(v1)).toBe(true);
    expect(await s3.text(key)).toBe('2'.repeat(1024));
  });
});
