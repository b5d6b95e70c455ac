import type { S3Client } from '@aws-sdk/client-s3';
import type { LargeFileJob } from '../../functions/contract/large-files.js';
import { handleLargeFileEvent, type HandleLargeFileEventOptions } from '../../functions/large-file/index.js';
import type { StepInvoker } from '../../functions/local/large-file-run.js';
import type { LargeFileStarter } from '../../functions/pipeline/large-file-starter.js';

/**
 * Each step of a large-file job run in this process with the client `client()` gives (the files
 * function's role; read when a step runs, so a test's beforeAll may set it), an error as Step
 * Functions sees it: its name, and Lambda's error payload as the cause.
 */
export const inProcessSteps =
  (client: () => S3Client, options: Omit<HandleLargeFileEventOptions, 'client' | 'timeLeftMs'> = {}): StepInvoker =>
  async (event) => {
    try {
      return { ok: true, result: await handleLargeFileEvent(event, { client: client(), ...options }) };
    } catch (error) {
      const e = error as Error;
      return { ok: false, error: e.name, cause: JSON.stringify({ errorType: e.name, errorMessage: e.message }) };
    }
  };

/** A starter for processObject that records each job it is handed instead of starting it: the test runs it. */
export function recordingStarter(): { jobs: LargeFileJob[]; startLargeFile: LargeFileStarter } {
  const jobs: LargeFileJob[] = [];
  return {
    jobs,
    startLargeFile: async (id, job) => {
      jobs.push(job);
      return { started: true, executionArn: `local:${id}` };
    },
  };
}
