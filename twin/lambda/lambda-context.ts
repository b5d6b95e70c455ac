import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

export interface LambdaContextOptions {
  functionName?: string;
  requestId?: string;
  /** The function's timeout; getRemainingTimeInMillis counts down from it. */
  timeoutMs?: number;
  memoryMb?: number;
}

/** A Lambda context as the runtime passes it, for running the handler outside AWS. */
export function createLambdaContext(options: LambdaContextOptions = {}): Context {
  const functionName = options.functionName ?? 'sudoku-local';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const unsupported = (what: string) => () => {
    throw new Error(`context.${what}() is not supported; return or throw from the async handler`);
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: String(options.memoryMb ?? 1024),
    awsRequestId: options.requestId ?? randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/[$LATEST]${randomUUID().replaceAll('-', '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported('done'),
    fail: unsupported('fail'),
    succeed: unsupported('succeed'),
  };
}
