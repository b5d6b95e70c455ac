/**
 * The local S3 part of `npm start`: the s3rver server, its incoming/ uploads delivered to the real
 * handler as AWS-shaped S3 events, and the sample objects of events/s3-*.json.
 */
import path from 'node:path';
import { prefixes } from '../../functions/contract/service-layout.js';
import { useFunctionEnvironment } from '../lambda/function-environment.js';
import { localS3Client } from './local-s3-client.js';
import { endWarmEnvironments, invokeFunctionAsync } from '../lambda/executions.js';
import { LOCAL_ACCESS_KEY, startS3Server } from './s3-server.js';
import { seedSamples } from './s3-samples.js';
import { filesConcurrency, filesTimeoutMs, loadStackLimits } from '../stack-limits.js';
import {
  executionsDirectoryFor,
  startStackStepFunctions,
  useLocalStepFunctions,
} from '../stepfunctions/step-functions-server.js';

/** The shape start.ts runs (kept structural: importing start.ts would start it). */
export interface RunningS3Service {
  banner: string[];
  close(): Promise<void>;
}

/**
 * If the s3rver process dies it is restarted (s3-server.ts says so on stderr); if it cannot be,
 * `fail` ends `npm start` rather than leave the HTTP API serving beside a dead S3.
 */
export async function startS3Service(context: { fail(error: Error): void }): Promise<RunningS3Service> {
  await loadStackLimits(); // synthesizes the stack's template once, if no cached one answers
  const timeoutMs = filesTimeoutMs();
  const server = await startS3Server({
    // As in AWS, each upload is one asynchronous invocation in an execution of its own, ended at
    // the files function's timeout, retried twice, then kept as the failed-events queue keeps it.
    onObjectCreated: async (event) => {
      const { invocation, attempts, throttled, failedEventFile } = await invokeFunctionAsync(event, { timeoutMs });
      if (!invocation.ok && attempts === 0)
        process.stderr.write(`S3 event refused by Lambda (${invocation.errorType}: ${invocation.errorMessage})\n`);
      else if (!invocation.ok)
        process.stderr.write(
          `S3 event failed ${attempts} times${throttled ? ` (${throttled} of them throttled: the files pool was full)` : ''} (${invocation.errorType}: ${invocation.errorMessage}); kept in ${path.relative(process.cwd(), failedEventFile ?? '')}\n`,
        );
    },
    onDeliveryError: (error) =>
      process.stderr.write(
        `S3 event: could not be delivered: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    onServerLost: (error) => context.fail(new Error(`the local S3 server is lost: ${error.message}`)),
  });
  // The handler's S3 client reads these on first use: it must talk to this server, not to AWS,
  // and sign as the files function's role, so the twin decides its calls by that role's policies.
  useFunctionEnvironment(process.env, server.endpoint);
  // A file too large for one invocation is handed to the large-file state machine: played here,
  // its ranges several at once, each an execution of its own ended at the function's timeout.
  // Its executions are kept beside the S3 data, so a restarted `npm start` resumes the ones it left running.
  const sfn = await startStackStepFunctions(server.endpoint, server.bucket, timeoutMs, {
    dataDirectory: executionsDirectoryFor(server.directory),
    onExecutionDone: (name, summary) =>
      process.stderr.write(
        `large file ${name}: ${summary.status}, ${summary.ranges} ranges, ${summary.invocations} invocations` +
          `${summary.error ? ` (${summary.error.Error}: ${summary.error.Cause})` : ''}\n`,
      ),
  });
  useLocalStepFunctions(process.env, sfn, timeoutMs);
  const client = localS3Client(server.endpoint, 'admin');
  await seedSamples(client, server.bucket);
  client.destroy();
  const cli = `AWS_ACCESS_KEY_ID=${LOCAL_ACCESS_KEY} AWS_SECRET_ACCESS_KEY=${LOCAL_ACCESS_KEY} aws --endpoint-url ${server.endpoint} s3`;
  return {
    banner: [
      `S3          ${server.endpoint}  bucket ${server.bucket}, key/secret ${LOCAL_ACCESS_KEY}/${LOCAL_ACCESS_KEY}, data in ${path.relative(process.cwd(), server.directory) || server.directory}`,
      `  try:      ${cli} cp puzzles.txt s3://${server.bucket}/${prefixes.incoming}puzzles.txt`,
      `  then:     ${cli} cp s3://${server.bucket}/${prefixes.solved}puzzles.txt -   (report: ${prefixes.reports}puzzles.txt.json)`,
      `  events:   npm run invoke -- events/s3-put.json`,
      `  limits:   the files function runs ${filesConcurrency()} at once, as deployed (past it: throttled, S3 events retried for up to 6 h)`,
    ],
    close: async () => {
      await sfn.close();
      await server.close();
      await endWarmEnvironments();
    },
  };
}
