/**
 * Starting the large-file state machine: the runs of one source version are executions named
 * `file-<version id>-<attempt>` (largeFileExecutionName). Step Functions keeps a name for 90 days
 * after its run ends, whatever the status, so a name per version alone would block a version whose
 * run failed, timed out, was aborted or was superseded: the next run takes the next attempt. Which
 * attempts exist, and how each ended, is asked of Step Functions itself (DescribeExecution), so a
 * duplicate S3 event or the sweep finds a running run instead of starting a second.
 */
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { LARGE_FILE_STATE_MACHINE_ENV, largeFileExecutionName } from '../contract/large-files.js';
import { ServiceError } from '../contract/service-error.js';
import type { LargeFileStarter, RunRecord } from './large-file-runs.js';
import { readEnv } from '../contract/environment.js';

export class LargeFileNotConfiguredError extends ServiceError<'LARGE_FILE_NOT_CONFIGURED'> {
  override readonly name = 'LargeFileNotConfiguredError';
  constructor() {
    super(
      'LARGE_FILE_NOT_CONFIGURED',
      `The file needs ranges, but ${LARGE_FILE_STATE_MACHINE_ENV} (the large-file state machine's ARN) is not set.`,
    );
  }
}

/** A version with more runs than any sequence of uploads makes: asking further would be a loop. */
const MAX_RUNS_LISTED = 1000;

let client: SFNClient | undefined;

/**
 * Step Functions, at the ARN in the function's environment. This module (and the SDK client with
 * it) is loaded on first use (large-file-job.ts imports it lazily): only a file too large for one
 * invocation pays for it. Where it connects and as whom the SDK reads from the environment (in
 * Lambda the role's credentials; the local twin gives AWS_ENDPOINT_URL_SFN and its keys the same way).
 */
function stepFunctions(): { client: SFNClient; stateMachineArn: string } {
  const stateMachineArn = readEnv(LARGE_FILE_STATE_MACHINE_ENV);
  if (!stateMachineArn) throw new LargeFileNotConfiguredError();
  client ??= new SFNClient({});
  return { client, stateMachineArn };
}

function executionArnOf(stateMachineArn: string, name: string): string {
  return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
}

async function describe(jobId: string, attempt: number): Promise<RunRecord | undefined> {
  const sfn = stepFunctions();
  try {
    const answer = await sfn.client.send(
      new DescribeExecutionCommand({
        executionArn: executionArnOf(sfn.stateMachineArn, largeFileExecutionName(jobId, attempt)),
      }),
    );
    return {
      attempt,
      status: answer.status ?? 'RUNNING',
      ...(answer.error ? { error: answer.error } : {}),
      ...(answer.cause ? { cause: answer.cause } : {}),
    };
  } catch (error) {
    if ((error as { name?: string }).name === 'ExecutionDoesNotExist') return undefined;
    throw error;
  }
}

export const startWithStepFunctions: LargeFileStarter = {
  runs: async (jobId) => {
    // Without a state machine no run can exist: the hand-over goes on to plan (where a file that is
    // no file, a broken .gz, is rejected as such) and only a start needs the machine.
    if (!readEnv(LARGE_FILE_STATE_MACHINE_ENV)) return [];
    const runs: RunRecord[] = [];
    for (let attempt = 1; attempt <= MAX_RUNS_LISTED; attempt++) {
      const run = await describe(jobId, attempt);
      if (!run) break;
      runs.push(run);
    }
    return runs;
  },
  start: async (jobId, attempt, job) => {
    const sfn = stepFunctions();
    try {
      const answer = await sfn.client.send(
        new StartExecutionCommand({
          stateMachineArn: sfn.stateMachineArn,
          name: largeFileExecutionName(jobId, attempt),
          input: JSON.stringify({ job }),
        }),
      );
      return { started: true, executionArn: answer.executionArn ?? '' };
    } catch (error) {
      // Another delivery of the same upload planned and started this attempt first (same name,
      // another input): that run is this version's; a second would solve the same file twice.
      if ((error as { name?: string }).name !== 'ExecutionAlreadyExists') throw error;
      const run = await describe(jobId, attempt);
      return { started: false, reason: 'already-started', status: run?.status ?? 'RUNNING' };
    }
  },
};
