// The stack `npm run deploy` deploys: one SudokuService with the settings of the app's context
// (cdk.json and `-c key=value`), and the outputs a deployer reads. The service is the stack's
// `Default` child, which CDK leaves out of logical IDs: the resources keep the IDs and names they
// had when the stack built them itself, so an existing deployment updates in place
// (test/infra/deployed-identity.test.ts).
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { API_ROUTE_NAMES, routeKey } from '../functions/contract/api-routes.js';
import { prefixes } from '../functions/contract/service-layout.js';
import { readSettings, type Settings } from './settings.js';
import { SudokuService } from './sudoku-service.js';

export interface SudokuStackProps extends StackProps {
  /** The service's settings; by default read from the context (readSettings). */
  readonly settings?: Settings;
  /** Folder of the prebuilt Lambda bundle; by default `dist/handler`. */
  readonly bundleDir?: string;
}

export class SudokuStack extends Stack {
  readonly service: SudokuService;

  constructor(scope: Construct, id: string, props: SudokuStackProps = {}) {
    const { settings, bundleDir, ...stackProps } = props;
    super(scope, id, stackProps);
    const service = new SudokuService(this, 'Default', {
      ...(settings ?? readSettings(this.node)),
      ...(bundleDir === undefined ? {} : { bundleDir }),
    });
    this.service = service;

    // Outputs: what a deployer needs to call the API, drop files and watch failures.
    new CfnOutput(this, 'ApiUrl', {
      value: service.apiUrl,
      description: `HTTP API base URL (${API_ROUTE_NAMES.map(routeKey).join(', ')})`,
    });
    for (const [name, fn] of [
      ['Api', service.apiFunction],
      ['Files', service.filesFunction],
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
      value: service.bucket.bucketName,
      description: `Upload to ${prefixes.incoming} or ${prefixes.batch}`,
    });
    new CfnOutput(this, 'FailedEventsQueueUrl', {
      value: service.failedEvents.queueUrl,
      description: 'S3 events that failed after retries',
    });
    new CfnOutput(this, 'BatchStateMachineArn', {
      value: service.batchStateMachine.stateMachineArn,
      description: 'Start with {"mode":"batch"} or {"mode":"sweep"}',
    });
    new CfnOutput(this, 'LargeFileStateMachineArn', {
      value: service.largeFileStateMachineArn,
      description: 'The files function starts it for a file too large for one invocation, {"job": ...}',
    });
    new CfnOutput(this, 'BatchStarterArn', {
      value: service.batchStarter.stateMachineArn,
      description: 'What the schedules start: {"mode":...,"scheduledTime":...} -> one run per scheduled time',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: service.alarmTopic.topicArn,
      description: 'Every alarm notifies this SNS topic (subscribe with -c alarmEmail=... or aws sns subscribe)',
    });
    new CfnOutput(this, 'DashboardName', {
      value: service.dashboard.dashboardName,
      description: 'CloudWatch dashboard of the service',
    });
    new CfnOutput(this, 'BatchScheduleName', {
      value: service.schedules.batch.scheduleName,
      description: 'Daily batch run',
    });
    new CfnOutput(this, 'SweepScheduleName', {
      value: service.schedules.sweep.scheduleName,
      description: `Daily sweep of ${prefixes.incoming}`,
    });
  }
}
