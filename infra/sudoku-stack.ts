// The whole service in one stack, in the order data flows: bucket -> functions -> HTTP API ->
// failed-event queue -> the route uploads take to the files function -> batch state machine and
// schedules -> the large-file state machine -> alarms -> dashboard -> outputs.
import { type CfnResource, CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { Alarms } from './constructs/alarms.js';
import { BatchRun, mapStates } from './constructs/batch-run.js';
import { Dashboard } from './constructs/dashboard.js';
import { HttpApi } from './constructs/http-api.js';
import { LargeFile } from './constructs/large-file.js';
import { UploadEvents } from './constructs/upload-events.js';
import { deadLetterQueue } from './constructs/queues.js';
import { SolverFunction } from './constructs/solver-function.js';
import { Storage } from './constructs/storage.js';
import { API_ROUTE_NAMES, routeKey } from '../functions/contract/api-routes.js';
import { prefixes } from '../functions/contract/service-layout.js';
import { apiRouteThrottles, functionPools, type Settings } from './settings.js';

/** Fraction of its timeout an invocation may run before the near-timeout alarm fires. */
export const NEAR_TIMEOUT = 0.8;

export interface SudokuStackProps extends StackProps {
  readonly settings: Settings;
  /** Folder of the prebuilt Lambda bundle (`dist/handler`). */
  readonly bundleDir: string;
}

export class SudokuStack extends Stack {
  constructor(scope: Construct, id: string, props: SudokuStackProps) {
    super(scope, id, props);
    const { settings } = props;

    // Storage: every input and output file, plus the bucket of its access logs.
    const storage = new Storage(this, 'Storage', settings);
    const { bucket } = storage;

    // The solver, twice: the same bundle and handler as two functions with their own concurrency
    // pool, memory and timeout. The API function answers requests within API Gateway's 30 s; the
    // files function streams whole files (up to 900 s) and is the only one granted the bucket.
    const pools = functionPools(settings);
    const common = { bundleDir: props.bundleDir, bucket, logRetentionDays: settings.logRetentionDays };
    const apiFunction = new SolverFunction(this, 'ApiSolver', {
      ...common,
      purpose: 'api',
      memoryMb: settings.apiMemoryMb,
      timeoutSeconds: settings.apiTimeoutSeconds,
      reservedConcurrency: settings.apiReservedConcurrency,
      unreservedPool: pools.api,
    }).function;
    const filesFunction = new SolverFunction(this, 'FilesSolver', {
      ...common,
      purpose: 'files',
      memoryMb: settings.filesMemoryMb,
      timeoutSeconds: settings.filesTimeoutSeconds,
      reservedConcurrency: settings.filesReservedConcurrency,
      unreservedPool: pools.files,
    }).function;

    // HTTP API: synchronous solving for apps, scripts, curl and browsers. Its route throttles are
    // derived from the API function's pool and the worst-case request (settings.ts), so API Gateway
    // answers 429 before Lambda throttles.
    const http = new HttpApi(this, 'Http', {
      handler: apiFunction,
      auth: settings.apiAuth,
      corsOrigins: settings.corsOrigins,
      routeThrottles: apiRouteThrottles(settings),
      logRetentionDays: settings.logRetentionDays,
    });

    // Upload events that still fail after retries, or wait too long, land in an encrypted queue;
    // the scheduled sweep solves their files again anyway.
    const failedEvents = deadLetterQueue(this, 'FailedEvents');

    // Uploads under incoming/ reach the files function by exactly one route (settings.s3Events):
    // ObjectCreated:* so multipart and copied uploads trigger too. Outputs go to other prefixes,
    // so the function cannot retrigger.
    new UploadEvents(this, 'Uploads', {
      bucket,
      handler: filesFunction,
      route: settings.s3Events,
      failedEvents,
      eventConcurrency: settings.filesEventConcurrency,
    });
    this.configureNotificationsHandler(settings.logRetentionDays);

    // Batch run: a state machine (Distributed Map over batch/, or incoming/ in sweep mode) invoking
    // the files function with batches of keys, started daily by EventBridge Scheduler.
    const batch = new BatchRun(this, 'Batch', {
      bucket,
      handler: filesFunction,
      maxConcurrency: settings.batchMaxConcurrency,
      itemsPerInvocation: settings.batchItemsPerInvocation,
      toleratedFailurePercent: settings.batchToleratedFailurePercent,
      logRetentionDays: settings.logRetentionDays,
      logAll: settings.batchLogAll,
      batchSchedule: settings.batchSchedule,
      sweepSchedule: settings.sweepSchedule,
      timezone: settings.batchScheduleTimezone,
    });

    // Large files: one the files function cannot finish in one invocation it cuts into ranges and
    // hands to this state machine, whose Distributed Map solves them many at once into one output.
    const largeFile = new LargeFile(this, 'LargeFile', {
      bucket,
      handler: filesFunction,
      maxConcurrency: settings.largeFileMaxConcurrency,
      logRetentionDays: settings.logRetentionDays,
      logAll: settings.batchLogAll,
    });

    // Alarms, all to one SNS topic: what to do when each fires is in docs/infra.md.
    const alarms = new Alarms(this, 'Alarms', { email: settings.alarmEmail });
    alarms.whenAny(
      'ApiServerErrors',
      http.api.metricServerError({ statistic: 'Sum' }),
      'The HTTP API answered 5xx: a function error, a timeout or a Lambda throttle (never expected for client input)',
    );
    const functionAlarms = (name: string, fn: lambda.Function, timeoutSeconds: number): void => {
      alarms.whenAny(`${name}FunctionErrors`, fn.metricErrors({ statistic: 'Sum' }), `The ${name} function failed`);
      alarms.whenAny(
        `${name}FunctionThrottles`,
        fn.metricThrottles({ statistic: 'Sum' }),
        `The ${name} function was throttled (its reserved concurrency, or the account's, was full)`,
      );
      alarms.when(
        `${name}FunctionNearTimeout`,
        fn.metricDuration({ statistic: 'Maximum' }),
        timeoutSeconds * 1000 * NEAR_TIMEOUT,
        `An invocation of the ${name} function ran for ${NEAR_TIMEOUT * 100}% of its ${timeoutSeconds} s timeout`,
      );
    };
    functionAlarms('Api', apiFunction, settings.apiTimeoutSeconds);
    functionAlarms('Files', filesFunction, settings.filesTimeoutSeconds);
    alarms.whenAny(
      'FailedEventsWaiting',
      failedEvents.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum' }),
      'S3 events the files function failed to process after retries are waiting in the failed-events queue',
    );
    // Every state machine's failed, timed-out or aborted executions: a large file whose execution
    // ended so may have no report (a timeout or an abort writes none), a run its items undone.
    alarms.whenExecutionsEnd('BatchRun', batch.stateMachine, 'A batch or sweep run');
    alarms.whenExecutionsEnd('LargeFile', largeFile.stateMachine, 'A large file (its execution)');
    alarms.whenExecutionsEnd('BatchStarter', batch.starter, 'The starter of a scheduled batch or sweep run');
    alarms.whenAny(
      'BatchStartsFailed',
      batch.failedStarts.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum' }),
      'The scheduler could not start a batch or sweep run after retries',
    );

    // The dashboard: the service at a glance.
    const dashboard = new Dashboard(this, 'Dashboard', {
      api: http.api,
      apiFunction: { function: apiFunction, reservedConcurrency: settings.apiReservedConcurrency },
      filesFunction: { function: filesFunction, reservedConcurrency: settings.filesReservedConcurrency },
      stateMachine: batch.stateMachine,
      mapLabels: Object.values(mapStates),
      failedEvents,
      failedStarts: batch.failedStarts,
      alarms: alarms.alarms,
    });

    // Outputs: what a deployer needs to call the API, drop files and watch failures.
    new CfnOutput(this, 'ApiUrl', {
      value: http.url,
      description: `HTTP API base URL (${API_ROUTE_NAMES.map(routeKey).join(', ')})`,
    });
    for (const [name, fn] of [
      ['Api', apiFunction],
      ['Files', filesFunction],
    ] as const) {
      new CfnOutput(this, `${name}FunctionName`, {
        value: fn.functionName,
        description: `The ${name.toLowerCase()} function`,
      });
      new CfnOutput(this, `${name}FunctionArn`, {
        value: fn.functionArn,
        description: `The ${name.toLowerCase()} function's ARN`,
      });
      new CfnOutput(this, `${name}FunctionLogGroup`, {
        value: fn.logGroup.logGroupName,
        description: `The ${name.toLowerCase()} function's log group`,
      });
    }
    new CfnOutput(this, 'BucketName', {
      value: bucket.bucketName,
      description: `Upload to ${prefixes.incoming} or ${prefixes.batch}`,
    });
    new CfnOutput(this, 'FailedEventsQueueUrl', {
      value: failedEvents.queueUrl,
      description: 'S3 events that failed after retries',
    });
    new CfnOutput(this, 'BatchStateMachineArn', {
      value: batch.stateMachine.stateMachineArn,
      description: 'Start with {"mode":"batch"} or {"mode":"sweep"}',
    });
    new CfnOutput(this, 'LargeFileStateMachineArn', {
      value: largeFile.stateMachineArn,
      description: 'The files function starts it for a file too large for one invocation, {"job": ...}',
    });
    new CfnOutput(this, 'BatchStarterArn', {
      value: batch.starter.stateMachineArn,
      description: 'What the schedules start: {"mode":...,"scheduledTime":...} -> one run per scheduled time',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: alarms.topic.topicArn,
      description: 'Every alarm notifies this SNS topic (subscribe with -c alarmEmail=... or aws sns subscribe)',
    });
    new CfnOutput(this, 'DashboardName', {
      value: dashboard.dashboard.dashboardName,
      description: 'CloudWatch dashboard of the service',
    });
    new CfnOutput(this, 'BatchScheduleName', {
      value: batch.schedules.batch.scheduleName,
      description: 'Daily batch run',
    });
    new CfnOutput(this, 'SweepScheduleName', {
      value: batch.schedules.sweep.scheduleName,
      description: `Daily sweep of ${prefixes.incoming}`,
    });
  }

  /**
   * CDK's BucketNotificationsHandler (the deploy-time function installing the S3 notification)
   * would log to a group Lambda creates on first use, kept forever: point it at one with the
   * retention setting. Its managed policy may write to any log group, this one included.
   */
  private configureNotificationsHandler(logRetentionDays: number): void {
    for (const child of this.node.children.filter((c) => c.node.id.startsWith('BucketNotificationsHandler'))) {
      const logGroup = new logs.LogGroup(this, 'NotificationsHandlerLogs', {
        retention: logRetentionDays as logs.RetentionDays,
      });
      (child.node.findChild('Resource') as CfnResource).addPropertyOverride('LoggingConfig', {
        LogGroup: logGroup.logGroupName,
      });
      Validations.of(child).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's built-in BucketNotificationsHandler (deploy-time only) ships with this managed policy; its role is not configurable.",
      });
    }
  }
}
