// The context Lambda passes a handler, built in one place for every invocation the twin runs: in
// the runtime's worker threads (runtime-worker.mjs) and in-process (lambda-context.ts). Plain
// JavaScript so a worker thread loads it with no TypeScript loader; typed in context.d.mts.
import { randomUUID } from 'node:crypto';

/** A log stream name as Lambda gives an execution environment. */
export function newLogStreamName() {
  return `local/[$LATEST]${randomUUID().replaceAll('-', '')}`;
}

export function lambdaContext({ functionName, requestId, deadline, accountId, region, memoryMb, logStreamName }) {
  const unsupported = (what) => () => {
    throw new Error(`context.${what}() is not supported; return or throw from the async handler`);
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${accountId}:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName,
    // The deadline the twin ends the invocation at, not one counted from the handler's start: a new
    // thread starts late on a busy machine, and the handler would think it had time it has not.
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported('done'),
    fail: unsupported('fail'),
    succeed: unsupported('succeed'),
  };
}
