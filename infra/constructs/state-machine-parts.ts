// What the stack's Distributed Map state machines share (the batch run and the large-file machine):
// an invocation of the files function that may invoke only its unqualified ARN, the retry of
// Lambda's throttling, a log group on the vended-logs path, and the cdk-nag acknowledgements of the
// wildcards Step Functions needs.
import { Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct, IConstruct } from 'constructs';
import { THROTTLED_ERROR, type ThrottleRetry } from '../../functions/contract/throttle-retry.js';

/**
 * Invokes the unqualified function ARN and may invoke only that ARN: CDK's LambdaInvoke also grants
 * `<arn>:*` (every version and alias), which these state machines never call.
 */
export class UnqualifiedLambdaInvoke extends tasks.LambdaInvoke {
  declare protected readonly taskPolicies: iam.PolicyStatement[];

  constructor(scope: Construct, id: string, props: tasks.LambdaInvokeProps) {
    super(scope, id, props);
    this.taskPolicies = [
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.lambdaFunction.functionArn] }),
    ];
  }
}

/**
 * The files function's pool (its reserved concurrency, or the account's) was full: retried with
 * exponential backoff and full jitter, so throttled children do not all come back at once, for as
 * long as the contract's policy says (functions/contract/throttle-retry.ts; the twin follows it).
 */
export function retryThrottling(task: sfn.TaskStateBase, retry: ThrottleRetry): void {
  task.addRetry({
    errors: [THROTTLED_ERROR],
    interval: Duration.seconds(retry.intervalSeconds),
    backoffRate: retry.backoffRate,
    maxAttempts: retry.maxAttempts,
    maxDelay: Duration.seconds(retry.maxDelaySeconds),
    jitterStrategy: sfn.JitterType.FULL,
  });
}

/**
 * A log group under /aws/vendedlogs/states/: Step Functions delivers logs through CloudWatch's
 * vended-logs path, and names there are covered by one account-wide resource policy instead of
 * a policy entry per group (that policy's 5,120-character limit fails deploys in busy accounts).
 * `name` starts with the service's name prefix (service-names.ts), so two services never share a
 * group; the stack ID's unique suffix keeps the name free when the stack is deleted and created again.
 */
export function vendedLogGroup(scope: Construct, id: string, name: string, retentionDays: number): logs.LogGroup {
  const stackUuid = Fn.select(2, Fn.split('/', Stack.of(scope).stackId));
  return new logs.LogGroup(scope, id, {
    logGroupName: `/aws/vendedlogs/states/${name}-${stackUuid}`,
    retention: retentionDays as logs.RetentionDays,
  });
}

/** Errors only by default (`logAll` false), or every event with its execution data. */
export function stateMachineLogs(destination: logs.ILogGroup, logAll: boolean): sfn.LogOptions {
  return { destination, level: logAll ? sfn.LogLevel.ALL : sfn.LogLevel.ERROR, includeExecutionData: logAll };
}

/** cdk-nag's SF1 (log ALL events) on the state machines that log errors only. */
export function acknowledgeErrorLogging(machine: IConstruct): void {
  Validations.of(machine).acknowledge({
    id: 'AwsSolutions-SF1',
    reason:
      'Errors only by default: ALL with execution data copies every event of every child execution into CloudWatch Logs at ingestion prices; -c batchLogAll=true turns it back on, and the execution history stays in the console.',
  });
}

/** cdk-nag's IAM5 on `Resource::*` of a state machine's role: log delivery and X-Ray. */
export function acknowledgeLogDeliveryAndTracing(machine: sfn.StateMachine): void {
  Validations.of(machine.role.node.findChild('DefaultPolicy')).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'CloudWatch Logs delivery (logs:*LogDelivery, DescribeLogGroups, ...) and X-Ray actions support no resource-level permissions.',
  });
}

/**
 * CDK's own policy letting a Distributed Map start, watch and redrive child executions of its state
 * machine: execution ARNs are generated at run time, under the machine's name and each map's label.
 */
export function acknowledgeDistributedMapPolicy(machine: sfn.StateMachine, mapLabels: readonly string[]): void {
  const stack = Stack.of(machine);
  const smId = stack.getLogicalId(machine.node.defaultChild as sfn.CfnStateMachine);
  const executions = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${smId}"}]}]}`;
  const mapPolicy = machine.node.findChild('DistributedMapPolicy');
  for (const suffix of [':*', ...mapLabels.map((label) => `/${label}:*`)]) {
    Validations.of(mapPolicy).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${executions}${suffix}]`,
      reason:
        "Child executions of this state machine's own Distributed Map get run-time names; the wildcard stays within this state machine.",
    });
  }
}
