// Template assertions on the scheduled batch run: schedules, state machine definition, IAM scope.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesized, synth } from './helpers.js';

let synthesized: Synthesized;
let template: Template;
beforeAll(() => {
  synthesized = synth();
  template = synthesized.template;
});

type Json = Record<string, unknown>;

function resourcesOf(type: string): [string, Json][] {
  return Object.entries(template.findResources(type)).map(([id, r]) => [id, (r as { Properties: Json }).Properties]);
}

function idOf(type: string, where: (p: Json) => boolean = () => true): string {
  const ids = resourcesOf(type)
    .filter(([, p]) => where(p))
    .map(([id]) => id);
  expect(ids, type).toHaveLength(1);
  return ids[0] as string;
}

const bucketId = () => idOf('AWS::S3::Bucket', (p) => p.LoggingConfiguration !== undefined);
const functionId = () =>
  idOf('AWS::Lambda::Function', (p) => p.Handler === 'index.handler' && p.Runtime === 'nodejs24.x');
const stateMachineId = () => idOf('AWS::StepFunctions::StateMachine');

/** A CloudFormation value rendered as text: `{Ref: X}` -> `${X}`, `{Fn::GetAtt: [X, A]}` -> `${X.A}`. */
function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Json;
  if ('Ref' in v) return `\${${String(v.Ref)}}`;
  if ('Fn::GetAtt' in v) return `\${${(v['Fn::GetAtt'] as string[]).join('.')}}`;
  if ('Fn::Join' in v) {
    const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map(flatten).join(sep);
  }
  return JSON.stringify(v);
}

interface MapState {
  Type: string;
  ItemReader: { Resource: string; Parameters: { Bucket: string; Prefix: string } };
  ItemBatcher: { MaxItemsPerBatch: number; BatchInput: Json };
  MaxConcurrency: number;
  ToleratedFailurePercentage: number;
  Label: string;
  ResultWriter: { Resource: string; Parameters: { Bucket: string; Prefix: string } };
  ItemProcessor: { ProcessorConfig: Json; StartAt: string; States: Record<string, Json> };
}

function definition(): { StartAt: string; States: Record<string, Json> } {
  const props = resourcesOf('AWS::StepFunctions::StateMachine')[0]?.[1] as Json;
  return JSON.parse(flatten(props.DefinitionString)) as { StartAt: string; States: Record<string, Json> };
}

function mapState(name: string): MapState {
  return definition().States[name] as unknown as MapState;
}

/** The statements of every policy attached to the role `roleId`. */
function statementsOf(roleId: string): Json[] {
  return resourcesOf('AWS::IAM::Policy')
    .filter(([, p]) => JSON.stringify(p.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement);
}

const actionsOf = (s: Json): string[] => ([] as string[]).concat(s.Action as string | string[]);

describe('state machine', () => {
  it('chooses the map by the input flag: {"mode":"sweep"} lists incoming/, anything else batch/', () => {
    const def = definition();
    expect(def.StartAt).toBe('Mode');
    const choice = def.States.Mode as { Choices: Json[]; Default: string };
    expect(choice.Default).toBe('BatchFiles');
    expect(choice.Choices).toEqual([
      {
        And: [
          { Variable: '$.mode', IsPresent: true },
          { Variable: '$.mode', StringEquals: 'sweep' },
        ],
        Next: 'SweepIncoming',
      },
    ]);
  });

  it.each([
    ['BatchFiles', 'batch/', 'batch'],
    ['SweepIncoming', 'incoming/', 'sweep'],
  ])('%s is a Distributed Map whose S3 item reader lists %s of the data bucket', (name, prefix) => {
    const map = mapState(name);
    expect(map.Type).toBe('Map');
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' });
    expect(map.ItemReader).toEqual({
      Resource: 'arn:${AWS::Partition}:states:::s3:listObjectsV2',
      Parameters: { Bucket: `\${${bucketId()}}`, Prefix: prefix },
    });
  });

  it.each([
    ['BatchFiles', 'batch'],
    ['SweepIncoming', 'sweep'],
  ])('%s batches 10 keys per invocation with BatchInput {bucket, mode: %s}', (name, mode) => {
    expect(mapState(name).ItemBatcher).toEqual({
      MaxItemsPerBatch: 10,
      BatchInput: { bucket: `\${${bucketId()}}`, mode },
    });
  });

  it.each(['BatchFiles', 'SweepIncoming'])(
    '%s runs at most 20 invocations at once and tolerates 5%% failed items',
    (name) => {
      const map = mapState(name);
      expect(map.MaxConcurrency).toBe(20);
      expect(map.ToleratedFailurePercentage).toBe(5);
      expect(map.Label).toBe(name);
    },
  );

  it.each(['BatchFiles', 'SweepIncoming'])('%s writes its run results under reports/runs/', (name) => {
    expect(mapState(name).ResultWriter).toEqual({
      Resource: 'arn:${AWS::Partition}:states:::s3:putObject',
      Parameters: { Bucket: `\${${bucketId()}}`, Prefix: 'reports/runs' },
    });
  });

  it.each(['BatchFiles', 'SweepIncoming'])(
    '%s invokes the solver function with the whole batch and retries throttling with backoff',
    (name) => {
      const processor = mapState(name).ItemProcessor;
      const task = processor.States[processor.StartAt] as {
        Type: string;
        Resource: string;
        Parameters?: unknown;
        Retry: Json[];
      };
      expect(task.Type).toBe('Task');
      expect(task.Resource).toBe(`\${${functionId()}.Arn}`);
      expect(task.Parameters).toBeUndefined(); // the payload is the batch itself: {Items, BatchInput}
      expect(task.Retry).toContainEqual({
        ErrorEquals: ['Lambda.TooManyRequestsException'],
        IntervalSeconds: 2,
        MaxAttempts: 8,
        BackoffRate: 2,
        MaxDelaySeconds: 60,
        JitterStrategy: 'FULL',
      });
    },
  );

  it('logs every event with execution data and traces with X-Ray', () => {
    const props = resourcesOf('AWS::StepFunctions::StateMachine')[0]?.[1] as Json;
    expect(props).toMatchObject({
      StateMachineType: 'STANDARD',
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: true },
    });
    const group = (
      props.LoggingConfiguration as {
        Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string] } } }[];
      }
    ).Destinations[0]?.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0] as string;
    expect(template.findResources('AWS::Logs::LogGroup')[group]).toMatchObject({ Properties: { RetentionInDays: 30 } });
  });
});

describe('state machine permissions', () => {
  const roleId = () => {
    const props = resourcesOf('AWS::StepFunctions::StateMachine')[0]?.[1] as { RoleArn: { 'Fn::GetAtt': [string] } };
    return props.RoleArn['Fn::GetAtt'][0];
  };

  it('may list the bucket only under batch/ and incoming/', () => {
    const lists = statementsOf(roleId()).filter((s) => actionsOf(s).includes('s3:ListBucket'));
    for (const s of lists) {
      expect(actionsOf(s)).toEqual(['s3:ListBucket']);
      expect(s.Resource).toEqual({ 'Fn::GetAtt': [bucketId(), 'Arn'] });
    }
    expect(lists.map((s) => s.Condition)).toEqual(
      expect.arrayContaining([
        { StringLike: { 's3:prefix': ['batch/', 'batch/*'] } },
        { StringLike: { 's3:prefix': ['incoming/', 'incoming/*'] } },
      ]),
    );
    expect(lists).toHaveLength(2);
  });

  it('may read and write objects only under reports/runs/', () => {
    const objectStatements = statementsOf(roleId()).filter((s) =>
      actionsOf(s).some((a) => a.startsWith('s3:') && a !== 's3:ListBucket'),
    );
    expect(objectStatements).toHaveLength(1);
    expect(flatten(objectStatements[0]?.Resource)).toBe(`\${${bucketId()}.Arn}/reports/runs/*`);
  });

  it('may invoke only the solver function', () => {
    const invokes = statementsOf(roleId()).filter((s) => actionsOf(s).some((a) => a.startsWith('lambda:')));
    expect(invokes).toHaveLength(1);
    expect(actionsOf(invokes[0] as Json)).toEqual(['lambda:InvokeFunction']);
    expect(([] as unknown[]).concat(invokes[0]?.Resource).map(flatten)).toEqual([
      `\${${functionId()}.Arn}`,
      `\${${functionId()}.Arn}:*`,
    ]);
  });
});

describe('schedules', () => {
  const schedules = (): Record<string, Json> =>
    Object.fromEntries(
      resourcesOf('AWS::Scheduler::Schedule').map(([, p]) => [
        (JSON.parse(String((p.Target as Json).Input)) as { mode: string }).mode,
        p,
      ]),
    );

  it('start the batch daily at 03:00 UTC with {"mode":"batch"} and the sweep at 04:00 with {"mode":"sweep"}', () => {
    const byMode = schedules();
    expect(Object.keys(byMode).sort()).toEqual(['batch', 'sweep']);
    expect(byMode.batch).toMatchObject({
      ScheduleExpression: 'cron(0 3 * * ? *)',
      ScheduleExpressionTimezone: 'UTC',
      State: 'ENABLED',
    });
    expect(byMode.sweep).toMatchObject({
      ScheduleExpression: 'cron(0 4 * * ? *)',
      ScheduleExpressionTimezone: 'UTC',
      State: 'ENABLED',
    });
  });

  it('target the state machine with 3 retries within an hour, then a dead-letter queue', () => {
    for (const props of Object.values(schedules())) {
      const target = props.Target as {
        Arn: unknown;
        RetryPolicy: Json;
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [string, string] } };
      };
      expect(target.Arn).toEqual({ Ref: stateMachineId() });
      expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 });
      const queueId = target.DeadLetterConfig.Arn['Fn::GetAtt'][0];
      expect(template.findResources('AWS::SQS::Queue')[queueId]).toMatchObject({
        Properties: { SqsManagedSseEnabled: true },
      });
    }
  });

  it('run with a role that may only start this state machine and send to the dead-letter queue', () => {
    const target = Object.values(schedules())[0]?.Target as {
      RoleArn: { 'Fn::GetAtt': [string] };
      DeadLetterConfig: { Arn: unknown };
    };
    const statements = statementsOf(target.RoleArn['Fn::GetAtt'][0]);
    const grants = statements.map((s) => [actionsOf(s).join(','), JSON.stringify(s.Resource)]);
    expect(grants).toEqual(
      expect.arrayContaining([
        ['states:StartExecution', JSON.stringify({ Ref: stateMachineId() })],
        ['sqs:SendMessage', JSON.stringify(target.DeadLetterConfig.Arn)],
      ]),
    );
    expect(grants).toHaveLength(2);
  });
});

describe('batch alarms and outputs', () => {
  it('alarm on a failed or timed-out run and on a start the scheduler could not deliver', () => {
    const metrics = resourcesOf('AWS::CloudWatch::Alarm').map(
      ([, p]) => `${String(p.Namespace)}/${String(p.MetricName)}`,
    );
    expect(metrics).toEqual(expect.arrayContaining(['AWS/States/ExecutionsFailed', 'AWS/States/ExecutionsTimedOut']));
    expect(metrics.filter((m) => m === 'AWS/SQS/ApproximateNumberOfMessagesVisible')).toHaveLength(2);
  });

  it('give the state machine ARN and the schedule names', () => {
    const outputs = template.findOutputs('*');
    expect(outputs.BatchStateMachineArn?.Value).toEqual({ Ref: stateMachineId() });
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['BatchScheduleName', 'SweepScheduleName']));
  });
});
