import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { DEFAULT_METRICS_NAMESPACE, DEFAULT_SERVICE_NAME, METRIC } from './constants.js';

/**
 * CloudWatch metrics in EMF, written to stdout and never sent by an API call (nothing to wait for
 * on the request path). POWERTOOLS_METRICS_DISABLED=true (or POWERTOOLS_DEV=true) turns them off.
 */
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || DEFAULT_METRICS_NAMESPACE,
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || DEFAULT_SERVICE_NAME,
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

/**
 * Flush at the end of every invocation. Skipped when nothing was recorded (health checks,
 * 404s): Powertools would otherwise log a warning on each of them.
 */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
