// The whole service as one construct, in the order data flows: bucket -> functions -> HTTP API ->
// failed-event queue -> the route uploads take to the files function -> batch state machine and
// schedules -> the large-file state machine -> alarms -> dashboard. The Sudoku stack (sudoku-stack.ts)
// holds one, as `Default`; a CDK app of its own may hold any number, in any stacks.
import { type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../functions/contract/service-layout.js';
import { Alarms } from './constructs/alarms.js';
import { BatchRun, mapStates } from './constructs/batch-run.js';
import { Dashboard } from './constructs/dashboard.js';
import { HttpApi } from './constructs/http-api.js';
import { LargeFile } from './constructs/large-file.js';
import { UploadEvents } from './constructs/upload-events.js';
import { deadLetterQueue } from './constructs/queues.js';
import { serviceNamePrefix } from './constructs/service-names.js';
import { SolverFunction } from './constructs/solver-function.js';
import { Storage } from './constructs/storage.js';
import { FEATURE_FLAGS } from './feature-flags.js';
import { handlerBundleDir } from './paths.js';
import { apiRouteThrottles, defaults, functionPools, resolveSettings, type Settings } from './settings.js';

/** Fraction of its timeout an invocation may run before the near-timeout alarm fires. */
export const NEAR_TIMEOUT = 0.8;

/**
 * Every setting of the service (infra/settings.ts, docs/infra.md "Settings"), each optional: unset,
 * it takes the default (or the value derived from the others) that `npm run deploy` would. Checked
 * as the stack checks its context, with the same messages.
 */
export interface SudokuServiceProps extends Partial<Settings> {
  /** Folder of the prebuilt Lambda bundle (`index.mjs` and its chunks); by default the one the package ships. */
  readonly bundleDir?: string;
}

/** The props that are not settings. */
const OTHER_PROPS: ReadonlySet<string> = new Set(['bundleDir']);

/**
 * The props as settings: every setting checked (resolveSettings), and a prop that is no setting
 * refused, as JavaScript callers have no compiler to catch a misspelt one.
 */
function settingsOf(props: SudokuServiceProps): Settings {
  const unknown = Object.keys(props).filter((key) => !(key in defaults) && !OTHER_PROPS.has(key));
  if (unknown.length > 0) {
    throw new Error(
      `SudokuService has no prop ${unknown.map((key) => JSON.stringify(key)).join(', ')}: ` +
        `its props are ${[...Object.keys(defaults), ...OTHER_PROPS].join(', ')}`,
    );
  }
  const values = props as Readonly<Record<string, unknown>>;
  return resolveSettings((key) => values[key]);
}

/** The construct id of CDK's singleton function (one per stack) that installs every bucket's notifications. */
const NOTIFICATIONS_HANDLER_PREFIX = 'BucketNotificationsHandler';
/** Its log group's id, in the stack beside it. */
const NOTIFICATIONS_HANDLER_LOGS_ID = 'NotificationsHandlerLogs';

export class SudokuService extends Construct {
  /** The settings in force: the props, checked, with the defaults and derived values filled in. */
  readonly settings: Settings;
  /** Every input and output file: upload to `incoming/` (or `batch/` for the scheduled run). */
  readonly bucket: s3.Bucket;
  /** The data bucket's server access logs. */
  readonly accessLogsBucket: s3.Bucket;
  /** The solver behind the HTTP API. */
  readonly apiFunction: lambda.Function;
  /** The solver of files: uploads, batch items and a large file's ranges. */
  readonly filesFunction: lambda.Function;
  readonly httpApi: apigw.HttpApi;
  /** The HTTP API's base URL (ends with `/`). */
  readonly apiUrl: string;
  /** S3 events the files function still failed after retries. */
  readonly failedEvents: sqs.Queue;
  /** The batch run: `{"mode":"batch"}` solves `batch/`, `{"mode":"sweep"}` what `incoming/` has unsolved. */
  readonly batchStateMachine: sfn.StateMachine;
  /** What the schedules start: one batch run per scheduled time. */
  readonly batchStarter: sfn.StateMachine;
  readonly schedules: Readonly<Record<'batch' | 'sweep', scheduler.Schedule>>;
  /** Scheduled starts that could not be delivered after retries. */
  readonly failedStarts: sqs.Queue;
  /** Solves a file one invocation cannot finish, in ranges; the files function starts it. */
  readonly largeFileStateMachine: sfn.StateMachine;
  readonly largeFileStateMachineArn: string;
  /** Every alarm notifies this topic (and `alarmEmail`, when set). */
  readonly alarmTopic: sns.Topic;
  readonly alarms: readonly cloudwatch.Alarm[];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: SudokuServiceProps = {}) {
    super(scope, id);
    for (const [flag, value] of Object.entries(FEATURE_FLAGS)) this.node.setContext(flag, value);
    const settings = settingsOf(props);
    this.settings = settings;
    const bundleDir = props.bundleDir ?? handlerBundleDir;
    const namePrefix = serviceNamePrefix(this);
    const isStacksOwn = namePrefix === Stack.of(this).stackName;
    // The functions' metrics carry their service name (the dashboard's dimension): one per service,
    // so a dashboard counts its own puzzles; the stack's Default service keeps the name it had.
    const serviceName = isStacksOwn ? SERVICE_NAME : `${SERVICE_NAME}-${namePrefix}`;

    // Storage: every input and output file, plus the bucket of its access logs.
    const storage = new Storage(this, 'Storage', settings);
    const { bucket } = storage;
    this.bucket = bucket;
    this.accessLogsBucket = storage.accessLogsBucket;

    // The solver, twice: the same bundle and handler as two functions with their own concurrency
    // pool, memory and timeout. The API function answers requests within API Gateway's 30 s; the
    // files function streams whole files (up to 900 s) and is the only one granted the bucket.
    const pools = functionPools(settings);
    const common = { bundleDir, bucket, serviceName, logRetentionDays: settings.logRetentionDays };
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
    this.apiFunction = apiFunction;
    this.filesFunction = filesFunction;

    // HTTP API: synchronous solving for apps, scripts, curl and browsers. Its route throttles are
    // derived from the API function's pool and the worst-case request (settings.ts), so API Gateway
    // answers 429 before Lambda throttles.
    const http = new HttpApi(this, 'Http', {
      handler: apiFunction,
      // Named after the service, but in the stack's Default service, which keeps the name its API had.
      ...(isStacksOwn ? {} : { apiName: `${namePrefix}-api` }),
      auth: settings.apiAuth,
      corsOrigins: settings.corsOrigins,
      routeThrottles: apiRouteThrottles(settings),
      logRetentionDays: settings.logRetentionDays,
    });
    this.httpApi = http.api;
    this.apiUrl = http.url;

    // Upload events that still fail after retries, or wait too long, land in an encrypted queue;
    // the scheduled sweep solves their files again anyway.
    const failedEvents = deadLetterQueue(this, 'FailedEvents');
    this.failedEvents = failedEvents;

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
      namePrefix,
      maxConcurrency: settings.batchMaxConcurrency,
      itemsPerInvocation: settings.batchItemsPerInvocation,
      toleratedFailurePercent: settings.batchToleratedFailurePercent,
      logRetentionDays: settings.logRetentionDays,
      logAll: settings.batchLogAll,
      batchSchedule: settings.batchSchedule,
      sweepSchedule: settings.sweepSchedule,
      timezone: settings.batchScheduleTimezone,
    });
    this.batchStateMachine = batch.stateMachine;
    this.batchStarter = batch.starter;
    this.schedules = batch.schedules;
    this.failedStarts = batch.failedStarts;

    // Large files: one the files function cannot finish in one invocation it cuts into ranges and
    // hands to this state machine, whose Distributed Map solves them many at once into one output.
    const largeFile = new LargeFile(this, 'LargeFile', {
      bucket,
      handler: filesFunction,
      namePrefix,
      maxConcurrency: settings.largeFileMaxConcurrency,
      logRetentionDays: settings.logRetentionDays,
      logAll: settings.batchLogAll,
    });
    this.largeFileStateMachine = largeFile.stateMachine;
    this.largeFileStateMachineArn = largeFile.stateMachineArn;

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
    this.alarmTopic = alarms.topic;
    this.alarms = alarms.alarms;

    // The dashboard: the service at a glance.
    this.dashboard = new Dashboard(this, 'Dashboard', {
      serviceName,
      api: http.api,
      apiFunction: { function: apiFunction, reservedConcurrency: settings.apiReservedConcurrency },
      filesFunction: { function: filesFunction, reservedConcurrency: settings.filesReservedConcurrency },
      stateMachine: batch.stateMachine,
      mapLabels: Object.values(mapStates),
      failedEvents,
      failedStarts: batch.failedStarts,
      alarms: alarms.alarms,
    }).dashboard;
  }

  /**
   * CDK's BucketNotificationsHandler (the deploy-time function installing the S3 notification)
   * would log to a group Lambda creates on first use, kept forever: point it at one with the
   * retention setting. Its managed policy may write to any log group, this one included. The
   * handler is one per stack, whatever number of buckets (and services) it serves: so is its log
   * group, made by the first service of the stack.
   */
  private configureNotificationsHandler(logRetentionDays: number): void {
    const stack = Stack.of(this);
    if (stack.node.tryFindChild(NOTIFICATIONS_HANDLER_LOGS_ID)) return;
    for (const child of stack.node.children.filter((c) => c.node.id.startsWith(NOTIFICATIONS_HANDLER_PREFIX))) {
      const logGroup = new logs.LogGroup(stack, NOTIFICATIONS_HANDLER_LOGS_ID, {
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
