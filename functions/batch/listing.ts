import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import type { S3Client, _Object } from '@aws-sdk/client-s3';
import { acceptSourceKey, RUN_MODE_PREFIX, type RunMode, type SourceKeyVerdict } from '../contract/service-layout.js';
import type { MapItem } from './types.js';

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
 * Where the answer and report of a listed key go: `batch/<path>` -> `solved/<path>` and
 * `reports/<path>.json`; in sweep mode `incoming/<path>` exactly as its S3 event would. The keys
 * a run accepts are those an S3 event would be (`acceptSourceKey`), under the mode's prefix.
 */
export function itemKeysFor(key: string, mode: RunMode): SourceKeyVerdict {
  return acceptSourceKey(key, RUN_MODE_PREFIX[mode]);
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
