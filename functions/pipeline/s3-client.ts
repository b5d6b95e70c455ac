import { S3Client } from '@aws-sdk/client-s3';

/** Where the S3 client connects. Empty in AWS (the SDK's defaults apply); set for a local server. */
export interface S3ClientSettings {
  /** e.g. http://127.0.0.1:4569 for the local server of `npm start`. */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Longest silence on an S3 connection before the call fails (a stalled body included); default S3_SOCKET_TIMEOUT_MS. */
  socketTimeoutMs?: number;
}

/**
 * How long an S3 call may wait. Without a bound, a GetObject body that stalls half-way with the
 * connection open waits until Lambda ends the invocation (900 s), and only then is it retried.
 * S3 answers a request in tens of milliseconds and streams without pauses of more than a second
 * or two; the pipeline itself pauses a GET's body only while an upload part is sent (an 8 MiB part,
 * well under 10 s even at 10 MB/s). 30 s of silence is therefore a fault, not a slow call: the call
 * fails with TimeoutError and the invocation is retried. A connection takes at most 5 s to open.
 */
export const S3_TIMEOUTS = { connectionTimeoutMs: 5_000, socketTimeoutMs: 30_000 } as const;

/** Settings from the environment: S3_ENDPOINT (unset in AWS), AWS_REGION, and S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY for a local server. */
export function s3ClientSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): S3ClientSettings {
  const endpoint = env.S3_ENDPOINT || undefined;
  const socketTimeoutMs = Number(env.S3_SOCKET_TIMEOUT_MS);
  return {
    ...(endpoint ? { endpoint } : {}),
    ...(socketTimeoutMs > 0 ? { socketTimeoutMs } : {}),
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    // The local server's own keys (s3rver: S3RVER/S3RVER), not AWS_ACCESS_KEY_ID: real AWS keys in
    // the environment would not sign for it. In AWS the credential chain (the function's role) is used.
    ...(endpoint
      ? { accessKeyId: env.S3_ACCESS_KEY_ID || 'S3RVER', secretAccessKey: env.S3_SECRET_ACCESS_KEY || 'S3RVER' }
      : {}),
  };
}

export function createS3Client(settings: S3ClientSettings = s3ClientSettingsFromEnv()): S3Client {
  return new S3Client({
    region: settings.region ?? 'us-east-1',
    ...(settings.endpoint
      ? {
          endpoint: settings.endpoint,
          // A local server has no per-bucket DNS names.
          forcePathStyle: true,
          credentials: {
            accessKeyId: settings.accessKeyId ?? 'S3RVER',
            secretAccessKey: settings.secretAccessKey ?? 'S3RVER',
          },
        }
      : {}),
    requestHandler: {
      connectionTimeout: S3_TIMEOUTS.connectionTimeoutMs,
      socketTimeout: settings.socketTimeoutMs ?? S3_TIMEOUTS.socketTimeoutMs,
    },
    // The SDK's default flexible checksums corrupt streamed PutObject/UploadPart bodies on Node 20
    // and are not understood by local servers; S3 still checks MD5/CRC where it requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

let shared: S3Client | undefined;

/** One client per Lambda container, created on first use and reused across invocations. */
export function sharedS3Client(): S3Client {
  shared ??= createS3Client();
  return shared;
}
