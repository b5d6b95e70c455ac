// The Lambda runtime the twin runs the deployed bundle in: one execution environment per worker
// thread. It loads the bundle on its first invocation (Lambda's init), then runs one invocation per
// message with the context Lambda passes. Plain JavaScript so a worker thread loads it as it is,
// with no TypeScript loader, from the tests, `npm start` and the bench alike (twin/lambda/runtime.ts
// starts it and types its messages).
import { parentPort, workerData } from 'node:worker_threads';
import { lambdaContext, newLogStreamName } from './context.mjs';

const { bundle, functionName, accountId, region, memoryMb } = workerData;
const logStreamName = newLogStreamName();
let loaded;

parentPort.on('message', async ({ event, requestId, deadline }) => {
  const start = performance.now();
  try {
    loaded ??= import(bundle);
    const { handler } = await loaded;
    const result = await handler(
      event,
      lambdaContext({ functionName, requestId, deadline, accountId, region, memoryMb, logStreamName }),
    );
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
