// "Something needs a look" alarms: each fires on the first occurrence in a 5-minute window.
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';

export class Alarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  /** An alarm when `metric` (summed, or its maximum for gauges) reaches 1 in 5 minutes. */
  whenAny(id: string, metric: cloudwatch.IMetric, description: string): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.alarms.push(alarm);
    return alarm;
  }
}
