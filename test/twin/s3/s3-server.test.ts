import {
  DeleteBucketCorsCommand,
  GetBucketCorsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Event } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/handler/index.js';
import { createLambdaContext } from '../../../twin/lambda/lambda-context.js';
import { EASY, EASY_SOLUTION } from '../../helpers/boards.js';
import { outcomeOf, startTestS3 } from '../../helpers/local-s3.js';
import type { TestS3 } from '../../helpers/local-s3.js';
import { useFunctionEnvironment } from '../../../twin/lambda/function-environment.js';

let s3: TestS3;
const delivered: S3Event[] = [];
/** The handler the server delivers to; swapped per test. */
let deliver: (event: S3Event) => Promise<unknown> = async () => undefined;

beforeAll(async () => {
  s3 = await startTestS3({
    onObjectCreated: async (event) => {
      delivered.push(event);
      return deliver(event);
    },
  });
  // The handler's own S3 client (created on first use) talks to this server, as under `npm start`.
  useFunctionEnvironment(process.env, s3.server.endpoint, 'admin');
});
afterAll(async () => {
  await s3?.close();
});

/** Waits until an event for `key` (decoded) has been delivered and handled. */
async function eventFor(key: string): Promise<S3Event> {
  for (let i = 0; i < 200; i++) {
    await s3.server.settled();
    const found = delivered.find((e) => decodeURIComponent(e.Records[0]!.s3.object.key.replace(/\+/g, ' ')) === key);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no event delivered for ${key}`);
}

describe('local S3 server', () => {
  it('delivers a PutObject under incoming/ as an AWS-shaped ObjectCreated:Put record with URL-encoded key, size, eTag and sequencer', async () => {
    const key = 'incoming/my puzzles+1 été.txt';
    const body = `${EASY}\n`;
    await s3.put(key, body);
    const event = await eventFor(key);
    const head = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    expect(event.Records).toHaveLength(1);
    expect(event.Records[0]).toMatchObject({
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'us-east-1',
      eventName: 'ObjectCreated:Put',
      s3: {
        s3SchemaVersion: '1.0',
        bucket: { name: s3.bucket, arn: `arn:aws:s3:::${s3.bucket}` },
        object: {
          key: 'incoming/my+puzzles%2B1+%C3%A9t%C3%A9.txt',
          size: body.length,
          eTag: head.ETag!.replace(/"/g, ''),
        },
      },
    });
    expect(event.Records[0]!.s3.object.sequencer).toMatch(/^[0-9A-F]{16,}$/);
    expect(Date.parse(event.Records[0]!.eventTime)).not.toBeNaN();
  });

  it('delivers a multipart upload as ObjectCreated:CompleteMultipartUpload', async () => {
    const key = 'incoming/multipart.txt';
    const body = Buffer.from(`${EASY}\n`.repeat(Math.ceil((6 * 1024 * 1024) / 82)));
    await new Upload({
      client: s3.admin,
      params: { Bucket: s3.bucket, Key: key, Body: body },
      partSize: 5 * 1024 * 1024,
    }).done();
    const event = await eventFor(key);
    expect(event.Records[0]).toMatchObject({
      eventName: 'ObjectCreated:CompleteMultipartUpload',
      s3: { object: { key, size: body.length } },
    });
  });

  it('delivers nothing for objects outside incoming/ (the notification is filtered on the prefix)', async () => {
    await s3.put('elsewhere/a.txt', 'x');
    await s3.put('incoming/marker.txt', 'x');
    await eventFor('incoming/marker.txt');
    expect(delivered.some((e) => e.Records[0]!.s3.object.key.startsWith('elsewhere/'))).toBe(false);
  });

  it('hands an upload to the Lambda entry point (dispatch -> S3 adapter): solved/ and reports/ appear, the outputs trigger nothing', async () => {
    deliver = (event) => handler(event, createLambdaContext());
    const key = 'incoming/end-to-end.txt';
    await s3.put(key, `${EASY}\n`);
    await eventFor(key);
    await s3.server.settled();
    expect(await s3.text('solved/end-to-end.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect((await s3.report(key)).counts.solved).toBe(1);
    expect(delivered.some((e) => !e.Records[0]!.s3.object.key.startsWith('incoming/'))).toBe(false);
    deliver = async () => undefined;
  });

  it('pages through ListObjectsV2 with continuation tokens (s3rver runs with the OpenSSL legacy provider)', async () => {
    for (let i = 0; i < 3; i++)
      await s3.admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `paged/${i}.txt`, Body: 'x' }));
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.admin.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'paged/', MaxKeys: 1, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token);
    expect(keys).toEqual(['paged/0.txt', 'paged/1.txt', 'paged/2.txt']);
  });

  it("answers a bucket's CORS configuration as last put, and none once deleted (the server keeps what it read)", async () => {
    const get = () => s3.admin.send(new GetBucketCorsCommand({ Bucket: s3.bucket }));
    expect(await outcomeOf(get())).toEqual({ status: 404, code: 'NoSuchCORSConfiguration' });
    const rule = (origin: string) => ({ AllowedMethods: ['GET'], AllowedOrigins: [origin] });
    for (const origin of ['https://a.example', 'https://b.example']) {
      await s3.admin.send(
        new PutBucketCorsCommand({ Bucket: s3.bucket, CORSConfiguration: { CORSRules: [rule(origin)] } }),
      );
      expect((await get()).CORSRules).toMatchObject([rule(origin)]);
    }
    await s3.admin.send(new DeleteBucketCorsCommand({ Bucket: s3.bucket }));
    expect(await outcomeOf(get())).toEqual({ status: 404, code: 'NoSuchCORSConfiguration' });
  });
});
