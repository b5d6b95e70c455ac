// A file one invocation cannot finish, solved in ranges (functions/contract/large-files.ts). The
// files function writes the ranges' manifest under staging/ and starts this state machine; its
// Distributed Map hands each range to the files function, many at once; `finish` either names
// ranges to solve again (once) or assembles the output; any failure ends in `fail`, so the file
// always gets its report. The machine has a name given in the template (service-names.ts: from the
// service's place, so two services never share it), so the function can be told its ARN without a
// Ref: the machine's definition already names the function, and a Ref both ways is a CloudFormation
// circular dependency.
import { createHash } from 'node:crypto';
import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import {
  LARGE_FILE_EXECUTION_PREFIX,
  LARGE_FILE_STATE_MACHINE_ENV,
  LARGE_FILE_STATES,
  type LargeFileEvent,
  RANGE_RETRY,
} from '../../functions/contract/large-files.js';
import { prefixes } from '../../functions/contract/service-layout.js';
import { RANGE_THROTTLE_RETRY } from '../../functions/contract/throttle-retry.js';
import * as parts from './state-machine-parts.js';

/**
 * How long one file may take. At the default 30 ranges at once, a billion of the hardest puzzles
 * (8,500/s on one vCPU) take about 1.1 hours and a billion easy ones minutes; a week leaves room
 * for a map narrowed to a single range (about 33 hours for that billion) and for throttled pools,
 * and still ends a job whose function keeps failing in a way no retry notices.
 */
export const LARGE_FILE_TIMEOUT_DAYS = 7;
/**
 * staging/ objects expire a day after the longest job could still use them: the lifecycle rule only
 * collects what a dead job left (a finished job removes its own), and must never take a range's
 * answers or the manifest from under a job still running.
 */
export const STAGING_EXPIRATION_DAYS = LARGE_FILE_TIMEOUT_DAYS + 1;
const NAME_SUFFIX = '-large-file';
/** Step Functions' longest state machine name. */
const MAX_NAME = 80;

/**
 * `<prefix>-large-file` (the service's name prefix: service-names.ts), or for a prefix too long for
 * it, its start and a hash of the whole prefix.
 */
export function largeFileStateMachineName(namePrefix: string): string {
  if (namePrefix.length + NAME_SUFFIX.length <= MAX_NAME) return `${namePrefix}${NAME_SUFFIX}`;
  const hash = createHash('sha256').update(namePrefix).digest('hex').slice(0, 8);
  return `${namePrefix.slice(0, MAX_NAME - NAME_SUFFIX.length - hash.length - 1)}-${hash}${NAME_SUFFIX}`;
}

export interface LargeFileProps {
  /** The service's own bucket and files function (their logical IDs name nag findings). */
  readonly bucket: s3.Bucket;
  readonly handler: lambda.Function;
  /** What the names the template gives start with (service-names.ts: serviceNamePrefix). */
  readonly namePrefix: string;
  readonly maxConcurrency: number;
  readonly logRetentionDays: number;
  /** Log every event with its data (`ALL`), or errors only (`ERROR`). */
  readonly logAll: boolean;
}

/** Reads a manifest named by the execution's input, and may read only under staging/ (CDK's reader grants every key). */
class StagingManifestReader extends sfn.S3JsonItemReader {
  constructor(
    private readonly scopedBucket: s3.IBucket,
    keyPath: string,
  ) {
    super({ bucket: scopedBucket, key: sfn.JsonPath.stringAt(keyPath) });
  }

  override providePolicyStatements(): iam.PolicyStatement[] {
    return [
      new iam.PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [this.scopedBucket.arnForObjects(`${prefixes.staging}*`)],
      }),
    ];
  }
}

/** An event of the contract as a task payload: `job` (and the rest) taken from the state's input. */
const payload = (kind: LargeFileEvent['largeFile'], fields: Record<string, string>): sfn.TaskInput =>
  sfn.TaskInput.fromObject({
    largeFile: kind,
    ...Object.fromEntries(Object.entries(fields).map(([key, path]) => [key, sfn.JsonPath.objectAt(path)])),
  });

export class LargeFile extends Construct {
  readonly stateMachine: sfn.StateMachine;
  /** The name the template gives the machine (largeFileStateMachineName). */
  readonly stateMachineName: string;
  /** Built from the given name, so the files function's environment and grant need no Ref to the machine. */
  readonly stateMachineArn: string;
  /** The executions the files function starts: `execution:<machine>:file-*`. */
  readonly fileExecutionsArn: string;

  constructor(scope: Construct, id: string, props: LargeFileProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const name = largeFileStateMachineName(props.namePrefix);
    this.stateMachineName = name;
    this.stateMachineArn = stack.formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: name,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.fileExecutionsArn = stack.formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${name}:${LARGE_FILE_EXECUTION_PREFIX}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const fatal = [...RANGE_RETRY.fatal];
    const retry = {
      interval: Duration.seconds(RANGE_RETRY.intervalSeconds),
      backoffRate: RANGE_RETRY.backoffRate,
      maxAttempts: RANGE_RETRY.retries,
      jitterStrategy: sfn.JitterType.FULL,
    };

    // Any failure (a range past its retries, finish, the map itself) tells the function, which
    // writes the file's report and removes its staging objects, then fails the execution with the
    // original error, so the console and the metrics show a failed file.
    const reportFailure = new parts.UnqualifiedLambdaInvoke(this, 'ReportFailure', {
      comment: 'Report the file as failed and clean its staging objects',
      lambdaFunction: props.handler,
      payloadResponseOnly: true,
      retryOnServiceExceptions: false,
      payload: payload('fail', { job: '$.job', error: '$.error' }),
      resultPath: sfn.JsonPath.DISCARD,
    });
    // Throttled, every step waits for the pool as a range does: a finish or a report throttled
    // three times would otherwise fail a file whose ranges are all solved, or leave it unreported.
    parts.retryThrottling(reportFailure, RANGE_THROTTLE_RETRY);
    reportFailure.addRetry({ errors: [sfn.Errors.ALL], ...retry });
    const failed = new sfn.Fail(this, 'Failed', { errorPath: '$.error.Error', causePath: '$.error.Cause' });
    reportFailure.next(failed);
    const onFailure = { errors: [sfn.Errors.ALL], resultPath: '$.error' };

    // One child execution per range, STANDARD because a range may run the function's whole 900 s
    // (Express children stop at 5 minutes). A fatal error would fail the same way again: no retry.
    // Throttling waits for the pool; anything else (a timeout, an S3 hiccup) starts the range over,
    // as it writes its staging object whole or not at all. No failure is tolerated (one missing
    // range is a hole in the output). Each range's answers live in its staging object, so the
    // children end with nothing: without a ResultWriter the map gathers every child's output
    // BEFORE its ResultPath discards them (aws-cdk#24799), and a child ending with its whole state
    // (job, range, result: ~1 KB) passes Step Functions' 256 KiB at ~260 ranges, failing the
    // execution with States.DataLimitExceeded, which no `States.ALL` catch sees. Ending with `{}`
    // keeps MAX_RANGES children at ~30 KB (test/twin/stepfunctions/large-file-quotas.test.ts).
    const rangesMap = (label: string, manifestKeyPath: string): sfn.DistributedMap => {
      const solve = new parts.UnqualifiedLambdaInvoke(this, `${label}Range`, {
        lambdaFunction: props.handler,
        payloadResponseOnly: true,
        retryOnServiceExceptions: false,
        resultPath: '$.result',
      });
      solve.addRetry({ errors: fatal, maxAttempts: 0 });
      parts.retryThrottling(solve, RANGE_THROTTLE_RETRY);
      solve.addRetry({ errors: [sfn.Errors.ALL], ...retry });
      const map = new sfn.DistributedMap(this, label, {
        label,
        comment: `Solve each range of the manifest at ${manifestKeyPath}`,
        itemReader: new StagingManifestReader(props.bucket, manifestKeyPath),
        itemSelector: {
          largeFile: 'range',
          job: sfn.JsonPath.objectAt('$.job'),
          range: sfn.JsonPath.objectAt('$$.Map.Item.Value'),
        },
        maxConcurrency: props.maxConcurrency,
        toleratedFailurePercentage: 0,
        mapExecutionType: sfn.StateMachineType.STANDARD,
        resultPath: sfn.JsonPath.DISCARD,
      });
      // A range that ran short of time answers `next`, the rest of it (RangeStepResult): the
      // function is invoked again with that, until the range is done.
      const rest = new sfn.Pass(this, `${label}Rest`, {
        comment: 'The rest of a range handed over by an invocation that ran short of time',
        parameters: { largeFile: 'range', 'job.$': '$.job', 'range.$': '$.result.next' },
      });
      const handedOver = new sfn.Choice(this, `${label}HandedOver`)
        .when(sfn.Condition.isPresent('$.result.next'), rest.next(solve))
        .otherwise(new sfn.Succeed(this, `${label}RangeDone`, { outputPath: sfn.JsonPath.DISCARD }));
      map.itemProcessor(solve.next(handedOver));
      map.addCatch(reportFailure, onFailure);
      return map;
    };

    // finish: the ranges' counts are known; it answers ranges to redo (their answers quote line
    // numbers) or assembles the output. Retried like a range, fatal errors excepted.
    const finish = (id: string): sfn.TaskStateBase => {
      const task = new parts.UnqualifiedLambdaInvoke(this, id, {
        comment: 'Redo the ranges that need line numbers, or assemble the output and write the report',
        lambdaFunction: props.handler,
        payloadResponseOnly: true,
        retryOnServiceExceptions: false,
        payload: payload('finish', { job: '$.job' }),
        resultPath: '$.finish',
      });
      task.addRetry({ errors: fatal, maxAttempts: 0 });
      parts.retryThrottling(task, RANGE_THROTTLE_RETRY);
      task.addRetry({ errors: [sfn.Errors.ALL], ...retry });
      task.addCatch(reportFailure, onFailure);
      return task;
    };

    const solved = new sfn.Succeed(this, 'Solved');
    const definition = rangesMap(LARGE_FILE_STATES.solve, '$.job.manifestKey')
      .next(finish('Finish'))
      .next(
        new sfn.Choice(this, 'Redo?', { comment: 'finish named ranges to solve again, with their line numbers' })
          .when(
            sfn.Condition.isPresent('$.finish.redo'),
            rangesMap(LARGE_FILE_STATES.redo, '$.finish.redo.manifestKey').next(finish('FinishAfterRedo')).next(solved),
          )
          .otherwise(solved),
      );

    // Errors only by default (or, with batchLogAll, every event with its data), and X-Ray traces.
    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName: name,
      comment: 'Sudoku large file: solve a file one invocation cannot finish, in ranges, into one output',
      definitionBody: sfn.DefinitionBody.fromChainable(definition),
      stateMachineType: sfn.StateMachineType.STANDARD,
      timeout: Duration.days(LARGE_FILE_TIMEOUT_DAYS),
      tracingEnabled: true,
      logs: parts.stateMachineLogs(
        parts.vendedLogGroup(this, 'Logs', `${props.namePrefix}-large-file`, props.logRetentionDays),
        props.logAll,
      ),
    });

    this.grantFilesFunction(props);
    this.acknowledgeNagFindings(props);
  }

  /**
   * The files function starts this machine (and no other) for a file too large for it, and works
   * in staging/: the manifest, each range's answers, a .gz's inflated copy, all deleted when the job
   * ends. The output's parts are copied from staging/ (UploadPartCopy: s3:GetObject on the source,
   * s3:PutObject on solved/, which it has). Listing staging/ is covered by its ListKeys.
   */
  private grantFilesFunction(props: LargeFileProps): void {
    const fn = props.handler;
    fn.addEnvironment(LARGE_FILE_STATE_MACHINE_ENV, this.stateMachineArn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'StartLargeFiles',
        actions: ['states:StartExecution'],
        resources: [this.stateMachineArn],
      }),
    );
    // How a version's earlier runs ended (functions/pipeline/large-file-starter.ts): only this
    // machine's executions, and only those it names after files.
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'DescribeLargeFileRuns',
        actions: ['states:DescribeExecution'],
        resources: [this.fileExecutionsArn],
      }),
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WorkInStaging',
        actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
        resources: [props.bucket.arnForObjects(`${prefixes.staging}*`)],
      }),
    );
    // A finish that finds its source replaced after its output landed removes that output (S3
    // cannot make the output's write conditional on the source). Conditional deletes only (If-Match
    // the ETag it read): never a newer run's output, never a delete of an output blind.
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WithdrawSupersededOutputs',
        actions: ['s3:DeleteObject'],
        // Answers only (never reports): a superseded run withdraws the output it landed, wherever its source's prefix answers.
        resources: [prefixes.solved, prefixes.batchSolved, prefixes.longKeys].map((p) =>
          props.bucket.arnForObjects(`${p}*`),
        ),
        conditions: { Null: { 's3:if-match': 'false' } },
      }),
    );
    // A superseded job takes back its own running report (functions/pipeline/running-report.ts),
    // so a removed source's report key does not say `running` forever. Reports only, and again
    // only deletes conditional on the ETag it read: never a final report landed meanwhile (a long
    // key's report is under long-keys/, which the statement above covers on the same condition).
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WithdrawRunningReports',
        actions: ['s3:DeleteObject'],
        resources: [prefixes.reports, prefixes.batchReports].map((p) => props.bucket.arnForObjects(`${p}*`)),
        conditions: { Null: { 's3:if-match': 'false' } },
      }),
    );
  }

  /** cdk-nag acknowledgements for the deliberate wildcards of both roles. */
  private acknowledgeNagFindings(props: LargeFileProps): void {
    const bucketId = Stack.of(this).getLogicalId(props.bucket.node.defaultChild as s3.CfnBucket);
    const staging = `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefixes.staging}*]`;
    Validations.of(this.stateMachine.role.node.findChild('DefaultPolicy')).acknowledge({
      id: staging,
      reason: `The manifest's key is named by each job at run time; the item reader may read only under ${prefixes.staging}.`,
    });
    Validations.of((props.handler.role as iam.Role).node.findChild('DefaultPolicy')).acknowledge({
      id: staging,
      reason: `A job's work objects are named by its id at run time; the wildcard covers only the ${prefixes.staging} prefix of the service's own bucket.`,
    });
    Validations.of((props.handler.role as iam.Role).node.findChild('DefaultPolicy')).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${this.stateMachineName}:${LARGE_FILE_EXECUTION_PREFIX}*]`,
      reason:
        "A file's runs are named by its version and attempt at run time; DescribeExecution only, on this machine's file runs.",
    });
    parts.acknowledgeLogDeliveryAndTracing(this.stateMachine);
    parts.acknowledgeDistributedMapPolicy(this.stateMachine, Object.values(LARGE_FILE_STATES));
    if (!props.logAll) parts.acknowledgeErrorLogging(this.stateMachine);
  }
}
