// "Something needs a look" alarms, all sent to one SNS topic (which `-c alarmEmail=...` subscribes
// an address to). Each alarm also notifies when it returns to OK, so a reader knows it is over.
import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface AlarmsProps {
  /** Subscribed to the topic when not empty (AWS mails a confirmation link first). */
  readonly email: string;
}

export class Alarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly topic: sns.Topic;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Sudoku service alarms', enforceSSL: true });
    // enforceSSL writes a topic policy holding only its Deny, and a topic policy replaces SNS's
    // default one: without this Allow, CloudWatch (a service principal) may not publish, and every
    // alarm's notification fails. Scoped to this account's alarms.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowAlarmsOfThisAccount',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry alarm names and metric values, no data; CloudWatch cannot publish to a topic under the AWS-managed SNS key, so encryption would need a customer-managed KMS key for no protected content.',
    });
    this.action = new SnsAction(this.topic);
  }

  /** An alarm when `metric` (summed, or its maximum for gauges) reaches 1 in 5 minutes. */
  whenAny(id: string, metric: cloudwatch.IMetric, description: string): cloudwatch.Alarm {
    return this.when(id, metric, 1, description);
  }

  /** An alarm when `metric` reaches `threshold` in one period of the metric (5 minutes by default). */
  when(id: string, metric: cloudwatch.IMetric, threshold: number, description: string): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    return alarm;
  }

  /**
   * An alarm for each way a state machine's execution ends badly: failed, timed out, or aborted (a
   * person stopped it, or a redrive was refused). Any of them leaves work undone that nobody else
   * reports: a large file's fail step writes a report, but not when the failure is one `States.ALL`
   * cannot catch (States.DataLimitExceeded), a timeout or an abort.
   */
  whenExecutionsEnd(id: string, machine: sfn.IStateMachine, what: string): void {
    this.whenAny(`${id}Failed`, machine.metricFailed({ statistic: 'Sum' }), `${what} failed`);
    this.whenAny(`${id}TimedOut`, machine.metricTimedOut({ statistic: 'Sum' }), `${what} timed out`);
    this.whenAny(`${id}Aborted`, machine.metricAborted({ statistic: 'Sum' }), `${what} was aborted`);
  }
}
