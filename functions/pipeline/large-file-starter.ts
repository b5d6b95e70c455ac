/**
 * Starting the large-file state machine: one execution per source version, named after it, so a
 * duplicate S3 event (or the sweep) finds the job already started instead of starting a second.
 */
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import {
  LARGE_FILE_STATE_MACHINE_ENV,
  LOCAL_SFN_ENDPOINT_ENV,
  largeFileExecutionName,
  type LargeFileJob,
} from '../contract/large-files.js';
import { ServiceError } from '../contract/service-error.js';

export type StartOutcome = { started: true; executionArn: string } | { started: false; reason: 'already-started' };

/** Starts the job's execution; `already-started` when its name was used (the job runs, or ran). */
export type LargeFileStarter = (jobId: string, job: LargeFileJob) => Promise<StartOutcome>;

export class LargeFileNotConfiguredError extends ServiceError<'LARGE_FILE_NOT_CONFIGURED'> {
  override readonly name = 'LargeFileNotConfiguredError';
  constructor() {
    super(
      'LARGE_FILE_NOT_CONFIGURED',
      `The file needs ranges, but ${LARGE_FILE_STATE_MACHINE_ENV} (the large-file state machine's ARN) is not set.`,
    );
  }
}

let client: SFNClient | undefined;

/**
 * Step Functions, at the ARN in the function's environment. This module (and the SDK client with
 * it) is loaded on first use (large-file-job.ts imports it lazily): only a file too large for one
 * invocation pays for it. Locally the twin's Step Functions
 * endpoint answers it (AWS_ENDPOINT_URL_SFN), deciding the call against the synthesized policies.
 */
export const startWithStepFunctions: LargeFileStarter = async (jobId, job) => {
  const stateMachineArn = process.env[LARGE_FILE_STATE_MACHINE_ENV];
  if (!stateMachineArn) throw new LargeFileNotConfiguredError();
  // The twin's endpoint, signed with the function's local key (as its S3 client is); in AWS the role's.
  const local = process.env[LOCAL_SFN_ENDPOINT_ENV];
  client ??= new SFNClient(
    local
      ? {
          endpoint: local,
          region: process.env.AWS_REGION || 'us-east-1',
          credentials: {
            accessKeyId: process.env.S3_ACCESS_KEY_ID || 'LOCALFILESFUNCTION',
            secretAccessKey: process.env.S3_SECRET_ACCESS_KEY || 'LOCALFILESFUNCTION',
          },
        }
      : {},
  );
  try {
    const answer = await client.send(
      new StartExecutionCommand({
        stateMachineArn,
        name: largeFileExecutionName(jobId),
        input: JSON.stringify({ job }),
      }),
    );
    return { started: true, executionArn: answer.executionArn ?? '' };
  } catch (error) {
    // A name used by a running execution with another input, or by a finished one: either way
    // this version's job exists; a second would solve the same file twice.
    if ((error as { name?: string }).name === 'ExecutionAlreadyExists')
      return { started: false, reason: 'already-started' };
    throw error;
  }
};
