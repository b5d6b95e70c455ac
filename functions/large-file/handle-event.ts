import type { S3Client } from '@aws-sdk/client-s3';
import type { FinishResult, LargeFileEvent, RangeStepResult } from '../contract/large-files.js';
import {
  failLargeFile,
  finishLargeFile,
  forgetAskedAgain,
  removeStaging,
  rerunAskedAgain,
  sharedS3Client,
  solveRange,
} from '../pipeline/index.js';
import type { S3RetrySettings } from '../pipeline/index.js';

const timeLeft = (options: HandleLargeFileEventOptions) =>
  options.timeLeftMs ? { timeLeftMs: options.timeLeftMs } : {};

export interface HandleLargeFileEventOptions {
  client?: S3Client;
  timeLeftMs?: () => number;
  /** Passed on to solveRange (tests hand a range over at once). */
  handOverAfterMs?: number;
  /** Passed on to solveRange (tests bring the running report up to date after every range). */
  progressEveryMs?: number;
  /** Passed on to the finish and fail steps: each S3 call's own retries (tests shorten the waits). */
  s3Retry?: S3RetrySettings;
}

/**
 * The files function's side of the large-file state machine: each step of the job, straight to
 * the pipeline. Errors are thrown, so the state machine's retry rules (RANGE_RETRY) see them by name.
 */
export async function handleLargeFileEvent(
  event: LargeFileEvent,
  options: HandleLargeFileEventOptions = {},
): Promise<RangeStepResult | FinishResult> {
  const client = options.client ?? sharedS3Client();
  switch (event.largeFile) {
    case 'range': {
      // Small, so 10,000 of them never weigh on the state machine's payload.
      const { tally, next } = await solveRange(event.job, event.range, {
        client,
        ...(options.timeLeftMs ? { timeLeftMs: options.timeLeftMs } : {}),
        ...(options.handOverAfterMs === undefined ? {} : { handOverAfterMs: options.handOverAfterMs }),
        ...(options.progressEveryMs === undefined ? {} : { progressEveryMs: options.progressEveryMs }),
      });
      return { index: tally.index, rows: tally.counts.rows, ...(next ? { next } : {}) };
    }
    case 'finish': {
      const retry = options.s3Retry ? { retry: options.s3Retry } : {};
      const finished = await finishLargeFile(event.job, { client, ...retry });
      // Superseded: the source was another version at the check; if it is this one again and was
      // asked for meanwhile, the version gets its next run.
      if (finished.outcome === 'superseded') await rerunAskedAgain(event.job, { client, ...timeLeft(options) });
      else if (finished.outcome === 'solved') await forgetAskedAgain(event.job, client);
      return finished;
    }
    case 'fail':
      if (await rerunAskedAgain(event.job, { client, ...timeLeft(options) })) {
        await removeStaging(client, event.job, options.s3Retry);
        return { outcome: 'superseded' };
      }
      return failLargeFile(event.job, event.error, {
        client,
        ...(options.s3Retry ? { retry: options.s3Retry } : {}),
      });
  }
}
