// Template assertions on the scheduled batch run: schedules, state machine definition, IAM scope.
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES_PER_BATCH } from '../../functions/contract/batch-limits.js';
import { flatten, type Synthesized, synth } from './helpers.js';

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
/** The files function (the API function never serves the batch run). */
const functionId = () => idOf('AWS::Lambda::Function', (p) => String(p.Description).includes('for files'));
/**
 * The run's state machine (the one with the Distributed Maps that is not the large-file machine,
 * test/infra/large-file.test.ts), and the starter the schedules start.
 */
const stateMachineId = () =>
  idOf(
    'AWS::StepFunctions::StateMachine',
    (p) => JSON.stringify(p.DefinitionString).includes('DISTRIBUTED') && p.StateMachineName === undefined,
  );
const starterId = () =>
  idOf('AWS::StepFunctions::StateMachine', (p) => !JSON.stringify(p.DefinitionString).includes('DISTRIBUTED'));

interface MapState {
  Type: string;
  ItemReader: { Resource: string; Parameters: { Bucket: string; Prefix: string } };
  ItemBatcher: { MaxItemsPerBatch: number; MaxInputBytesPerBatch?: number; BatchInput: Json };
  MaxConcurrency: number;
  ToleratedFailurePercentage: number;
  Label: string;
  ResultWriter: { Resource: string; Parameters: { Bucket: string; Prefix: string } };
  ItemProcessor: { ProcessorConfig: Json; StartAt: string; States: Record<string, Json> };
}

function definition(id: string = stateMachineId()): { StartAt: string; States: Record<string, Json> } {
  const props = template.findResources('AWS::StepFunctions::StateMachine')[id]?.Properties as Json;
  return JSON.parse(flatten(props.DefinitionString)) as { StartAt: string; States: Record<string, Json> };
}

const machineProps = (id: string): Json =>
  template.findResources('AWS::StepFunctions::StateMachine')[id]?.Properties as Json;

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
  ])(
    '%s batches 10 keys per invocation, never more bytes than a child holds, with BatchInput {bucket, mode: %s}',
    (name, mode) => {
      expect(mapState(name).ItemBatcher).toEqual({
        MaxItemsPerBatch: 10,
        MaxInputBytesPerBatch: MAX_INPUT_BYTES_PER_BATCH,
        BatchInput: { bucket: `\${${bucketId()}}`, mode },
      });
    },
  );

  it.each(['BatchFiles', 'SweepIncoming'])(
    '%s runs at most 20 invocations at once and tolerates 5%% failed items',
    (name) => {
      const map = mapState(name);
      expect(map.MaxConcurrency).toBe(20);
      expect(map.ToleratedFailurePercentage).toBe(5);
      expect(map.Label).toBe(name);
    },
  );

  it.each(['BatchFiles', 'SweepIncoming'])('%s writes its run results under run-reports/', (name) => {
    expect(mapState(name).ResultWriter).toEqual({
      Resource: 'arn:${AWS::Partition}:states:::s3:putObject',
      Parameters: { Bucket: `\${${bucketId()}}`, Prefix: 'run-reports' },
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

  it.each([
    ['run', stateMachineId],
    ['starter', starterId],
  ])(
    'the %s logs errors only, without execution data, to a /aws/vendedlogs/states/ group, and traces with X-Ray',
    (_, id) => {
      const props = machineProps(id());
      expect(props).toMatchObject({
        StateMachineType: 'STANDARD',
        TracingConfiguration: { Enabled: true },
        LoggingConfiguration: { Level: 'ERROR', IncludeExecutionData: false },
      });
      const group = (
        props.LoggingConfiguration as {
          Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string] } } }[];
        }
      ).Destinations[0]?.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0] as string;
      const groupProps = template.findResources('AWS::Logs::LogGroup')[group]?.Properties as Json;
      expect(groupProps.RetentionInDays).toBe(30);
      // Unique per stack instance (the stack ID's UUID), so deleting and re-creating the stack never collides.
      expect(flatten(groupProps.LogGroupName)).toMatch(
        /^\/aws\/vendedlogs\/states\/Sudoku-(run|starter)-\{"Fn::Select":\[2,/,
      );
    },
  );
});

describe('the starter', () => {
  /** A scheduled time as EventBridge Scheduler renders `<aws.scheduler.scheduled-time>`. */
  const scheduledTime = '2026-11-30T03:00:00Z';

  it('splits the scheduled time on ":" and starts the run named <mode>-<time parts joined by "-">, with input {mode}', () => {
    const def = definition(starterId());
    expect(def.StartAt).toBe('SplitScheduledTime');
    expect(def.States.SplitScheduledTime).toMatchObject({
      Type: 'Pass',
      Parameters: { 'mode.$': '$.mode', 'timeParts.$': "States.StringSplit($.scheduledTime, ':')" },
      Next: 'StartNamedRun',
    });
    expect(def.States.StartNamedRun).toMatchObject({
      Type: 'Task',
      Resource: 'arn:${AWS::Partition}:states:::states:startExecution',
      Parameters: {
        StateMachineArn: `\${${stateMachineId()}}`,
        'Name.$': "States.Format('{}-{}-{}-{}', $.mode, $.timeParts[0], $.timeParts[1], $.timeParts[2])",
        Input: { 'mode.$': '$.mode' },
      },
    });
  });

  it('derives a name Step Functions accepts (no ":"; only letters, digits, "-" and "_", which logging requires)', () => {
    const def = definition(starterId());
    const split = /StringSplit\(\$\.scheduledTime, '(.)'\)/.exec(
      String((def.States.SplitScheduledTime as { Parameters: Json }).Parameters['timeParts.$']),
    )?.[1];
    const format = /^States\.Format\('([^']*)'/.exec(
      String((def.States.StartNamedRun as { Parameters: Json }).Parameters['Name.$']),
    )?.[1];
    expect(split).toBe(':');
    const parts = ['batch', ...scheduledTime.split(split as string)];
    const name = parts.reduce((text, part) => text.replace('{}', part), format as string);
    expect(name).toBe('batch-2026-11-30T03-00-00Z');
    expect(name).toMatch(/^[0-9A-Za-z_-]{1,80}$/);
  });

  it('treats ExecutionAlreadyExists (a duplicate delivery of a schedule) as success, and nothing else', () => {
    const def = definition(starterId());
    const task = def.States.StartNamedRun as { Catch: { ErrorEquals: string[]; Next: string }[] };
    expect(task.Catch).toEqual([
      { ErrorEquals: ['StepFunctions.ExecutionAlreadyExistsException'], Next: 'AlreadyStarted' },
    ]);
    expect(def.States.AlreadyStarted).toMatchObject({ Type: 'Succeed' });
  });

  it('may only start the run state machine (plus log delivery and X-Ray)', () => {
    const roleId = (machineProps(starterId()).RoleArn as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const states = statementsOf(roleId).filter((s) => actionsOf(s).some((a) => a.startsWith('states:')));
    expect(states).toEqual([{ Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: stateMachineId() } }]);
    const others = statementsOf(roleId).filter((s) => !actionsOf(s).some((a) => a.startsWith('states:')));
    for (const s of others)
      expect(actionsOf(s).every((a) => a.startsWith('logs:') || a.startsWith('xray:'))).toBe(true);
  });
});

describe('logging everything', () => {
  it('is back with -c batchLogAll=true: every event with execution data, on every state machine', () => {
    const all = synth({ batchLogAll: 'true' }).template;
    const machines = Object.values(all.findResources('AWS::StepFunctions::StateMachine'));
    expect(machines).toHaveLength(3);
    for (const machine of machines) {
      expect(machine).toMatchObject({
        Properties: { LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: true } },
      });
    }
  });
});

describe('state machine permissions', () => {
  const roleId = () => (machineProps(stateMachineId()).RoleArn as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];

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

  it('may read and write objects only under run-reports/', () => {
    const objectStatements = statementsOf(roleId()).filter((s) =>
      actionsOf(s).some((a) => a.startsWith('s3:') && a !== 's3:ListBucket'),
    );
    expect(objectStatements).toHaveLength(1);
    expect(flatten(objectStatements[0]?.Resource)).toBe(`\${${bucketId()}.Arn}/run-reports/*`);
  });

  it('may invoke only the files function, by its unqualified ARN (no version or alias wildcard)', () => {
    const invokes = statementsOf(roleId()).filter((s) => actionsOf(s).some((a) => a.startsWith('lambda:')));
    expect(invokes).toHaveLength(1);
    expect(actionsOf(invokes[0] as Json)).toEqual(['lambda:InvokeFunction']);
    expect(([] as unknown[]).concat(invokes[0]?.Resource).map(flatten)).toEqual([`\${${functionId()}.Arn}`]);
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

  it('pass the scheduled time, from which the starter names the run', () => {
    for (const [mode, props] of Object.entries(schedules())) {
      expect(JSON.parse(String((props.Target as Json).Input))).toEqual({
        mode,
        scheduledTime: '<aws.scheduler.scheduled-time>',
      });
    }
  });

  it('target the starter with 3 retries within an hour, then a dead-letter queue', () => {
    for (const props of Object.values(schedules())) {
      const target = props.Target as {
        Arn: unknown;
        RetryPolicy: Json;
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [string, string] } };
      };
      expect(target.Arn).toEqual({ Ref: starterId() });
      expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 });
      const queueId = target.DeadLetterConfig.Arn['Fn::GetAtt'][0];
      expect(template.findResources('AWS::SQS::Queue')[queueId]).toMatchObject({
        Properties: { SqsManagedSseEnabled: true },
      });
    }
  });

  it('run with a role that may only start the starter and send to the dead-letter queue', () => {
    const target = Object.values(schedules())[0]?.Target as {
      RoleArn: { 'Fn::GetAtt': [string] };
      DeadLetterConfig: { Arn: unknown };
    };
    const statements = statementsOf(target.RoleArn['Fn::GetAtt'][0]);
    const grants = statements.map((s) => [actionsOf(s).join(','), JSON.stringify(s.Resource)]);
    expect(grants).toEqual(
      expect.arrayContaining([
        ['states:StartExecution', JSON.stringify({ Ref: starterId() })],
        ['sqs:SendMessage', JSON.stringify(target.DeadLetterConfig.Arn)],
      ]),
    );
    expect(grants).toHaveLength(2);
  });
});

describe('batch alarms and outputs', () => {
  it('alarm on a failed, timed-out or aborted run or starter and a start the scheduler could not deliver', () => {
    const alarms = resourcesOf('AWS::CloudWatch::Alarm').map(([, p]) => p);
    const on = (metric: string, machineId: string) =>
      alarms.filter(
        (p) =>
          p.MetricName === metric &&
          JSON.stringify(p.Dimensions) === JSON.stringify([{ Name: 'StateMachineArn', Value: { Ref: machineId } }]),
      );
    expect(on('ExecutionsFailed', stateMachineId())).toHaveLength(1);
    expect(on('ExecutionsTimedOut', stateMachineId())).toHaveLength(1);
    expect(on('ExecutionsAborted', stateMachineId())).toHaveLength(1);
    for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted'])
      expect(on(metric, starterId())).toHaveLength(1);
    const queueAlarms = alarms.filter((p) => p.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(queueAlarms).toHaveLength(2);
  });

  it("give the run's and the starter's ARNs and the schedule names", () => {
    const outputs = template.findOutputs('*');
    expect(outputs.BatchStateMachineArn?.Value).toEqual({ Ref: stateMachineId() });
    expect(outputs.BatchStarterArn?.Value).toEqual({ Ref: starterId() });
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['BatchScheduleName', 'SweepScheduleName']));
  });
});
