import { randomBytes } from 'node:crypto';
import type { S3Event, S3EventRecord } from 'aws-lambda';
import { encodeEventKey } from '../../functions/s3/event-key.js';

export type ObjectCreatedEventName =
  | 'ObjectCreated:Put'
  | 'ObjectCreated:Post'
  | 'ObjectCreated:Copy'
  | 'ObjectCreated:CompleteMultipartUpload';

export interface ObjectCreated {
  bucket: string;
  /** The key as stored (decoded); it is URL-encoded into the record as S3 does. */
  key: string;
  size: number;
  /** Bare ETag (no quotes), as events carry it. */
  eTag: string;
  eventName?: ObjectCreatedEventName;
  region?: string;
  eventTime?: Date;
  sequencer?: string;
}

let lastSequence = 0n;

/**
 * S3's sequencer: a hex string that grows with every event for a key (compared after
 * left-padding). A monotonic clock in nanoseconds serves.
 */
export function nextSequencer(): string {
  const now = process.hrtime.bigint();
  lastSequence = now > lastSequence ? now : lastSequence + 1n;
  return lastSequence.toString(16).toUpperCase().padStart(18, '0');
}

const hex = (bytes: number): string => randomBytes(bytes).toString('hex').toUpperCase();

/** One record exactly as S3 event notifications deliver it (event version 2.1). */
export function objectCreatedRecord(object: ObjectCreated): S3EventRecord {
  return {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: object.region ?? 'us-east-1',
    eventTime: (object.eventTime ?? new Date()).toISOString(),
    eventName: object.eventName ?? 'ObjectCreated:Put',
    userIdentity: { principalId: `AWS:${hex(10)}` },
    requestParameters: { sourceIPAddress: '127.0.0.1' },
    responseElements: { 'x-amz-request-id': hex(8), 'x-amz-id-2': randomBytes(48).toString('base64') },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: 'sudoku-incoming',
      bucket: { name: object.bucket, ownerIdentity: { principalId: hex(7) }, arn: `arn:aws:s3:::${object.bucket}` },
      object: {
        key: encodeEventKey(object.key),
        size: object.size,
        eTag: object.eTag,
        sequencer: object.sequencer ?? nextSequencer(),
      },
    },
  };
}

export function s3Event(...objects: ObjectCreated[]): S3Event {
  return { Records: objects.map(objectCreatedRecord) };
}
