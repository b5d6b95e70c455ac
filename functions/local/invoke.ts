/**
 * `npm run invoke -- events/NAME.json [more.json...]`: run the handler on sample events, like
 * `sam local invoke`. Logs go to stderr; each result is printed to stdout as JSON (for an HTTP
 * result, the body is shown parsed when it is JSON, so it reads as the client would see it).
 * Exits 1 if the handler throws, as the invocation would fail in AWS.
 */
import { loadDeployedHandler } from './deployed-handler.js';
import { Console } from 'node:console';
import { readFile } from 'node:fs/promises';
import { createLambdaContext } from './lambda-context.js';
import { DEFAULT_S3_PORT } from './s3-server.js';

function readable(result: unknown): unknown {
  if (typeof result !== 'object' || result === null || typeof (result as { body?: unknown }).body !== 'string')
    return result;
  const { body, ...rest } = result as { body: string };
  try {
    return { ...rest, body: JSON.parse(body) as unknown };
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
  process.env.S3_ENDPOINT ||= `http://127.0.0.1:${process.env.S3_PORT || DEFAULT_S3_PORT}`;
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const handler = await loadDeployedHandler();
  let failed = 0;
  for (const file of files) {
    const event = JSON.parse(await readFile(file, 'utf8')) as unknown;
    const context = createLambdaContext();
    const start = performance.now();
    try {
      const result = await handler(event, context);
      process.stderr.write(`${file}: ${context.awsRequestId} in ${(performance.now() - start).toFixed(2)} ms\n`);
      process.stdout.write(`${JSON.stringify(readable(result), null, 2)}\n`);
    } catch (error) {
      failed++;
      process.stderr.write(
        `${file}: the handler threw (the invocation fails; AWS would retry): ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.stdout.write(
        `${JSON.stringify({ errorType: error instanceof Error ? error.name : 'Error', errorMessage: error instanceof Error ? error.message : String(error) }, null, 2)}\n`,
      );
    }
  }
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
