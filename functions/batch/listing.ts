import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import type { S3Client, _Object } from '@aws-sdk/client-s3';
import { type OutputKeys, outputKeysFor, RUN_MODE_PREFIX, type RunMode } from '../contract/service-layout.js';
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

export type ItemKeys = ({ ok: true } & OutputKeys) | { ok: false; reason: 'folder' | 'outside-prefix' };

/**
 * Where the answer and report of a listed key go: `batch/<path>` -> `solved/<path>` and
 * `reports/<path>.json`; in sweep mode `incoming/<path>` exactly as its S3 event would. A key
 * outside the mode's prefix is never processed (outputs must never land where they are read
 * from); folder markers (`dir/`, zero bytes) are not files.
 */
export function itemKeysFor(key: string, mode: RunMode): ItemKeys {
  const prefix = RUN_MODE_PREFIX[mode];
  if (!key.startsWith(prefix) || key.length === prefix.length) return { ok: false, reason: 'outside-prefix' };
  if (key.endsWith('/')) return { ok: false, reason: 'folder' };
  const keys = outputKeysFor(key, prefix);
  return keys ? { ok: true, ...keys } : { ok: false, reason: 'outside-prefix' };
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
