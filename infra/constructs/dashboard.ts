// The service at a glance, one CloudWatch dashboard, read top to bottom as the alarms are: the
// public API, the solving itself (the function's own EMF metrics), files, batch runs, capacity.
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE } from '../../functions/contract/service-layout.js';

/** One function, with the concurrency reserved for it (0 = none). */
export interface DashboardFunction {
  readonly function: lambda.IFunction;
  readonly reservedConcurrency: number;
}

export interface DashboardProps {
  /** The functions' Powertools service name: their metrics' `service` dimension. */
  readonly serviceName: string;
  readonly api: apigw.HttpApi;
  readonly apiFunction: DashboardFunction;
  readonly filesFunction: DashboardFunction;
  readonly stateMachine: sfn.StateMachine;
  /** The Distributed Map labels: each map's child executions publish metrics under `<state machine ARN>/<label>`. */
  readonly mapLabels: readonly string[];
  readonly failedEvents: sqs.IQueue;
  readonly failedStarts: sqs.IQueue;
  readonly alarms: readonly cloudwatch.IAlarm[];
}

const minute = Duration.minutes(1);

/**
 * A metric the function emits through Powertools (EMF): the namespace, and the one dimension
 * Powertools adds, `service` (POWERTOOLS_SERVICE_NAME, which the service sets on its functions).
 */
function solverMetric(serviceName: string, name: string, label: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: serviceName },
    statistic: cloudwatch.Stats.SUM,
    period: minute,
    label,
  });
}

export class Dashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: DashboardProps) {
    super(scope, id);
    const { api, stateMachine } = props;
    const sum = { statistic: cloudwatch.Stats.SUM, period: minute };
    const solved = solverMetric(props.serviceName, METRIC.boardsSolved, 'solved');
    const failed = solverMetric(props.serviceName, METRIC.boardsFailed, 'failed');
    const solveMicros = solverMetric(props.serviceName, METRIC.solveTime, 'solve time');

    const childExecutions = (metricName: string, label: string, statistic = cloudwatch.Stats.SUM) =>
      props.mapLabels.map(
        (mapLabel) =>
          new cloudwatch.Metric({
            namespace: 'AWS/States',
            metricName,
            dimensionsMap: { StateMachineArn: `${stateMachine.stateMachineArn}/${mapLabel}` },
            statistic,
            period: Duration.minutes(5),
            label: `${mapLabel} ${label}`,
          }),
      );

    const concurrency = (fn: DashboardFunction, label: string) =>
      fn.function.metric('ConcurrentExecutions', { statistic: cloudwatch.Stats.MAXIMUM, period: minute, label });
    const reservedLine = (fn: DashboardFunction, label: string): cloudwatch.HorizontalAnnotation[] =>
      fn.reservedConcurrency > 0 ? [{ value: fn.reservedConcurrency, label: `${label} reserved` }] : [];

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(24),
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'API requests per minute',
            width: 8,
            left: [api.metricCount({ ...sum, label: 'requests' })],
          }),
          new cloudwatch.GraphWidget({
            title: 'API latency (ms)',
            width: 8,
            left: [
              api.metricLatency({ statistic: 'p50', period: minute, label: 'p50' }),
              api.metricLatency({ statistic: 'p99', period: minute, label: 'p99' }),
            ],
          }),
          new cloudwatch.GraphWidget({
            title: 'API 4xx / 5xx per minute',
            width: 8,
            left: [api.metricClientError({ ...sum, label: '4xx' }), api.metricServerError({ ...sum, label: '5xx' })],
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Puzzles per minute (API and files)',
            width: 12,
            left: [solved, failed],
          }),
          new cloudwatch.GraphWidget({
            title: 'Search time per puzzle (µs)',
            width: 12,
            left: [
              new cloudwatch.MathExpression({
                expression: 'micros / (solved + failed)',
                usingMetrics: { micros: solveMicros, solved, failed },
                period: minute,
                label: 'mean search time',
              }),
            ],
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Files per minute: solved, rejected (not puzzles), failed (retried); files function errors',
            width: 12,
            left: [
              solverMetric(props.serviceName, METRIC.filesSolved, 'files solved'),
              solverMetric(props.serviceName, METRIC.filesRejected, 'files rejected'),
              solverMetric(props.serviceName, METRIC.filesFailed, 'files failed'),
              props.filesFunction.function.metricInvocations({ ...sum, label: 'function invocations' }),
              props.filesFunction.function.metricErrors({ ...sum, label: 'function errors' }),
            ],
          }),
          new cloudwatch.GraphWidget({
            title: 'Batch map items (child executions): succeeded / failed',
            width: 12,
            left: [
              ...childExecutions('ExecutionsSucceeded', 'succeeded'),
              ...childExecutions('ExecutionsFailed', 'failed'),
            ],
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Batch runs',
            width: 12,
            left: [
              stateMachine.metricStarted({ statistic: cloudwatch.Stats.SUM, label: 'started' }),
              stateMachine.metricSucceeded({ statistic: cloudwatch.Stats.SUM, label: 'succeeded' }),
              stateMachine.metricFailed({ statistic: cloudwatch.Stats.SUM, label: 'failed' }),
              stateMachine.metricTimedOut({ statistic: cloudwatch.Stats.SUM, label: 'timed out' }),
            ],
          }),
          new cloudwatch.GraphWidget({
            title: 'Dead-letter queues (messages waiting)',
            width: 12,
            left: [
              props.failedEvents.metricApproximateNumberOfMessagesVisible({
                statistic: cloudwatch.Stats.MAXIMUM,
                label: 'S3 events failed after retries',
              }),
              props.failedStarts.metricApproximateNumberOfMessagesVisible({
                statistic: cloudwatch.Stats.MAXIMUM,
                label: 'scheduled starts not delivered',
              }),
            ],
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Concurrent executions (max per minute)',
            width: 12,
            left: [concurrency(props.apiFunction, 'API function'), concurrency(props.filesFunction, 'files function')],
            leftAnnotations: [...reservedLine(props.apiFunction, 'API'), ...reservedLine(props.filesFunction, 'files')],
          }),
          new cloudwatch.AlarmStatusWidget({ title: 'Alarms', width: 12, alarms: [...props.alarms] }),
        ],
      ],
    });
  }
}
