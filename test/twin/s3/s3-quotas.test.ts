// Quotas S3 enforces that s3rver alone would not: user-defined metadata past 2 KB (every name and
// value, UTF-8) is refused with 400 MetadataTooLarge, a part numbered past 10,000 with 400
// InvalidArgument. The twin's local S3 does the same, so a write AWS would refuse fails here too.
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_MAX_PARTS, S3_MAX_USER_METADATA_BYTES } from '../../../functions/contract/aws-quotas.js';
import { outcomeOf, startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

/** One metadata entry of exactly `bytes` bytes: the name `n` and a value of the rest. */
const metadataOf = (bytes: number) => ({ n: 'v'.repeat(bytes - 1) });

describe('user-defined metadata on the local S3', () => {
  it('takes exactly 2 KB on PutObject and refuses one byte more with 400 MetadataTooLarge', async () => {
    const put = (key: string, bytes: number) =>
      s3.admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'x', Metadata: metadataOf(bytes) }));
    await put('solved/meta/fits.txt', S3_MAX_USER_METADATA_BYTES);
    expect(await s3.exists('solved/meta/fits.txt')).toBe(true);
    expect(await outcomeOf(put('solved/meta/over.txt', S3_MAX_USER_METADATA_BYTES + 1))).toEqual({
      status: 400,
      code: 'MetadataTooLarge',
    });
    expect(await s3.exists('solved/meta/over.txt')).toBe(false);
  });

  it('refuses it at CreateMultipartUpload too', async () => {
    const create = s3.admin.send(
      new CreateMultipartUploadCommand({
        Bucket: s3.bucket,
        Key: 'solved/meta/multipart.txt',
        Metadata: metadataOf(S3_MAX_USER_METADATA_BYTES + 1),
      }),
    );
    expect(await outcomeOf(create)).toEqual({ status: 400, code: 'MetadataTooLarge' });
  });
});

describe('multipart part numbers on the local S3', () => {
  it('takes part 10,000 and refuses part 10,001 (and 0) with 400 InvalidArgument', async () => {
    const Key = 'solved/parts/numbered.txt';
    const { UploadId } = await s3.admin.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key }));
    const part = (PartNumber: number) =>
      s3.admin.send(new UploadPartCommand({ Bucket: s3.bucket, Key, UploadId, PartNumber, Body: 'x' }));
    expect((await part(S3_MAX_PARTS)).ETag).toBeDefined();
    expect(await outcomeOf(part(S3_MAX_PARTS + 1))).toEqual({ status: 400, code: 'InvalidArgument' });
    expect(await outcomeOf(part(0))).toEqual({ status: 400, code: 'InvalidArgument' });
    await s3.admin.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key, UploadId }));
  });
});
