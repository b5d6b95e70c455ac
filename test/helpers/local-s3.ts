import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { S3Event } from 'aws-lambda';
import { outputKeysFor, prefixes } from '../../functions/contract/service-layout.js';
import { startS3Server } from '../../twin/s3/s3-server.js';
import type { LocalS3Server, LocalS3ServerOptions } from '../../twin/s3/s3-server.js';
import type { LocalCaller } from '../../twin/iam/local-account.js';
import type { AccessDenial } from '../../twin/iam/s3-authorization.js';
import type { FileReport } from '../../functions/pipeline/index.js';
import { s3Event } from '../../twin/s3/s3-event.js';
import type { ObjectCreatedEventName } from '../../twin/s3/s3-event.js';
import { localS3Client } from '../../twin/s3/local-s3-client.js';

export interface TestS3 {
  server: LocalS3Server;
  /** Signs as the files function's role: the client to hand to the function's code. */
  client: S3Client;
  /** Signs as the account's admin: the test's own uploads and reads (what a person with the AWS CLI does). */
  admin: S3Client;
  bucket: string;
  /** Every request the synthesized policies refused, in order. */
  denials: AccessDenial[];
  /** Uploads as the admin, with user metadata if given (x-amz-meta-*); resolves with the ETag. */
  put(key: string, body: string | Buffer, metadata?: Record<string, string>): Promise<string>;
  /** The object's bytes, gunzipped when the key ends in .gz; undefined when there is no such object. */
  text(key: string): Promise<string | undefined>;
  exists(key: string): Promise<boolean>;
  report(sourceKey: string): Promise<FileReport>;
  /** An S3 event for an object already in the bucket, built as AWS builds it (from the object's real size and ETag). */
  eventFor(key: string, eventName?: ObjectCreatedEventName): Promise<S3Event>;
  close(): Promise<void>;
}

/** A client of the local S3 signing as `caller` (the admin by default). */
export function clientFor(endpoint: string, caller: LocalCaller = 'admin'): S3Client {
  return localS3Client(endpoint, caller);
}

/**
 * Where test servers keep their data: in memory (Linux's /dev/shm) where there is one, as s3rver
 * stores each object as several files and opens a few per request; the system's temporary folder
 * elsewhere. Each server's folder is removed when it closes.
 */
const DATA_ROOT = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

/** A real s3rver on an ephemeral port with its own data directory, and a client for it. */
export async function startTestS3(options: Omit<LocalS3ServerOptions, 'port' | 'directory'> = {}): Promise<TestS3> {
  const directory = mkdtempSync(path.join(DATA_ROOT, 'sudoku-s3-'));
  const denials: AccessDenial[] = [];
  const server = await startS3Server({
    onAccessDenied: (denial) => denials.push(denial),
    ...options,
    port: 0,
    directory,
    bucket: options.bucket ?? 'test-bucket',
  });
  const client = clientFor(server.endpoint, 'files');
  const admin = clientFor(server.endpoint);
  const bucket = server.bucket;
  const head = async (key: string) => {
    try {
      return await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if ((error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  };
  const text = async (key: string) => {
    try {
      const got = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const bytes = Buffer.from(await got.Body!.transformToByteArray());
      return (key.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  };
  return {
    server,
    client,
    admin,
    bucket,
    denials,
    put: async (key, body, metadata) =>
      (
        await admin.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...(metadata ? { Metadata: metadata } : {}) }),
        )
      ).ETag ?? '',
    text,
    exists: async (key) => (await head(key)) !== undefined,
    report: async (sourceKey) => {
      const prefix = sourceKey.startsWith(prefixes.batch) ? prefixes.batch : prefixes.incoming;
      const reportKey = outputKeysFor(sourceKey, prefix)?.reportKey ?? `(not under incoming/ or batch/: ${sourceKey})`;
      const body = await text(reportKey);
      if (body === undefined) throw new Error(`no report at ${reportKey}`);
      return JSON.parse(body) as FileReport;
    },
    eventFor: async (key, eventName) => {
      const h = await head(key);
      if (!h) throw new Error(`no object ${key}`);
      return s3Event({
        bucket,
        key,
        size: h.ContentLength ?? 0,
        eTag: (h.ETag ?? '').replace(/"/g, ''),
        ...(eventName ? { eventName } : {}),
      });
    },
    close: async () => {
      client.destroy();
      admin.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Which status and S3 error code a call got (200/OK, or the error's), for tests of what S3 answers. */
export async function outcomeOf(call: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    const answer = (await call) as { $metadata?: { httpStatusCode?: number } } | undefined;
    return { status: answer?.$metadata?.httpStatusCode ?? 200, code: 'OK' };
  } catch (error) {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return { status: e.$metadata?.httpStatusCode ?? 0, code: e.name ?? 'Error' };
  }
}
