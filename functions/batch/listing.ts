import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import type { S3Client, _Object } from '@aws-sdk/client-s3';
import type { BatchItem } from './types.js';

/** One listed object in the shape the Distributed Map's S3 item reader gives it to the function. */
export function batchItemFromListing(object: _Object): BatchItem {
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
export async function* listBatchItems(client: S3Client, bucket: string, prefix: string): AsyncGenerator<BatchItem> {
  for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix })) {
    for (const object of page.Contents ?? []) if (object.Key) yield batchItemFromListing(object);
  }
}
