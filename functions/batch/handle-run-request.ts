import type { S3Client } from '@aws-sdk/client-s3';
import { logger } from '../observability/powertools.js';
import { sharedS3Client } from '../pipeline/s3-client.js';
import { BatchInputError, BatchRunFailedError } from './errors.js';
import { runBatchJob } from './run.js';
import type { RunRequest, RunSummary } from './types.js';

export interface HandleRunRequestOptions {
  client?: S3Client;
  /** The state machine's credentials, where the caller has them: the run report is written with them. */
  runClient?: S3Client;
  env?: NodeJS.ProcessEnv;
}

/**
 * The schedule's input handled by the function itself: the whole job in this one invocation,
 * as `npm run batch` runs it. In AWS the schedules start the state machine instead, which
 * spreads the files over many invocations; this path is for `npm run invoke` and small buckets
 * (it is bounded by the function's timeout). Throws when any file failed, like a failed map run.
 */
export async function handleRunRequest(
  request: RunRequest,
  options: HandleRunRequestOptions = {},
): Promise<RunSummary> {
  const env = options.env ?? process.env;
  const bucket = request.bucket ?? env.BUCKET;
  if (!bucket)
    throw new BatchInputError('no bucket: set it in the request or in the BUCKET environment variable', 'bucket');
  const summary = await runBatchJob({
    client: options.client ?? sharedS3Client(),
    ...(options.runClient ? { runClient: options.runClient } : {}),
    bucket,
    mode: request.mode ?? 'batch',
    ...(request.prefix === undefined ? {} : { prefix: request.prefix }),
    // The run reports' prefix belongs to Step Functions (the function's role may not write
    // there): without the state machine's client, no run report; the summary is the report.
  });
  const { failures, ...totals } = summary;
  if (summary.files.failed > 0) {
    logger.error('Batch run done with failed files', { ...totals, failures });
    throw new BatchRunFailedError(summary.files.failed, failures, summary.reportPrefix ?? '(no report)');
  }
  logger.info('Batch run done', totals);
  return summary;
}
