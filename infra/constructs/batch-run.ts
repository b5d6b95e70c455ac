// The scheduled batch run: EventBridge Scheduler starts a Step Functions state machine whose
// Distributed Map lists a prefix of the bucket and hands the keys, a few at a time, to the solver
// function, many invocations in parallel. Mode "batch" lists batch/; mode "sweep" lists incoming/
// (the function skips files already solved for their current ETag, so the sweep only redoes what
// an S3 event failed to do).
import { Duration, Stack, TimeZone, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { prefixes, RUN_REPORTS_PREFIX } from '../../functions/contract/service-layout.js';
import { deadLetterQueue } from './queues.js';

/** The two modes of a run, selected by the execution input `{"mode": ...}` (absent = batch). */
export const modes = { batch: prefixes.batch, sweep: prefixes.incoming } as const;
export type Mode = keyof typeof modes;
/** The Distributed Map state of each mode (also its map-run label). */
export const mapStates: Record<Mode, string> = { batch: 'BatchFiles', sweep: 'SweepIncoming' };

export interface BatchRunProps {
  /** The service's own bucket and function (not imported ones: their logical IDs name nag findings). */
  readonly bucket: s3.Bucket;
  readonly handler: lambda.Function;
  readonly maxConcurrency: number;
  readonly itemsPerInvocation: number;
  readonly toleratedFailurePercent: number;
  readonly logRetentionDays: number;
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

export class BatchRun extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly logGroup: logs.LogGroup;
  readonly schedules: Record<Mode, scheduler.Schedule>;
  readonly failedStarts: sqs.Queue;

  constructor(scope: Construct, id: string, props: BatchRunProps) {
    super(scope, id);

    // One Distributed Map per mode: same processing, different listed prefix.
    const map = (mode: Mode): sfn.DistributedMap => {
      const label = mapStates[mode];
      // Each child invokes the function once with a batch of keys; throttling (the account's or
      // the function's concurrency) is retried with exponential backoff and jitter.
      const solve = new tasks.LambdaInvoke(this, `Solve${label}`, {
        lambdaFunction: props.handler,
        payloadResponseOnly: true,
        retryOnServiceExceptions: true,
      });
      solve.addRetry({
        errors: ['Lambda.TooManyRequestsException'],
        interval: Duration.seconds(2),
        backoffRate: 2,
        maxAttempts: 8,
        maxDelay: Duration.minutes(1),
        jitterStrategy: sfn.JitterType.FULL,
      });
      return new sfn.DistributedMap(this, label, {
        label,
        comment: `Solve every object under ${modes[mode]}`,
        itemReader: new PrefixObjectsReader(props.bucket, modes[mode]),
        itemBatcher: new sfn.ItemBatcher({
          maxItemsPerBatch: props.itemsPerInvocation,
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

    // Execution history with inputs and outputs in CloudWatch Logs, and X-Ray traces.
    this.logGroup = new logs.LogGroup(this, 'Logs', { retention: props.logRetentionDays as logs.RetentionDays });
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      comment: `Sudoku batch run: solve every file under ${prefixes.batch} (or, mode sweep, ${prefixes.incoming})`,
      definitionBody: sfn.DefinitionBody.fromChainable(choose),
      stateMachineType: sfn.StateMachineType.STANDARD,
      timeout: Duration.hours(24),
      tracingEnabled: true,
      logs: { destination: this.logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
    });

    // The schedules: batch daily, sweep daily an hour later. A start that fails is retried, then
    // kept in an encrypted queue.
    this.failedStarts = deadLetterQueue(this, 'FailedStarts');
    const schedule = (mode: Mode, expression: string): scheduler.Schedule =>
      new scheduler.Schedule(this, mode === 'batch' ? 'BatchSchedule' : 'SweepSchedule', {
        description: `Starts the ${mode} run of the Sudoku batch state machine`,
        schedule: scheduler.ScheduleExpression.expression(expression, TimeZone.of(props.timezone)),
        target: new targets.StepFunctionsStartExecution(this.stateMachine, {
          input: scheduler.ScheduleTargetInput.fromObject({ mode }),
          deadLetterQueue: this.failedStarts,
          retryAttempts: 3,
          maxEventAge: Duration.hours(1),
        }),
      });
    this.schedules = { batch: schedule('batch', props.batchSchedule), sweep: schedule('sweep', props.sweepSchedule) };

    this.acknowledgeNagFindings(props);
  }

  /** cdk-nag acknowledgements for the deliberate wildcards of the state machine's role. */
  private acknowledgeNagFindings(props: BatchRunProps): void {
    const stack = Stack.of(this);
    const fnId = stack.getLogicalId(props.handler.node.defaultChild as lambda.CfnFunction);
    const bucketId = stack.getLogicalId(props.bucket.node.defaultChild as s3.CfnBucket);
    const role = this.stateMachine.role.node;
    const acks: [string, string][] = [
      [
        'AwsSolutions-IAM5[Resource::*]',
        'CloudWatch Logs delivery (logs:*LogDelivery, DescribeLogGroups, ...) and X-Ray actions support no resource-level permissions.',
      ],
      [
        `AwsSolutions-IAM5[Resource::<${fnId}.Arn>:*]`,
        'Invoke the solver function by any of its versions/aliases (the pattern CDK grants for LambdaInvoke); still one function.',
      ],
      [
        `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${RUN_REPORTS_PREFIX}*]`,
        `Step Functions names the result files of each map run itself; the wildcard covers only ${RUN_REPORTS_PREFIX}.`,
      ],
    ];
    for (const [id, reason] of acks) Validations.of(role.findChild('DefaultPolicy')).acknowledge({ id, reason });

    // CDK's own policy letting the Distributed Map start, watch and redrive child executions of
    // this state machine: execution ARNs are generated at run time.
    const smId = stack.getLogicalId(this.stateMachine.node.defaultChild as sfn.CfnStateMachine);
    const executions = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${smId}"}]}]}`;
    const mapPolicy = this.stateMachine.node.findChild('DistributedMapPolicy');
    for (const suffix of [':*', ...Object.values(mapStates).map((label) => `/${label}:*`)]) {
      Validations.of(mapPolicy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${executions}${suffix}]`,
        reason:
          "Child executions of this state machine's own Distributed Map get run-time names; the wildcard stays within this state machine.",
      });
    }
  }
}
