// The scheduled batch run: EventBridge Scheduler starts a Step Functions state machine whose
// Distributed Map lists a prefix of the bucket and hands the keys, a few at a time, to the solver
// function, many invocations in parallel. Mode "batch" lists batch/; mode "sweep" lists incoming/
// (the function skips files already solved for their current ETag, so the sweep only redoes what
// an S3 event failed to do). The schedules start a small starter state machine that names the run
// after its scheduled time, so a schedule delivered twice still starts one run.
import { Duration, Stack, TimeZone, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { MAX_INPUT_BYTES_PER_BATCH } from '../../functions/contract/batch-limits.js';
import {
  MAP_ITEM_RETRY,
  MAP_STATE_NAMES,
  prefixes,
  RUN_MODE_PREFIX,
  RUN_REPORTS_PREFIX,
  type RunMode,
} from '../../functions/contract/service-layout.js';
import { MAP_ITEM_THROTTLE_RETRY } from '../../functions/contract/throttle-retry.js';
import { deadLetterQueue } from './queues.js';
import {
  acknowledgeDistributedMapPolicy,
  acknowledgeErrorLogging,
  acknowledgeLogDeliveryAndTracing,
  retryThrottling,
  stateMachineLogs,
  UnqualifiedLambdaInvoke,
  vendedLogGroup,
} from './state-machine-parts.js';

/** The two modes of a run, selected by the execution input `{"mode": ...}` (absent = batch). */
export const modes = RUN_MODE_PREFIX;
export type Mode = RunMode;
/** The Distributed Map state of each mode (also its map-run label). */
export const mapStates = MAP_STATE_NAMES;

export interface BatchRunProps {
  /** The service's own bucket and files function (not imported ones: their logical IDs name nag findings). */
  readonly bucket: s3.Bucket;
  readonly handler: lambda.Function;
  /** What the names the template gives start with (service-names.ts: serviceNamePrefix). */
  readonly namePrefix: string;
  readonly maxConcurrency: number;
  readonly itemsPerInvocation: number;
  readonly toleratedFailurePercent: number;
  readonly logRetentionDays: number;
  /** Log every event with its data (`ALL`), or errors only (`ERROR`). */
  readonly logAll: boolean;
  readonly batchSchedule: string;
  readonly sweepSchedule: string;
  readonly timezone: string;
}

/** Lists one prefix only, and may list only that prefix (CDK's reader grants ListBucket on all keys). */
class PrefixObjectsReader extends sfn.S3ObjectsItemReader {
  constructor(
    private readonly scopedBucket: s3.IBucket,
    readonly listPrefix: string,
  ) {
    super({ bucket: scopedBucket, prefix: listPrefix });
  }

  override providePolicyStatements(): iam.PolicyStatement[] {
    return [
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [this.scopedBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [this.listPrefix, `${this.listPrefix}*`] } },
      }),
    ];
  }
}

/** Writes the run's result files under one prefix, and may write only there (CDK's writer grants the whole bucket). */
class PrefixResultWriter extends sfn.ResultWriterV2 {
  constructor(
    private readonly scopedBucket: s3.IBucket,
    readonly writePrefix: string,
  ) {
    super({ bucket: scopedBucket, prefix: writePrefix });
  }

  override providePolicyStatements(): iam.PolicyStatement[] {
    return [
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload'],
        resources: [this.scopedBucket.arnForObjects(`${this.writePrefix}/*`)],
      }),
    ];
  }
}

/** The error StartExecution answers when the name was used in the last 90 days by a finished run (or another input). */
export const EXECUTION_ALREADY_EXISTS = 'StepFunctions.ExecutionAlreadyExistsException';

export class BatchRun extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;
  /** Started by the schedules: starts the run under a name derived from the scheduled time. */
  readonly starter: sfn.StateMachine;
  readonly schedules: Record<Mode, scheduler.Schedule>;
  readonly failedStarts: sqs.Queue;

  constructor(scope: Construct, id: string, props: BatchRunProps) {
    super(scope, id);

    // One Distributed Map per mode: same processing, different listed prefix.
    const map = (mode: Mode): sfn.DistributedMap => {
      const label = mapStates[mode];
      // Each child invokes the function once with a batch of keys; throttling (the account's or
      // the function's concurrency) is retried with exponential backoff and jitter.
      const solve = new UnqualifiedLambdaInvoke(this, `Solve${label}`, {
        lambdaFunction: props.handler,
        payloadResponseOnly: true,
        retryOnServiceExceptions: true,
      });
      retryThrottling(solve, MAP_ITEM_THROTTLE_RETRY);
      // Some files of the group failed (an S3 hiccup, a timeout): invoked again, the group skips
      // the files already solved (by ETag) and tries the failed ones once more.
      solve.addRetry({
        errors: [MAP_ITEM_RETRY.error],
        interval: Duration.seconds(MAP_ITEM_RETRY.intervalSeconds),
        backoffRate: MAP_ITEM_RETRY.backoffRate,
        maxAttempts: MAP_ITEM_RETRY.retries,
        jitterStrategy: sfn.JitterType.FULL,
      });
      return new sfn.DistributedMap(this, label, {
        label,
        comment: `Solve every object under ${modes[mode]}`,
        itemReader: new PrefixObjectsReader(props.bucket, modes[mode]),
        // Bytes as well as items: keys whose JSON escapes lengthen them are split off before a
        // child's input passes 256 KiB (functions/contract/batch-limits.ts). The children's
        // results go to the ResultWriter, so the map gathers none of them into its own state.
        itemBatcher: new sfn.ItemBatcher({
          maxItemsPerBatch: props.itemsPerInvocation,
          maxInputBytesPerBatch: MAX_INPUT_BYTES_PER_BATCH,
          batchInput: { bucket: props.bucket.bucketName, mode },
        }),
        maxConcurrency: props.maxConcurrency,
        toleratedFailurePercentage: props.toleratedFailurePercent,
        mapExecutionType: sfn.StateMachineType.STANDARD,
        resultWriterV2: new PrefixResultWriter(props.bucket, `${RUN_REPORTS_PREFIX.slice(0, -1)}`),
      }).itemProcessor(solve);
    };

    const choose = new sfn.Choice(this, 'Mode', {
      comment: `Input {"mode":"sweep"} lists ${prefixes.incoming}; anything else lists ${prefixes.batch}`,
    })
      .when(
        sfn.Condition.and(sfn.Condition.isPresent('$.mode'), sfn.Condition.stringEquals('$.mode', 'sweep')),
        map('sweep'),
      )
      .otherwise(map('batch'));

    // Errors (or, with batchLogAll, every event with its data) in CloudWatch Logs, and X-Ray traces.
    this.logGroup = vendedLogGroup(this, 'Logs', `${props.namePrefix}-run`, props.logRetentionDays);
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      comment: `Sudoku batch run: solve every file under ${prefixes.batch} (or, mode sweep, ${prefixes.incoming})`,
      definitionBody: sfn.DefinitionBody.fromChainable(choose),
      stateMachineType: sfn.StateMachineType.STANDARD,
      timeout: Duration.hours(24),
      tracingEnabled: true,
      logs: stateMachineLogs(this.logGroup, props.logAll),
    });

    // The starter: EventBridge Scheduler delivers at least once, so each schedule passes its
    // scheduled time and the run is started under a name made of the mode and that time.
    // StartExecution with a name already used answers success while that run is open (same input)
    // and ExecutionAlreadyExists once it is closed: either way a duplicate starts nothing.
    // Execution names may not contain ':' (nor '/', spaces, brackets...), so the time is split on
    // ':' and joined with '-': 2026-11-30T03:00:00Z -> batch-2026-11-30T03-00-00Z.
    const timeParts = new sfn.Pass(this, 'SplitScheduledTime', {
      comment: 'Execution names may not contain ":"',
      parameters: { 'mode.$': '$.mode', 'timeParts.$': "States.StringSplit($.scheduledTime, ':')" },
    });
    const startRun = new tasks.StepFunctionsStartExecution(this, 'StartNamedRun', {
      comment: 'One run per mode and scheduled time',
      stateMachine: this.stateMachine,
      integrationPattern: sfn.IntegrationPattern.REQUEST_RESPONSE,
      name: sfn.JsonPath.format(
        '{}-{}-{}-{}',
        sfn.JsonPath.stringAt('$.mode'),
        sfn.JsonPath.stringAt('$.timeParts[0]'),
        sfn.JsonPath.stringAt('$.timeParts[1]'),
        sfn.JsonPath.stringAt('$.timeParts[2]'),
      ),
      input: sfn.TaskInput.fromObject({ mode: sfn.JsonPath.stringAt('$.mode') }),
    });
    startRun.addCatch(
      new sfn.Succeed(this, 'AlreadyStarted', { comment: 'A duplicate delivery: this run was started before' }),
      { errors: [EXECUTION_ALREADY_EXISTS] },
    );
    this.starter = new sfn.StateMachine(this, 'Starter', {
      comment: 'Starts the Sudoku batch run once per scheduled time, named after it',
      definitionBody: sfn.DefinitionBody.fromChainable(timeParts.next(startRun)),
      stateMachineType: sfn.StateMachineType.STANDARD,
      timeout: Duration.minutes(5),
      tracingEnabled: true,
      logs: stateMachineLogs(
        vendedLogGroup(this, 'StarterLogs', `${props.namePrefix}-starter`, props.logRetentionDays),
        props.logAll,
      ),
    });

    // The schedules: batch daily, sweep daily an hour later. A start that fails is retried, then
    // kept in an encrypted queue.
    this.failedStarts = deadLetterQueue(this, 'FailedStarts');
    const schedule = (mode: Mode, expression: string): scheduler.Schedule =>
      new scheduler.Schedule(this, mode === 'batch' ? 'BatchSchedule' : 'SweepSchedule', {
        description: `Starts the ${mode} run of the Sudoku batch state machine, once per scheduled time`,
        schedule: scheduler.ScheduleExpression.expression(expression, TimeZone.of(props.timezone)),
        target: new targets.StepFunctionsStartExecution(this.starter, {
          input: scheduler.ScheduleTargetInput.fromObject({
            mode,
            scheduledTime: scheduler.ContextAttribute.scheduledTime,
          }),
          deadLetterQueue: this.failedStarts,
          retryAttempts: 3,
          maxEventAge: Duration.hours(1),
        }),
      });
    this.schedules = { batch: schedule('batch', props.batchSchedule), sweep: schedule('sweep', props.sweepSchedule) };

    if (!props.logAll) {
      for (const machine of [this.stateMachine, this.starter]) acknowledgeErrorLogging(machine);
    }

    this.acknowledgeNagFindings(props);
  }

  /** cdk-nag acknowledgements for the deliberate wildcards of the state machine's role. */
  private acknowledgeNagFindings(props: BatchRunProps): void {
    const stack = Stack.of(this);
    const bucketId = stack.getLogicalId(props.bucket.node.defaultChild as s3.CfnBucket);
    const role = this.stateMachine.role.node;
    Validations.of(role.findChild('DefaultPolicy')).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${RUN_REPORTS_PREFIX}*]`,
      reason: `Step Functions names the result files of each map run itself; the wildcard covers only ${RUN_REPORTS_PREFIX}.`,
    });
    for (const machine of [this.stateMachine, this.starter]) acknowledgeLogDeliveryAndTracing(machine);

    acknowledgeDistributedMapPolicy(this.stateMachine, Object.values(mapStates));
  }
}
