import type { S3Client } from '@aws-sdk/client-s3';
import { type HandleLargeFileEventOptions, handleLargeFileEvent } from '../functions/large-file/index.js';
import type { StepInvoker } from '../twin/stepfunctions/large-file-run.js';

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
