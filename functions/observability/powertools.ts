/** Logging and metrics shared by every adapter: the one Powertools Logger and Metrics of the function. */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC, METRICS_NAMESPACE, SERVICE_NAME } from '../contract/service-layout.js';
import { ENV, readEnv } from '../contract/environment.js';

/**
 * The one Logger every adapter writes through: structured JSON with the request id once the
 * entry point has called `addContext`. The level comes from POWERTOOLS_LOG_LEVEL (tests use
 * SILENT); POWERTOOLS_DEV=true pretty-prints for `npm start`.
 */
export const logger = new Logger({
  serviceName: readEnv(ENV.serviceName) || SERVICE_NAME,
});

/**
 * CloudWatch metrics in EMF, written to stdout and never sent by an API call (nothing to wait for
 * on the request path). POWERTOOLS_METRICS_DISABLED=true (or POWERTOOLS_DEV=true) turns them off.
 */
export const metrics = new Metrics({
  namespace: readEnv(ENV.metricsNamespace) || METRICS_NAMESPACE,
  serviceName: readEnv(ENV.serviceName) || SERVICE_NAME,
});

/**
 * Record the boards one request or file solved. SolveTime is the summed search time of those
 * boards, one value per call: a value per board would make Powertools flush an EMF blob every
 * 100 boards of a large batch.
 */
export function recordSolves(solved: number, failed: number, solveMicros: number): void {
  if (solved > 0) metrics.addMetric(METRIC.boardsSolved, MetricUnit.Count, solved);
  if (failed > 0) metrics.addMetric(METRIC.boardsFailed, MetricUnit.Count, failed);
  if (solved + failed > 0) metrics.addMetric(METRIC.solveTime, MetricUnit.Microseconds, solveMicros);
}

/** Record what became of one bucket file: answered, rejected as not puzzles, or failed (to be retried). */
export function recordFile(outcome: 'solved' | 'rejected' | 'failed'): void {
  const name = { solved: METRIC.filesSolved, rejected: METRIC.filesRejected, failed: METRIC.filesFailed }[outcome];
  metrics.addMetric(name, MetricUnit.Count, 1);
}

/**
 * Flush at the end of every invocation. Skipped when nothing was recorded (health checks,
 * 404s): Powertools would otherwise log a warning on each of them.
 */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
