import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { ENV, readEnv } from '../contract/environment.js';

/**
 * How long an S3 call may wait. Without a bound, a GetObject body that stalls half-way with the
 * connection open waits until Lambda ends the invocation (900 s), and only then is it retried.
 * S3 answers a request in tens of milliseconds and streams without pauses of more than a second
 * or two; the pipeline itself pauses a GET's body only while an upload part is sent (an 8 MiB part,
 * well under 10 s even at 10 MB/s). 30 s of silence is therefore a fault, not a slow call: the call
 * fails with TimeoutError and the invocation is retried. A connection takes at most 5 s to open.
 */
export const S3_TIMEOUTS = { connectionTimeoutMs: 5_000, socketTimeoutMs: 30_000 } as const;

/** The SDK's own settings, and the longest silence on a connection (default S3_SOCKET_TIMEOUT_MS, else S3_TIMEOUTS). */
export interface S3ClientOptions extends S3ClientConfig {
  socketTimeoutMs?: number;
}

/**
 * The function's S3 client. Where it connects, as whom and in which region the SDK reads itself
 * from the environment Lambda gives (the role's credentials, AWS_REGION); the local twin gives its
 * endpoint and keys the same way (AWS_ENDPOINT_URL_S3, AWS_ACCESS_KEY_ID), so nothing here knows it.
 * `options` are for a caller that picks its own (the twin's clients, tests).
 */
export function createS3Client({ socketTimeoutMs, ...config }: S3ClientOptions = {}): S3Client {
  const fromEnv = Number(readEnv(ENV.s3SocketTimeoutMs));
  return new S3Client({
    requestHandler: {
      connectionTimeout: S3_TIMEOUTS.connectionTimeoutMs,
      socketTimeout: socketTimeoutMs ?? (fromEnv > 0 ? fromEnv : S3_TIMEOUTS.socketTimeoutMs),
    },
    // The SDK's default flexible checksums corrupt streamed PutObject/UploadPart bodies on Node 20
    // and are not understood by local servers; S3 still checks MD5/CRC where it requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...config,
  });
}

let shared: S3Client | undefined;

/** One client per Lambda container, created on first use and reused across invocations. */
export function sharedS3Client(): S3Client {
  shared ??= createS3Client();
  return shared;
}
