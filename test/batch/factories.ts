import { HeadObjectCommand } from '@aws-sdk/client-s3';
import type { MapEvent, MapItem, RunMode } from '../../functions/batch/index.js';
import type { TestS3 } from '../helpers/local-s3.js';

/** One item as the map's S3 item reader lists it (note `Etag`, quoted; `LastModified` in epoch seconds). */
export function batchItem(key: string, fields: Partial<Omit<MapItem, 'Key'>> = {}): MapItem {
  return {
    Etag: '"9b2cf535f27731c974343645a3985328"',
    Key: key,
    LastModified: 1764374400,
    Size: 8200,
    StorageClass: 'STANDARD',
    ...fields,
  };
}

/** The event the Distributed Map invokes the function with. */
export function batchEvent(items: MapItem[], input: { bucket: string; mode?: RunMode }): MapEvent {
  return { Items: items, BatchInput: { bucket: input.bucket, mode: input.mode ?? 'batch' } };
}

/** A batch event for objects already in the bucket, their items filled from the real objects (ETag, size, time). */
export async function batchEventFor(s3: TestS3, keys: string[], mode: RunMode = 'batch'): Promise<MapEvent> {
  const items = await Promise.all(
    keys.map(async (key) => {
      const head = await s3.admin.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
      return batchItem(key, {
        Etag: head.ETag!,
        Size: head.ContentLength!,
        LastModified: Math.floor(head.LastModified!.getTime() / 1000),
      });
    }),
  );
  return batchEvent(items, { bucket: s3.bucket, mode });
}
