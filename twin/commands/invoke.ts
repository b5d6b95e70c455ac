/**
 * `npm run invoke -- events/NAME.json [more.json...]`: run the handler on sample events, like
 * `sam local invoke`. Logs go to stderr; each result is printed to stdout as JSON (for an HTTP
 * result, a JSON body is shown parsed and any other body as its text, as the client would see it).
 * Exits 1 if an invocation fails, as it would fail in AWS.
 *
 * Each event runs in an execution of its own, ended at its function's timeout (the API's, or the
 * files function's: SUDOKU_FILES_TIMEOUT_SECONDS overrides it).
 *
 * A schedule's input (`events/batch-schedule-*.json`, `{"mode": "batch" | "sweep"}`) is not an
 * event of the function: in AWS it starts the state machine. Given here, the local runner runs
 * the whole job instead, in this process (as `npm run batch`: the files function's credentials for
 * the files, the state machine's for the listing and the run report), and its summary is the result.
 */
import { Console } from 'node:console';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SOLVER_THREADS_ENV } from '../../functions/contract/service-layout.js';
import { useFunctionEnvironment } from '../lambda/function-environment.js';
import { endWarmEnvironments, invokeFunction, type Invocation } from '../lambda/executions.js';
import type { RunRequest } from '../stepfunctions/run-request.js';
import { DEFAULT_BUCKET, DEFAULT_S3_PORT } from '../s3/s3-server.js';
import { filesTimeoutMs, loadStackLimits } from '../stack-limits.js';

/** An API Gateway HTTP API (payload 2.0) event: what the API function receives. */
function isHttpApiEvent(event: unknown): boolean {
  const context = (event as { requestContext?: { http?: unknown } } | null)?.requestContext;
  return typeof context === 'object' && context !== null && 'http' in context;
}

/** The response's Content-Type, whatever the header's case; undefined when it has none. */
function contentTypeOf(result: { headers?: unknown }): string | undefined {
  if (typeof result.headers !== 'object' || result.headers === null) return undefined;
  for (const [name, value] of Object.entries(result.headers)) {
    if (name.toLowerCase() === 'content-type' && typeof value === 'string') return value;
  }
  return undefined;
}

/** `application/json`, `application/problem+json` and the like: bodies shown parsed. */
function isJsonType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * An HTTP result with its body shown as the client would read it: parsed when the response says
 * it is JSON, otherwise kept as the text it is (a one-line text/plain answer is not a number).
 */
function readable(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const response = result as { body?: unknown; headers?: unknown; isBase64Encoded?: unknown };
  if (typeof response.body !== 'string' || response.isBase64Encoded === true) return result;
  if (!isJsonType(contentTypeOf(response))) return result;
  try {
    return { ...response, body: JSON.parse(response.body) as unknown };
  } catch {
    return result;
  }
}

export async function main(files: string[]): Promise<number> {
  if (files.length === 0) {
    process.stderr.write('usage: npm run invoke -- events/NAME.json [more.json ...]\n');
    return 2;
  }
  // Keep stdout for results only (pipe it to jq). Powertools writes to stdout; in dev mode it
  // writes through the global console instead (pretty-printed, metrics off), which goes to stderr here.
  process.env.POWERTOOLS_DEV ??= 'true';
  // Like `sam local invoke` against the local stack: S3 events read and write the bucket of `npm start`.
  const s3Endpoint = process.env.S3_ENDPOINT || `http://127.0.0.1:${process.env.S3_PORT || DEFAULT_S3_PORT}`;
  useFunctionEnvironment(process.env, s3Endpoint);
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const deployed = await loadStackLimits();
  // Imported once the environment above is set: Powertools reads it when the logger is created.
  const { handleRunRequest, isRunRequest } = await import('../stepfunctions/run-request.js');
  const { inExecutions } = await import('../stepfunctions/batch-run.js');
  const runLocally = async (request: RunRequest): Promise<Invocation> => {
    const requestId = randomUUID();
    const { localS3Client } = await import('../s3/local-s3-client.js');
    const runClient = localS3Client(s3Endpoint, 'run');
    try {
      // Each group of files in an execution ended at the files function's timeout, as the map's children.
      const invoke = inExecutions({
        timeoutMs: filesTimeoutMs(),
        functionName: 'sudoku-files-local',
        logsTo: 'stderr',
        env: { [SOLVER_THREADS_ENV]: process.env[SOLVER_THREADS_ENV] || '1' },
      });
      return { ok: true, requestId, result: await handleRunRequest(request, { runClient, invoke }) };
    } catch (error) {
      return {
        ok: false,
        requestId,
        errorType: error instanceof Error ? error.name : 'Error',
        errorMessage: error instanceof Error ? error.message : String(error),
        timedOut: false,
      };
    } finally {
      runClient.destroy();
    }
  };
  // An S3 event of a file too large for one invocation starts the twin's large-file state machine.
  const { startStackStepFunctions, useLocalStepFunctions } = await import('../stepfunctions/step-functions-server.js');
  const sfn = await startStackStepFunctions(s3Endpoint, process.env.BUCKET || DEFAULT_BUCKET, filesTimeoutMs());
  useLocalStepFunctions(process.env, sfn, filesTimeoutMs());
  let failed = 0;
  for (const file of files) {
    const event = JSON.parse(await readFile(file, 'utf8')) as unknown;
    // Each event in an execution of its own, ended at its function's timeout as Lambda ends it:
    // HTTP API events go to the API function, everything else to the files function.
    const api = isHttpApiEvent(event);
    const start = performance.now();
    const invocation = isRunRequest(event)
      ? await runLocally(event)
      : await invokeFunction(event, {
          timeoutMs: api ? deployed.api.timeoutSeconds * 1000 : filesTimeoutMs(),
          functionName: api ? 'sudoku-api-local' : 'sudoku-files-local',
          logsTo: 'stderr',
        });
    if (invocation.ok) {
      process.stderr.write(`${file}: ${invocation.requestId} in ${(performance.now() - start).toFixed(2)} ms\n`);
      process.stdout.write(`${JSON.stringify(readable(invocation.result), null, 2)}\n`);
    } else {
      failed++;
      process.stderr.write(
        `${file}: the invocation failed (AWS would retry): ${invocation.errorType}: ${invocation.errorMessage}\n`,
      );
      process.stdout.write(
        `${JSON.stringify({ errorType: invocation.errorType, errorMessage: invocation.errorMessage }, null, 2)}\n`,
      );
    }
  }
  if (sfn.executions.size > 0) {
    process.stderr.write(`waiting for ${sfn.executions.size} large-file execution(s)\n`);
    await sfn.idle();
    for (const [name, { summary }] of sfn.executions) {
      process.stderr.write(
        `${name}: ${summary?.status}, ${summary?.ranges} ranges, ${summary?.invocations} invocations\n`,
      );
      if (summary?.status !== 'SUCCEEDED') failed++;
    }
  }
  await sfn.close();
  await endWarmEnvironments();
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
