/**
 * The Distributed Map's item reader and item batcher, as the local runner (`npm run batch`)
 * plays them: list the run's prefix in the shape the map hands the function, and group the keys
 * one group per invocation. In AWS, Step Functions does both; none of this is in the bundle.
 */
import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import type { S3Client, _Object } from '@aws-sdk/client-s3';
import { RUN_MODE_PREFIX, type RunMode } from '../../functions/contract/service-layout.js';
import type { MapItem } from '../../functions/batch/types.js';

/** One listed object in the shape the Distributed Map's S3 item reader gives it to the function. */
export function mapItemFromListing(object: _Object): MapItem {
  return {
    Key: object.Key ?? '',
    ...(object.ETag === undefined ? {} : { Etag: object.ETag }),
    ...(object.Size === undefined ? {} : { Size: object.Size }),
    ...(object.LastModified === undefined ? {} : { LastModified: Math.floor(object.LastModified.getTime() / 1000) }),
    ...(object.StorageClass === undefined ? {} : { StorageClass: object.StorageClass }),
  };
}

/**
 * Every object under `prefix`, as the map's item reader lists them (ListObjectsV2, page by page:
 * the next page is fetched only when the consumer gets to it).
 */
export async function* listMapItems(client: S3Client, bucket: string, prefix: string): AsyncGenerator<MapItem> {
  for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix })) {
    for (const object of page.Contents ?? []) if (object.Key) yield mapItemFromListing(object);
  }
}

/**
 * The key prefix a run lists: the mode's prefix, narrowed by `prefix` given either as a full key
 * prefix (`batch/2026-11-29/`) or as a path under the mode's prefix (`2026-11-29/`).
 */
export function listingPrefix(mode: RunMode, prefix?: string): string {
  const base = RUN_MODE_PREFIX[mode];
  if (!prefix) return base;
  // Always inside the mode's prefix: a run can never list (and solve) its own outputs.
  return prefix.startsWith(base) ? prefix : base + prefix.replace(/^\/+/, '');
}

/**
 * Consecutive groups of at most `size` items and, when `maxBytes` is given, at most that many bytes
 * of JSON (each item's, and a comma between), as the map's item batcher makes them with
 * MaxItemsPerBatch and MaxInputBytesPerBatch (one group = one invocation). Streams: a group is
 * yielded as soon as it is full.
 */
export async function* groupItems<T>(
  items: AsyncIterable<T> | Iterable<T>,
  size: number,
  maxBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<T[]> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`group size must be a positive integer, got ${size}`);
  let group: T[] = [];
  let bytes = 0;
  for await (const item of items) {
    const itemBytes = Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (group.length && bytes + itemBytes > maxBytes) {
      yield group;
      group = [];
      bytes = 0;
    }
    group.push(item);
    bytes += itemBytes;
    if (group.length === size) {
      yield group;
      group = [];
      bytes = 0;
    }
  }
  if (group.length) yield group;
}
