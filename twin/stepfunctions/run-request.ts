/**
 * A schedule's input (`events/batch-schedule-*.json`) run locally: in AWS it starts the state
 * machine and never reaches the function, so the deployed function has no such kind of event;
 * `npm run invoke` hands it to the local runner instead (the whole job in one process, as
 * `npm run batch`).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { describeFailures, BatchInputError } from '../../functions/batch/errors.js';
import type { ItemError } from '../../functions/batch/types.js';
import { isRecord } from '../../functions/contract/event-kind.js';
import { isRunMode, type RunMode } from '../../functions/contract/service-layout.js';
import { logger } from '../../functions/observability/powertools.js';
import { sharedS3Client } from '../../functions/pipeline/s3-client.js';
import { type RunBatchJobOptions, runBatchJob, type RunSummary } from './batch-run.js';
import { ServiceError } from '../../functions/contract/service-error.js';

/**
 * What the schedules start the state machine with (`{"mode":"batch"}`, `{"mode":"sweep"}`). In AWS
 * it never reaches the function; given to `npm run invoke`, the local runner runs the whole job,
 * like `npm run batch`.
 */
export interface RunRequest {
  mode?: RunMode;
  /** Narrows the listing: a full key prefix, or a path under the mode's prefix. */
  prefix?: string;
  /** Defaults to the BUCKET environment variable. */
  bucket?: string;
}

const RUN_REQUEST_FIELDS = new Set(['mode', 'prefix', 'bucket']);

/**
 * The schedules' input (`{"mode":"batch"}`, `{"mode":"sweep"}`, optionally `prefix`, `bucket`)
 * given to `npm run invoke`. Strict (a known mode, no other fields) so that no other
 * event is ever taken for a request to run a whole job.
 */
export function isRunRequest(event: unknown): event is RunRequest {
  if (!isRecord(event) || !isRunMode(event.mode)) return false;
  return Object.entries(event).every(
    ([field, value]) => RUN_REQUEST_FIELDS.has(field) && (field === 'mode' || typeof value === 'string'),
  );
}

/** Thrown when a whole run (a run request given to `npm run invoke`) ended with failed files. */
export class BatchRunFailedError extends ServiceError<'RUN_FAILED'> {
  override readonly name = 'BatchRunFailedError';
  constructor(
    readonly failedFiles: number,
    readonly failures: readonly { key: string; error: ItemError }[],
    /** Where the run report was written. */
    readonly reportPrefix: string,
  ) {
    super('RUN_FAILED', `${failedFiles} file(s) failed (run report: ${reportPrefix}): ${describeFailures(failures)}`);
  }
}

export interface HandleRunRequestOptions {
  client?: S3Client;
  /** The state machine's credentials, where the caller has them: the run report is written with them. */
  runClient?: S3Client;
  env?: NodeJS.ProcessEnv;
  /** Runs each group's invocation (see RunBatchJobOptions.invoke): `npm run invoke` gives each an execution. */
  invoke?: RunBatchJobOptions['invoke'];
}

/**
 * The schedule's input run whole in this process, as `npm run batch` runs it. In AWS the
 * schedules start the state machine instead, which spreads the files over many invocations.
 * Throws when any file failed, like a failed map run.
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
    ...(options.invoke ? { invoke: options.invoke } : {}),
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
