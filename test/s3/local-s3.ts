import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { S3Event } from 'aws-lambda';
import { outputKeysFor, prefixes } from '../../functions/contract/service-layout.js';
import { startS3Server } from '../../functions/local/s3-server.js';
import type { LocalS3Server, LocalS3ServerOptions } from '../../functions/local/s3-server.js';
import { createS3Client } from '../../functions/pipeline/index.js';
import type { FileReport } from '../../functions/pipeline/index.js';
import { s3Event } from '../../functions/local/s3-event.js';
import type { ObjectCreatedEventName } from '../../functions/local/s3-event.js';

export interface TestS3 {
  server: LocalS3Server;
  client: S3Client;
  bucket: string;
  put(key: string, body: string | Buffer): Promise<string>;
  /** The object's bytes, gunzipped when the key ends in .gz; undefined when there is no such object. */
  text(key: string): Promise<string | undefined>;
  exists(key: string): Promise<boolean>;
  report(sourceKey: string): Promise<FileReport>;
  /** An S3 event for an object already in the bucket, built as AWS builds it (from the object's real size and ETag). */
  eventFor(key: string, eventName?: ObjectCreatedEventName): Promise<S3Event>;
  close(): Promise<void>;
}

export function clientFor(endpoint: string): S3Client {
  return createS3Client({ endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
}

/** A real s3rver on an ephemeral port with its own data directory, and a client for it. */
export async function startTestS3(options: Omit<LocalS3ServerOptions, 'port' | 'directory'> = {}): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'sudoku-s3-'));
  const server = await startS3Server({ ...options, port: 0, directory, bucket: options.bucket ?? 'test-bucket' });
  const client = clientFor(server.endpoint);
  const bucket = server.bucket;
  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if ((error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  };
  const text = async (key: string) => {
    try {
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
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
    bucket,
    put: async (key, body) =>
      (await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }))).ETag ?? '',
    text,
    exists: async (key) => (await head(key)) !== undefined,
    report: async (sourceKey) => {
      const reportKey = outputKeysFor(sourceKey, prefixes.incoming)?.reportKey ?? `(not under incoming/: ${sourceKey})`;
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
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
