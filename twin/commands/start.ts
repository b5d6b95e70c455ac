/**
 * `npm start`: the whole service on localhost, started in order by `main()`. Each service is a
 * function that starts it and says what it serves; add one to `services` to run it too.
 */
import { loadDeployedHandler } from '../lambda/deployed-handler.js';
import { pathToFileURL } from 'node:url';
import { startHandlerThreads } from '../lambda/handler-threads.js';
import { gatewayAuthorization } from '../gateway/gateway-authorization.js';
import { startHttpServer } from '../gateway/http-server.js';
import { loadStackTemplate } from '../iam/stack-template.js';
import { loadStackLimits, stackGatewayLimits } from '../stack-limits.js';
import { routeKey } from '../../functions/contract/api-routes.js';
import { startS3Service } from '../s3/s3-service.js';

export interface RunningService {
  /** Lines printed once the service is up: what it serves and how to try it. */
  banner: string[];
  close(): Promise<void>;
}

/** What a running service may ask of `npm start`. */
export interface ServiceContext {
  /** The service is lost for good: `npm start` says why on stderr, stops everything and exits non-zero. */
  fail(error: Error): void;
}

export type LocalService = (context: ServiceContext) => Promise<RunningService>;

/**
 * The HTTP API on http://127.0.0.1:${PORT:-3000}, answered by the real handler on worker threads,
 * behind the stack's route throttles and the API function's pool (twin/stack-limits.ts).
 */
export const httpApiService: LocalService = async () => {
  await loadDeployedHandler(); // fails early, and clearly, when the bundle is missing
  const deployed = await loadStackLimits();
  const limits = stackGatewayLimits(process.env, deployed);
  // Ended at the API function's timeout as deployed, as Lambda ends it.
  const threads = startHandlerThreads({ timeoutMs: deployed.api.timeoutSeconds * 1000 });
  const port = Number(process.env.PORT ?? 3000);
  const server = await startHttpServer({
    port,
    handler: threads,
    limits,
    // Each route's authorization as the stack synthesizes it (apiAuth in cdk.json's context).
    authorization: gatewayAuthorization(await loadStackTemplate()),
    onHandlerError: (error) =>
      process.stderr.write(`handler failed: ${error instanceof Error ? error.stack : String(error)}\n`),
  });
  const solve = limits.routeThrottles[routeKey('solve')]!;
  const toolkit = (['grade', 'hint', 'puzzle'] as const)
    .map((name) => {
      const { rate, burst } = limits.routeThrottles[routeKey(name)]!;
      return `${routeKey(name)} ${rate}/s, burst ${burst}`;
    })
    .join('; ');
  const board = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
  return {
    banner: [
      `HTTP API    ${server.url}  (POST /solve, POST /grade, POST /hint, GET /puzzle, GET /health, GET /openapi.json; a web page at ${server.url}/)`,
      `  try:      curl -s ${server.url}/solve -H 'content-type: application/json' -d '{"board":"${board}"}'`,
      `  or lines: printf '${board}\\n' | curl -s ${server.url}/solve -H 'content-type: text/plain' --data-binary @-`,
      `  limits:   as deployed: POST /solve ${solve.rate} requests/s, burst ${solve.burst} (429 above); ` +
        `${limits.reservedConcurrency || 'no'} ${deployed.api.reservedConcurrency > 0 ? 'reserved executions' : "executions of the account's unreserved pool"} ` +
        `(500 when full); handler on ${threads.threads} thread(s)`,
      `            ${toolkit} (cdk.json context apiGradeRateLimit, apiHintRateLimit, apiPuzzleRateLimit raise them)`,
    ],
    close: async () => {
      await server.close();
      await threads.close();
    },
  };
};

export const services: LocalService[] = [httpApiService, startS3Service];

export async function main(): Promise<void> {
  // One JSON log line per request, without the EMF metric blobs; set either to override.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'INFO';
  const running: RunningService[] = [];
  const stop = async (exitCode: number) => {
    await Promise.allSettled(running.reverse().map((service) => service.close()));
    process.exit(exitCode);
  };
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  // Half a system is worse than none: a service lost for good ends `npm start`, loudly.
  const context: ServiceContext = {
    fail: (error) => {
      process.stderr.write(`npm start: ${error.message}; stopping\n`);
      void stop(1);
    },
  };
  for (const start of services) {
    const service = await start(context);
    running.push(service);
    process.stdout.write(`${service.banner.join('\n')}\n`);
  }
  process.stdout.write('Ctrl-C to stop.\n');
}

// Run only as the `npm start` script, so tests and other tools can import the services.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
