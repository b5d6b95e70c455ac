/**
 * `npm run batch [-- --sweep] [--prefix P]`: the scheduled batch run against the local S3 of
 * `npm start`. The job itself (list, group, bounded concurrency, run report) is `runBatchJob`
 * (batch-run.ts), around the function's own map-batch handler; this file only reads the command
 * line and the environment, shows progress and prints the summary.
 */
import { pathToFileURL } from 'node:url';
import type { RunSummary } from '../stepfunctions/batch-run.js';
import { BATCH_USAGE, parseBatchArguments } from './batch-arguments.js';
import { SOLVER_THREADS_ENV } from '../../functions/contract/service-layout.js';
import { BatchProgress } from './batch-progress.js';
import { endWarmEnvironments } from '../lambda/executions.js';
import { functionEnvironment } from '../lambda/function-environment.js';
import { DEFAULT_BUCKET, DEFAULT_S3_PORT } from '../s3/s3-server.js';

export const EXIT_OK = 0;
export const EXIT_FILES_FAILED = 1;
export const EXIT_CANNOT_RUN = 2;

function summaryLines(summary: RunSummary): string[] {
  const f = summary.files;
  const lines = [
    `${summary.mode} run ${summary.runId} of s3://${summary.bucket}/${summary.prefix}: ${summary.listed} object(s) in ${(summary.durationMs / 1000).toFixed(2)} s`,
    `  files:   ${f.solved} solved, ${f.skipped} skipped (already solved), ${f.rejected} rejected (not puzzle files), ${f.ignored} ignored, ${f.failed} failed`,
    `  puzzles: ${summary.puzzles.rows} (${summary.puzzles.solved} solved, ${summary.puzzles.failed} not solved: see each file's report)`,
    `  rate:    ${summary.filesPerSecond} files/s, ${summary.puzzlesPerSecond} puzzles/s`,
  ];
  if (summary.reportPrefix)
    lines.push(
      `  report:  s3://${summary.bucket}/${summary.reportPrefix}summary.json (and manifest.json, SUCCEEDED_n.json, FAILED_n.json)`,
    );
  for (const failure of summary.failures)
    lines.push(`  failed:  ${failure.key}: ${failure.error.code}: ${failure.error.message}`);
  return lines;
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const command = parseBatchArguments(argv);
  if (command.kind === 'help') {
    process.stdout.write(BATCH_USAGE);
    return EXIT_OK;
  }
  if (command.kind === 'usage-error') {
    process.stderr.write(`npm run batch: ${command.message}\n\n${BATCH_USAGE}`);
    return EXIT_CANNOT_RUN;
  }
  // The S3 pipeline logs a JSON line per file; here the progress line and the summary say it.
  // Set POWERTOOLS_LOG_LEVEL=INFO to see them too. Read when the logger is created, at import.
  env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const { localS3Client } = await import('../s3/local-s3-client.js');
  const { inExecutions, runBatchJob } = await import('../stepfunctions/batch-run.js');

  const endpoint = env.S3_ENDPOINT || `http://127.0.0.1:${env.S3_PORT || DEFAULT_S3_PORT}`;
  const bucket = env.BUCKET || DEFAULT_BUCKET;
  // As deployed: the files function solves with its role's credentials, the state machine lists
  // the prefix and writes the run report with its own (the twin decides each by its policies).
  const client = localS3Client(endpoint, 'files');
  const runClient = localS3Client(endpoint, 'run');
  const progress = new BatchProgress(process.stderr);
  // A file too large for one invocation is handed to the twin's large-file state machine, whose
  // ranges run several at once; the run waits for them, as a person waits for the outputs.
  const { filesTimeoutMs, loadStackLimits } = await import('../stack-limits.js');
  await loadStackLimits(); // synthesizes the stack's template once, if no cached one answers
  const { startStackStepFunctions, useLocalStepFunctions } = await import('../stepfunctions/step-functions-server.js');
  const sfn = await startStackStepFunctions(endpoint, bucket, filesTimeoutMs());
  useLocalStepFunctions(env, sfn, filesTimeoutMs());
  // Each group is one invocation of the files function in an execution of its own, ended at its
  // timeout as Lambda ends it, with the function's role and one solver thread (1 vCPU at 1,769 MB).
  const invoke = inExecutions({
    timeoutMs: filesTimeoutMs(env),
    functionName: 'sudoku-files-local',
    logsTo: 'stderr',
    env: {
      ...(env as Record<string, string>),
      ...functionEnvironment(endpoint),
      BUCKET: bucket,
      [SOLVER_THREADS_ENV]: env[SOLVER_THREADS_ENV] || '1',
    },
  });
  // The map waits 10 s, then 20 s, before retrying a group with failed files; tests make it short.
  const retrySeconds = Number(env.SUDOKU_BATCH_RETRY_SECONDS);
  try {
    const summary = await runBatchJob({
      client,
      runClient,
      bucket,
      mode: command.mode,
      ...(command.prefix === undefined ? {} : { prefix: command.prefix }),
      ...(command.maxConcurrency === undefined ? {} : { maxConcurrency: command.maxConcurrency }),
      ...(command.itemsPerInvocation === undefined ? {} : { itemsPerInvocation: command.itemsPerInvocation }),
      invoke,
      ...(Number.isFinite(retrySeconds) && env.SUDOKU_BATCH_RETRY_SECONDS
        ? { retry: { intervalSeconds: retrySeconds } }
        : {}),
      onListed: (count) => progress.listed(count),
      onItem: (result) => progress.item(result),
    });
    progress.finish();
    process.stdout.write(`${summaryLines(summary).join('\n')}\n`);
    if (sfn.executions.size > 0) {
      process.stdout.write(
        `  large:   ${sfn.executions.size} file(s) handed to the large-file state machine; waiting for them\n`,
      );
      await sfn.idle();
      for (const [name, { summary: done }] of sfn.executions)
        process.stdout.write(
          `  large:   ${name}: ${done?.status}, ${done?.ranges} ranges, ${done?.invocations} invocations${done?.error ? ` (${done.error.Error}: ${done.error.Cause})` : ''}\n`,
        );
    }
    return summary.files.failed > 0 ? EXIT_FILES_FAILED : EXIT_OK;
  } catch (error) {
    // Listing or writing the run report failed: nothing says which files were done.
    progress.finish();
    const e = error as { name?: string; message?: string; code?: string };
    const hint =
      e.code === 'ECONNREFUSED' || e.name === 'NoSuchBucket'
        ? ` (is \`npm start\` running? endpoint ${endpoint}, bucket ${bucket})`
        : '';
    process.stderr.write(
      `npm run batch: could not run against s3://${bucket} at ${endpoint}: ${e.name ?? 'Error'}: ${e.message ?? String(error)}${hint}\n`,
    );
    return EXIT_CANNOT_RUN;
  } finally {
    client.destroy();
    runClient.destroy();
    await sfn.close();
    await endWarmEnvironments();
  }
}

// Run only as the `npm run batch` script, so tests can import main().
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await main(process.argv.slice(2));
