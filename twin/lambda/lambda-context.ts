import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '../iam/local-account.js';
import { lambdaContext, newLogStreamName } from './context.mjs';

export interface LambdaContextOptions {
  functionName?: string;
  requestId?: string;
  /** The function's timeout; getRemainingTimeInMillis counts down from it. */
  timeoutMs?: number;
  memoryMb?: number;
}

/** A Lambda context as the runtime passes it, for running the handler in this process. */
export function createLambdaContext(options: LambdaContextOptions = {}): Context {
  return lambdaContext({
    functionName: options.functionName ?? 'sudoku-local',
    requestId: options.requestId ?? randomUUID(),
    deadline: Date.now() + (options.timeoutMs ?? 30_000),
    accountId: LOCAL_ACCOUNT_ID,
    region: LOCAL_REGION,
    memoryMb: options.memoryMb ?? 1769,
    logStreamName: newLogStreamName(),
  });
}
