// Template assertions on the large-file state machine: its flow, the retry rules of the contract,
// its maps' shape, its name and the ARN the files function is told, and the stack staying free of
// a circular dependency between the machine and the function.
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FILES_TIMEOUT_ENV,
  LARGE_FILE_STATE_MACHINE_ENV,
  LARGE_FILE_STATES,
  RANGE_RETRY,
} from '../../functions/contract/large-files.js';
import { LARGE_FILE_TIMEOUT_DAYS, largeFileStateMachineName } from '../../infra/constructs/large-file.js';
import { fitsHistory, RANGE_THROTTLE_RETRY } from '../../functions/contract/throttle-retry.js';
import { cycles } from '../helpers/cycles.js';
import { flatten, synth } from './helpers.js';

type Json = Record<string, unknown>;

let template: Template;
beforeAll(() => {
  template = synth().template;
});

const machineOf = (t: Template): [string, Json] => {
  const found = Object.entries(
    t.findResources('AWS::StepFunctions::StateMachine', { Properties: { StateMachineName: 'Sudoku-large-file' } }),
  );
  expect(found).toHaveLength(1);
  const [id, resource] = found[0] as [string, { Properties: Json }];
  return [id, resource.Properties];
};

function statesOf(t: Template = template): { StartAt: string; States: Record<string, Json>; TimeoutSeconds: number } {
  return JSON.parse(flatten(machineOf(t)[1].DefinitionString));
}

const idWhere = (type: string, where: (p: Json) => boolean): string => {
  const ids = Object.entries(template.findResources(type))
    .filter(([, r]) => where((r as { Properties: Json }).Properties))
    .map(([id]) => id);
  expect(ids, type).toHaveLength(1);
  return ids[0] as string;
};
const filesFunctionId = () => idWhere('AWS::Lambda::Function', (p) => String(p.Description).includes('for files'));
const bucketId = () => idWhere('AWS::S3::Bucket', (p) => p.LoggingConfiguration !== undefined);
const filesEnv = (t: Template = template): Json => {
  const fn = Object.values(
    t.findResources('AWS::Lambda::Function', {
      Properties: { Description: Match.stringLikeRegexp('for files') },
    }),
  )[0] as { Properties: { Environment: { Variables: Json } } };
  return fn.Properties.Environment.Variables;
};

/** The range task's retry rules, in order: the contract's fatal errors never, throttling patiently, the rest twice. */
const rangeRetry = [
  { ErrorEquals: [...RANGE_RETRY.fatal], MaxAttempts: 0 },
  {
    ErrorEquals: ['Lambda.TooManyRequestsException'],
    IntervalSeconds: 2,
    MaxAttempts: 1000,
    BackoffRate: 2,
    MaxDelaySeconds: 300,
    JitterStrategy: 'FULL',
  },
  {
    ErrorEquals: ['States.ALL'],
    IntervalSeconds: RANGE_RETRY.intervalSeconds,
    MaxAttempts: RANGE_RETRY.retries,
    BackoffRate: RANGE_RETRY.backoffRate,
    JitterStrategy: 'FULL',
  },
];
const toReportFailure = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'ReportFailure' }];

describe('a range in a busy files pool', () => {
  it('waits out the throttling for most of two days (expected, with full jitter) within its history, instead of failing its file', () => {
    const r = RANGE_THROTTLE_RETRY;
    let expected = 0;
    for (let attempt = 0; attempt < r.maxAttempts; attempt++)
      expected += Math.min(r.maxDelaySeconds, r.intervalSeconds * r.backoffRate ** attempt) / 2;
    expect(expected / 3600).toBeGreaterThan(24);
    expect(expected / 3600).toBeLessThan(LARGE_FILE_TIMEOUT_DAYS * 24);
    expect(fitsHistory(r)).toBe(true);
  });
});

describe('the flow', () => {
  it('solves the ranges, finishes, and redoes the ranges finish names (once) before finishing again', () => {
    const { StartAt, States } = statesOf();
    expect(StartAt).toBe(LARGE_FILE_STATES.solve);
    expect(States[LARGE_FILE_STATES.solve]?.Next).toBe('Finish');
    expect(States.Finish?.Next).toBe('Redo?');
    expect(States['Redo?']).toEqual({
      Type: 'Choice',
      Comment: expect.any(String),
      Choices: [{ Variable: '$.finish.redo', IsPresent: true, Next: LARGE_FILE_STATES.redo }],
      Default: 'Solved',
    });
    expect(States[LARGE_FILE_STATES.redo]?.Next).toBe('FinishAfterRedo');
    expect(States.FinishAfterRedo?.Next).toBe('Solved');
    expect(States.Solved).toEqual({ Type: 'Succeed' });
  });

  it('sends every failure of a map or a finish to ReportFailure with the error at $.error, then fails the execution with it', () => {
    const { States } = statesOf();
    for (const name of [LARGE_FILE_STATES.solve, LARGE_FILE_STATES.redo, 'Finish', 'FinishAfterRedo'])
      expect(States[name]?.Catch, name).toEqual(toReportFailure);
    expect(States.ReportFailure).toMatchObject({
      Type: 'Task',
      Resource: `\${${filesFunctionId()}.Arn}`,
      Parameters: { largeFile: 'fail', 'job.$': '$.job', 'error.$': '$.error' },
      ResultPath: null,
      Retry: [rangeRetry[1], rangeRetry[2]],
      Next: 'Failed',
    });
    expect(States.Failed).toEqual({ Type: 'Fail', ErrorPath: '$.error.Error', CausePath: '$.error.Cause' });
  });

  it.each(['Finish', 'FinishAfterRedo'])(
    '%s invokes the files function with {largeFile: finish, job}, keeps its answer at $.finish, waits out throttling as a range does, and retries all but the fatal errors twice',
    (name) => {
      expect(statesOf().States[name]).toMatchObject({
        Type: 'Task',
        Resource: `\${${filesFunctionId()}.Arn}`,
        Parameters: { largeFile: 'finish', 'job.$': '$.job' },
        ResultPath: '$.finish',
        Retry: rangeRetry,
      });
    },
  );
});

describe.each([
  [LARGE_FILE_STATES.solve, '$.job.manifestKey'],
  [LARGE_FILE_STATES.redo, '$.finish.redo.manifestKey'],
])('the %s map', (name, keyPath) => {
  const map = () =>
    statesOf().States[name] as Json & { ItemProcessor: { StartAt: string; States: Record<string, Json> } };

  it(`reads its ranges from the JSON manifest at ${keyPath} in the data bucket`, () => {
    expect(map().ItemReader).toEqual({
      Resource: 'arn:${AWS::Partition}:states:::s3:getObject',
      ReaderConfig: { InputType: 'JSON' },
      Parameters: { Bucket: `\${${bucketId()}}`, 'Key.$': keyPath },
    });
  });

  it('hands each child {largeFile: range, job, range}', () => {
    expect(map().ItemSelector).toEqual({ largeFile: 'range', 'job.$': '$.job', 'range.$': '$$.Map.Item.Value' });
  });

  it('runs STANDARD children (a range may take 900 s), at most 30 at once (the files pool), tolerating no failure, and discards their results', () => {
    const m = map();
    expect(m.ItemProcessor).toMatchObject({ ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' } });
    expect(m.MaxConcurrency).toBe(30);
    expect(m.ToleratedFailurePercentage ?? 0).toBe(0);
    expect(m.ToleratedFailureCount ?? 0).toBe(0);
    expect(m).toHaveProperty('ResultPath', null);
    expect(m.ResultWriter).toBeUndefined();
    expect(m.Label).toBe(name);
  });

  it('ends each child with {} (OutputPath null), so the results it gathers before discarding them stay tiny', () => {
    const ends = Object.values(map().ItemProcessor.States).filter((state) => state.Type === 'Succeed');
    expect(ends.length).toBeGreaterThan(0);
    for (const end of ends) expect(end).toHaveProperty('OutputPath', null);
  });

  it('invokes the files function with the item itself and retries it by RANGE_RETRY: fatal errors never', () => {
    const { StartAt, States } = map().ItemProcessor;
    expect(States[StartAt]).toMatchObject({
      Type: 'Task',
      Resource: `\${${filesFunctionId()}.Arn}`,
      Retry: rangeRetry,
      ResultPath: '$.result',
    });
  });

  it('invokes the function again with the rest of a range an invocation handed over, until none is left', () => {
    const { StartAt, States } = map().ItemProcessor;
    const choice = States[States[StartAt]!.Next as string] as { Type: string; Choices: Json[]; Default: string };
    expect(choice.Type).toBe('Choice');
    expect(choice.Choices).toEqual([{ Variable: '$.result.next', IsPresent: true, Next: expect.any(String) }]);
    const rest = States[(choice.Choices[0] as { Next: string }).Next] as Json;
    expect(rest).toEqual({
      Type: 'Pass',
      Comment: expect.any(String),
      Parameters: { largeFile: 'range', 'job.$': '$.job', 'range.$': '$.result.next' },
      Next: StartAt,
    });
    expect(States[choice.Default]).toMatchObject({ Type: 'Succeed' });
  });
});

describe('the state machine', () => {
  it('is STANDARD, named after the stack, times out after 7 days, traces with X-Ray and logs errors only to a vended log group', () => {
    const [, props] = machineOf(template);
    expect(props).toMatchObject({
      StateMachineName: 'Sudoku-large-file',
      StateMachineType: 'STANDARD',
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: { Level: 'ERROR', IncludeExecutionData: false },
    });
    expect(statesOf().TimeoutSeconds).toBe(7 * 24 * 3600);
    const group = (
      props.LoggingConfiguration as {
        Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string] } } }[];
      }
    ).Destinations[0]?.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0] as string;
    const groupProps = (template.findResources('AWS::Logs::LogGroup')[group] as { Properties: Json }).Properties;
    expect(flatten(groupProps.LogGroupName)).toMatch(
      /^\/aws\/vendedlogs\/states\/Sudoku-large-file-\{"Fn::Select":\[2,/,
    );
    expect(groupProps.RetentionInDays).toBe(30);
  });

  it('keeps its name within 80 characters for any stack name, and distinct for distinct long names', () => {
    expect(largeFileStateMachineName('Sudoku')).toBe('Sudoku-large-file');
    const long = (c: string) => `Sudoku${c.repeat(120)}`;
    for (const c of ['a', 'b']) {
      expect(largeFileStateMachineName(long(c)).length).toBeLessThanOrEqual(80);
      expect(largeFileStateMachineName(long(c))).toMatch(/^[A-Za-z0-9-]+-large-file$/);
    }
    expect(largeFileStateMachineName(`${long('a')}x`)).not.toBe(largeFileStateMachineName(`${long('a')}y`));
  });

  it('sizes both maps from -c largeFileMaxConcurrency', () => {
    const { States } = statesOf(synth({ largeFileMaxConcurrency: '12' }).template);
    expect(States[LARGE_FILE_STATES.solve]?.MaxConcurrency).toBe(12);
    expect(States[LARGE_FILE_STATES.redo]?.MaxConcurrency).toBe(12);
  });

  it('alarms when a file fails, times out or is aborted (a timeout or an abort writes no report), and outputs its ARN', () => {
    const [id] = machineOf(template);
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter((a) =>
      JSON.stringify(a).includes(`"Value":{"Ref":"${id}"}`),
    );
    expect(alarms.map((a) => (a as { Properties: Json }).Properties.MetricName)).toEqual([
      'ExecutionsFailed',
      'ExecutionsTimedOut',
      'ExecutionsAborted',
    ]);
    expect(flatten(template.findOutputs('LargeFileStateMachineArn').LargeFileStateMachineArn?.Value)).toBe(
      'arn:${AWS::Partition}:states:${AWS::Region}:${AWS::AccountId}:stateMachine:Sudoku-large-file',
    );
  });
});

describe('the files function', () => {
  it("is told the machine's ARN, built from its fixed name (a Ref would be a circular dependency)", () => {
    expect(flatten(filesEnv()[LARGE_FILE_STATE_MACHINE_ENV])).toBe(
      'arn:${AWS::Partition}:states:${AWS::Region}:${AWS::AccountId}:stateMachine:Sudoku-large-file',
    );
  });

  it('is told its own timeout, filesTimeoutSeconds', () => {
    expect(filesEnv()[FILES_TIMEOUT_ENV]).toBe('900');
    expect(filesEnv(synth({ filesTimeoutSeconds: '300' }).template)[FILES_TIMEOUT_ENV]).toBe('300');
  });
});

describe('the stack', () => {
  /** Every resource another one names (Ref, Fn::GetAtt, Fn::Sub's ${X}, DependsOn). */
  function dependencies(resource: unknown, ids: Set<string>): Set<string> {
    const found = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) {
          if (key === 'Ref' && ids.has(String(item))) found.add(String(item));
          else if (key === 'Fn::GetAtt') found.add(String((item as string[])[0]));
          else if (key === 'DependsOn') for (const id of [item].flat()) found.add(String(id));
          else visit(item);
        }
      }
    };
    visit(resource);
    return found;
  }

  /** Each dependency cycle among the template's resources, as `A -> B -> A`. */
  function resourceCycles(resources: Record<string, unknown>): string[] {
    const ids = new Set(Object.keys(resources));
    return cycles(ids, (id) => dependencies(resources[id], ids));
  }

  it('has no circular dependency: the machine names the function, the function only the ARN built from the name', () => {
    const resources = template.toJSON().Resources as Record<string, unknown>;
    const [machineId] = machineOf(template);
    expect(dependencies(resources[machineId], new Set(Object.keys(resources)))).toContain(filesFunctionId());
    expect(resourceCycles(resources)).toEqual([]);

    // The check does see the cycle a Ref to the machine in the function's environment would make.
    const withRef = structuredClone(resources) as Record<string, { Properties: Json }>;
    (withRef[filesFunctionId()]!.Properties.Environment as { Variables: Json }).Variables[
      LARGE_FILE_STATE_MACHINE_ENV
    ] = { Ref: machineId };
    expect(resourceCycles(withRef).join('\n')).toContain(machineId);
  });

  it('expires staging/ after 8 days, a day after the longest job could still need its objects', () => {
    const rules = (
      template.findResources('AWS::S3::Bucket')[bucketId()] as {
        Properties: { LifecycleConfiguration: { Rules: Json[] } };
      }
    ).Properties.LifecycleConfiguration.Rules;
    expect(rules).toContainEqual({ Id: 'expire-staging', Prefix: 'staging/', ExpirationInDays: 8, Status: 'Enabled' });
    expect(8 * 24 * 3600).toBeGreaterThan(statesOf().TimeoutSeconds);
  });
});
