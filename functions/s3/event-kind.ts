import type { S3Event } from 'aws-lambda';
import { isRecord, type EventKind } from '../contract/event-kind.js';
import type { S3RecordResult } from './handle-event.js';

/** An S3 event notification: every record from `aws:s3` with an `s3` part. */
export function isS3Event(event: unknown): event is S3Event {
  if (!isRecord(event) || !Array.isArray(event.Records) || event.Records.length === 0) return false;
  return event.Records.every(
    (record: unknown) => isRecord(record) && record.eventSource === 'aws:s3' && isRecord(record.s3),
  );
}

export const s3EventKind: EventKind<S3Event, S3RecordResult[]> = {
  name: 'S3 event notification',
  recognises: isS3Event,
  // Loaded on first use so the AWS SDK does not slow the cold start of HTTP requests.
  handle: async (event) => (await import('./handle-event.js')).handleS3Event(event),
};

/**
 * An object key as it appears in an S3 event: form-URL-encoded, so a space is `+` and a `+` is
 * `%2B`. A malformed escape is kept literally rather than failing the whole event.
 */
export function decodeEventKey(encoded: string): string {
  const spaced = encoded.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The inverse of `decodeEventKey`, as S3 writes keys into events (slashes kept). */
export function encodeEventKey(key: string): string {
  return encodeURIComponent(key).replace(/%20/g, '+').replace(/%2F/g, '/');
}
