// The whole service in one stack, in the order data flows: bucket -> function -> HTTP API ->
// S3 notification -> failed-event queue and alarms -> batch state machine and schedules -> outputs.
import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as lambdaDestinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import type { Construct } from 'constructs';
import { Alarms } from './constructs/alarms.js';
import { BatchRun } from './constructs/batch-run.js';
import { HttpApi } from './constructs/http-api.js';
import { deadLetterQueue } from './constructs/queues.js';
import { SolverFunction } from './constructs/solver-function.js';
import { Storage } from './constructs/storage.js';
import { prefixes } from '../functions/contract/service-layout.js';
import type { Settings } from './settings.js';

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

    // The solver: one function for all three triggers, granted the bucket per prefix.
    const solver = new SolverFunction(this, 'Solver', {
      bundleDir: props.bundleDir,
      bucket,
      memoryMb: settings.memoryMb,
      timeoutSeconds: settings.timeoutSeconds,
      logRetentionDays: settings.logRetentionDays,
    });
    const fn = solver.function;

    // HTTP API: synchronous solving for apps, scripts and curl.
    const http = new HttpApi(this, 'Http', {
      handler: fn,
      auth: settings.apiAuth,
      corsOrigins: settings.corsOrigins,
      rateLimit: settings.apiRateLimit,
      burstLimit: settings.apiBurstLimit,
      logRetentionDays: settings.logRetentionDays,
    });

    // S3 notification: every object created under incoming/ (ObjectCreated:* so multipart and
    // copied uploads trigger too). Outputs go to other prefixes, so the function cannot retrigger.
    bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(fn), {
      prefix: prefixes.incoming,
    });
    // The notification is installed by CDK's own singleton custom resource (BucketNotificationsHandler).
    for (const child of this.node.children.filter((c) => c.node.id.startsWith('BucketNotificationsHandler'))) {
      Validations.of(child).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's built-in BucketNotificationsHandler (deploy-time only) ships with this managed policy; its role is not configurable.",
      });
    }

    // Asynchronous invocations (S3 events) that still fail after retries, or wait too long, land
    // in an encrypted queue; the scheduled sweep solves their files again anyway.
    const failedEvents = deadLetterQueue(this, 'FailedEvents');
    fn.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new lambdaDestinations.SqsDestination(failedEvents),
    });

    // Alarms: failed events waiting in the queue, function errors, function throttles.
    const alarms = new Alarms(this, 'Alarms');
    alarms.whenAny(
      'FailedEventsWaiting',
      failedEvents.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum' }),
      'S3 events the function failed to process after retries are waiting in the failed-events queue',
    );
    alarms.whenAny('FunctionErrors', fn.metricErrors({ statistic: 'Sum' }), 'The solver function returned errors');
    alarms.whenAny('FunctionThrottles', fn.metricThrottles({ statistic: 'Sum' }), 'The solver function was throttled');

    // Batch run: a state machine (Distributed Map over batch/, or incoming/ in sweep mode) invoking
    // the same function with batches of keys, started daily by EventBridge Scheduler.
    const batch = new BatchRun(this, 'Batch', {
      bucket,
      handler: fn,
      maxConcurrency: settings.batchMaxConcurrency,
      itemsPerInvocation: settings.batchItemsPerInvocation,
      toleratedFailurePercent: settings.batchToleratedFailurePercent,
      logRetentionDays: settings.logRetentionDays,
      batchSchedule: settings.batchSchedule,
      sweepSchedule: settings.sweepSchedule,
      timezone: settings.batchScheduleTimezone,
    });
    alarms.whenAny(
      'BatchRunFailed',
      batch.stateMachine.metricFailed({ statistic: 'Sum' }),
      'A batch or sweep run failed',
    );
    alarms.whenAny(
      'BatchRunTimedOut',
      batch.stateMachine.metricTimedOut({ statistic: 'Sum' }),
      'A batch or sweep run timed out',
    );
    alarms.whenAny(
      'BatchStartsFailed',
      batch.failedStarts.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum' }),
      'The scheduler could not start a batch or sweep run after retries',
    );

    // Outputs: what a deployer needs to call the API, drop files and watch failures.
    new CfnOutput(this, 'ApiUrl', { value: http.url, description: 'HTTP API base URL (POST solve, GET health)' });
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
    new CfnOutput(this, 'BatchScheduleName', {
      value: batch.schedules.batch.scheduleName,
      description: 'Daily batch run',
    });
    new CfnOutput(this, 'SweepScheduleName', {
      value: batch.schedules.sweep.scheduleName,
      description: `Daily sweep of ${prefixes.incoming}`,
    });
  }
}
