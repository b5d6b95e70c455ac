// The Lambda runtime the twin runs the deployed bundle in: one execution environment per worker
// thread. It loads the bundle on its first invocation (Lambda's init), then runs one invocation per
// message with the context Lambda passes. Plain JavaScript so a worker thread loads it as it is,
// with no TypeScript loader, from the tests, `npm start` and the bench alike (twin/lambda/runtime.ts
// starts it and types its messages).
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';

const { bundle, functionName, accountId, memoryMb } = workerData;
const logStreamName = `local/[$LATEST]${randomUUID().replaceAll('-', '')}`;
let loaded;

/** The context Lambda passes; the deadline is the one the parent ends the execution at. */
function contextFor(requestId, deadline) {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:${accountId}:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done() {},
    fail() {},
    succeed() {},
  };
}

parentPort.on('message', async ({ event, requestId, deadline }) => {
  const start = performance.now();
  try {
    loaded ??= import(bundle);
    const { handler } = await loaded;
    const result = await handler(event, contextFor(requestId, deadline));
    parentPort.postMessage({ ok: true, result, ranMs: performance.now() - start });
  } catch (error) {
    parentPort.postMessage({
      ok: false,
      errorType: error?.name || 'Error',
      errorMessage: String(error?.message ?? error),
      errorStack: String(error?.stack ?? error),
      errorResult: error && typeof error.result === 'object' ? error.result : undefined,
      ranMs: performance.now() - start,
    });
  }
});
