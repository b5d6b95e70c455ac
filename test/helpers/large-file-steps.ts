import {
  FILES_TIMEOUT_ENV,
  LARGE_FILE_STATE_MACHINE_ENV,
  type LargeFileJob,
} from '../../functions/contract/large-files.js';
import { expect } from 'vitest';
import { processObject } from '../../functions/pipeline/index.js';
import type { LargeFileStarter } from '../../functions/pipeline/large-file-runs.js';
import { RANGE_BYTES_ENV } from '../../functions/pipeline/range-plan.js';
import { functionEnvironment, SDK_ENDPOINT_ENV } from '../../twin/lambda/function-environment.js';
import { type LocalStepFunctions, useLocalStepFunctions } from '../../twin/stepfunctions/step-functions-server.js';
import { keepEnvironment } from './environment.js';
import type { TestS3 } from './local-s3.js';

// The in-process steps are the split benchmark's too.
export { inProcessSteps } from '../../bench/large-file-steps.js';

/** A starter for processObject that records each job it is handed instead of starting it: the test runs it. */
export function recordingStarter(): { jobs: LargeFileJob[]; startLargeFile: LargeFileStarter } {
  const jobs: LargeFileJob[] = [];
  return {
    jobs,
    startLargeFile: {
      runs: async () => [],
      start: async (id, attempt, job) => {
        jobs.push(job);
        return { started: true, executionArn: `local:${id}-${attempt}` };
      },
    },
  };
}

/**
 * The job processObject plans for `incoming/<path>` (already in the bucket) when it hands the file
 * over in ranges of `rangeBytes`, as the state machine would get it; answers at `solved/<path>`.
 */
export async function handedOver(s3: TestS3, path: string, rangeBytes: number): Promise<LargeFileJob> {
  const { jobs, startLargeFile } = recordingStarter();
  const handed = await processObject({
    client: s3.client,
    bucket: s3.bucket,
    sourceKey: `incoming/${path}`,
    outputKey: `solved/${path}`,
    reportKey: `reports/${path}.json`,
    ranges: { timeoutSeconds: 900, threads: 1, rangeBytes },
    startLargeFile,
  });
  expect(handed).toMatchObject({ status: 'skipped', reason: 'handed-over' });
  return jobs[0]!;
}

/**
 * Points the files function at the twin through process.env, as the executions read it (a worker
 * thread takes the environment at its start): S3 at `s3Endpoint`, Step Functions `sfn` ended at
 * `timeoutMs`, ranges of `rangeBytes`. Returns what puts the environment back.
 */
export function useTwinForLargeFiles(
  s3Endpoint: string,
  sfn: Pick<LocalStepFunctions, 'endpoint' | 'stateMachineArn'>,
  timeoutMs: number,
  rangeBytes: number,
): () => void {
  const environment = { ...functionEnvironment(s3Endpoint), [RANGE_BYTES_ENV]: String(rangeBytes) };
  const restore = keepEnvironment([
    ...Object.keys(environment),
    FILES_TIMEOUT_ENV,
    LARGE_FILE_STATE_MACHINE_ENV,
    SDK_ENDPOINT_ENV.sfn,
  ]);
  Object.assign(process.env, environment);
  useLocalStepFunctions(process.env, sfn, timeoutMs);
  return restore;
}
