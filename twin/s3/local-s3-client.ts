import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, type S3ClientOptions } from '../../functions/pipeline/s3-client.js';
import { type LocalCaller, LOCAL_REGION, localCredentials } from '../iam/local-account.js';

/**
 * A client of the twin's S3 at `endpoint`, signing as `caller` so the twin decides its calls by that
 * principal's policies; the function's own client settings (timeouts, checksums) otherwise.
 */
export function localS3Client(endpoint: string, caller: LocalCaller, options: S3ClientOptions = {}): S3Client {
  return createS3Client({
    endpoint,
    region: LOCAL_REGION,
    credentials: localCredentials(caller),
    // A local server has no per-bucket DNS names.
    forcePathStyle: true,
    ...options,
  });
}
