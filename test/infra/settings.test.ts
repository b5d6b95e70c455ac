// Deployer settings: context parsing and validation, and a stack synthesized with every knob turned.
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_WORST_CASE_MS } from '../../functions/contract/api-capacity.js';
import { SFN_MAX_STATE_BYTES } from '../../functions/contract/aws-quotas.js';
import {
  BATCH_ENVELOPE_BYTES,
  MAX_INPUT_BYTES_PER_BATCH,
  MAX_ITEMS_PER_BATCH,
  MAX_RESULT_ENTRY_BYTES,
} from '../../functions/contract/batch-limits.js';
import {
  apiRouteThrottles,
  defaults,
  derivedThrottle,
  filesDemand,
  filesPoolShares,
  functionPools,
  MIN_FILES_POOL,
  peakInFlight,
  readSettings,
  smallRouteThrottles,
} from '../../infra/settings.js';
import { type Synthesized, cdkJsonContext, synth, unacknowledgedFindings } from './helpers.js';

function settingsFrom(context: Record<string, unknown>) {
  return readSettings(new App({ context }).node);
}

const peak = (settings: ReturnType<typeof settingsFrom>) => peakInFlight(apiRouteThrottles(settings));

describe('readSettings', () => {
  it('falls back to the documented defaults when the context is empty', () => {
    expect(settingsFrom({})).toEqual(defaults);
  });

  it('has its defaults written once: cdk.json sets no setting, so what deploys is what settings.ts says', () => {
    const context = cdkJsonContext();
    expect(Object.keys(defaults).filter((key) => key in context)).toEqual([]);
    expect(settingsFrom(context)).toEqual(defaults);
  });

  it('parses `-c key=value` strings into numbers and booleans', () => {
    const settings = settingsFrom({
      filesMemoryMb: '3538',
      retainBucket: 'false',
      apiAuth: 'iam',
      logRetentionDays: '14',
    });
    expect(settings).toMatchObject({ filesMemoryMb: 3538, retainBucket: false, apiAuth: 'iam', logRetentionDays: 14 });
  });

  it.each([
    ['apiMemoryMb', 64],
    ['filesMemoryMb', 10241],
    ['apiTimeoutSeconds', 30],
    ['filesTimeoutSeconds', 901],
    ['apiReservedConcurrency', -1],
    ['alarmEmail', 'ops at example'],
    ['batchLogAll', 'errors'],
    ['apiAuth', 'cognito'],
    ['retainBucket', 'yes'],
    ['logRetentionDays', 10],
    ['batchSchedule', 'daily'],
    ['batchToleratedFailurePercent', 101],
    ['largeFileMaxConcurrency', 0],
    ['largeFileMaxConcurrency', 'wide'],
    ['corsOrigins', 'app.example.com'],
    ['corsOrigins', 'https://app.example.com/path'],
    ['corsOrigins', '*,https://app.example.com'],
    ['corsOrigins', []],
  ])('rejects %s=%j with a message naming the key', (key, value) => {
    expect(() => settingsFrom({ [key]: value })).toThrow(`context "${key}"`);
  });

  it("refuses a batchItemsPerInvocation whose batch could pass Step Functions' 256 KiB with S3's longest keys, naming the bound", () => {
    expect(settingsFrom({ batchItemsPerInvocation: MAX_ITEMS_PER_BATCH }).batchItemsPerInvocation).toBe(
      MAX_ITEMS_PER_BATCH,
    );
    expect(() => settingsFrom({ batchItemsPerInvocation: 1000 })).toThrow(
      new RegExp(
        `context "batchItemsPerInvocation" \\(1000\\) must be at most ${MAX_ITEMS_PER_BATCH}: .*1024-byte keys.*${SFN_MAX_STATE_BYTES} bytes \\(States.DataLimitExceeded`,
      ),
    );
    // One result entry per file (source, output and report keys) is what bounds it.
    expect(MAX_ITEMS_PER_BATCH * MAX_RESULT_ENTRY_BYTES + BATCH_ENVELOPE_BYTES).toBeLessThanOrEqual(
      SFN_MAX_STATE_BYTES,
    );
    expect((MAX_ITEMS_PER_BATCH + 1) * MAX_RESULT_ENTRY_BYTES).toBeGreaterThan(MAX_INPUT_BYTES_PER_BATCH);
  });

  it.each([
    ['memoryMb', 'apiMemoryMb and filesMemoryMb'],
    ['timeoutSeconds', 'apiTimeoutSeconds and filesTimeoutSeconds'],
  ])('refuses the old single-function key %s, naming the two that replace it', (key, replacement) => {
    expect(() => settingsFrom({ [key]: 1024 })).toThrow(`context "${key}" is now two settings, ${replacement}`);
  });
});

describe('the API throttle', () => {
  const W = API_WORST_CASE_MS / 1000;

  it('admits at least 100 requests/s on POST /solve at the default pool of 100, and no more in flight than the pool', () => {
    expect(defaults.apiRateLimit).toBeGreaterThanOrEqual(100);
    expect(derivedThrottle(defaults.apiReservedConcurrency, defaults)).toEqual({
      rate: defaults.apiRateLimit,
      burst: defaults.apiBurstLimit,
    });
    // 26 + 104/s x 0.5 s on POST /solve, and (5 + 5 x 0.5) + 3 x (2 + 2 x 0.5) + 1.5 + 2 + 1.5 on the small routes.
    expect(peak(defaults)).toBe(99.5);
  });

  it('gives GET /, GET /health, GET /openapi.json and $default small buckets of their own, and iam mode its preflight route', () => {
    expect(Object.keys(apiRouteThrottles(defaults)).sort()).toEqual([
      '$default',
      'GET /',
      'GET /health',
      'GET /openapi.json',
      'GET /puzzle',
      'POST /grade',
      'POST /hint',
      'POST /solve',
    ]);
    const iam = settingsFrom({ apiAuth: 'iam' });
    expect(Object.keys(apiRouteThrottles(iam))).toContain('OPTIONS /{proxy+}');
    expect(iam.apiRateLimit).toBeGreaterThanOrEqual(100);
    expect(peak(iam)).toBeLessThanOrEqual(100);
    for (const [key, { rate, burst }] of Object.entries(apiRouteThrottles(defaults))) {
      if (key !== 'POST /solve') expect(burst + rate * W, key).toBeLessThanOrEqual(10);
    }
  });

  it('gives the toolkit routes the rates set, each with half its rate as burst, and POST /solve what the pool has left', () => {
    const settings = settingsFrom({ apiPuzzleRateLimit: '20', apiHintRateLimit: '5' });
    const throttles = apiRouteThrottles(settings);
    expect(throttles['GET /puzzle']).toEqual({ rate: 20, burst: 10 });
    expect(throttles['POST /hint']).toEqual({ rate: 5, burst: 2 });
    expect(throttles['POST /grade']).toEqual({ rate: 1, burst: 1 });
    // The small routes now hold 21.5 + (10 + 20 x 0.5 - 1.5) + (2 + 5 x 0.5 - 2) = 42.5 executions.
    expect(peakInFlight(smallRouteThrottles(settings))).toBe(42.5);
    expect(settings).toMatchObject({ apiRateLimit: 76, apiBurstLimit: 19 });
    expect(peak(settings)).toBeLessThanOrEqual(100);
    // docs/infra.md's example: a puzzle app at 50 requests/s, with a pool of 200.
    const app = settingsFrom({ apiPuzzleRateLimit: '50', apiReservedConcurrency: '200' });
    expect(app).toMatchObject({ apiRateLimit: 173, apiBurstLimit: 43 });
    expect(apiRouteThrottles(app)['GET /puzzle']).toEqual({ rate: 50, burst: 25 });
  });

  it('refuses toolkit rates the pool cannot hold, naming the settings to lower', () => {
    expect(() => settingsFrom({ apiGradeRateLimit: '100' })).toThrow(
      'context "apiReservedConcurrency" (100) must be 0 (no reservation) or at least 122: the small routes\' buckets ' +
        'keep up to 120 executions busy',
    );
    expect(() => settingsFrom({ apiGradeRateLimit: '100' })).toThrow(
      'with apiGradeRateLimit/apiHintRateLimit/apiPuzzleRateLimit as set: lower them, or raise apiReservedConcurrency',
    );
    expect(settingsFrom({ apiGradeRateLimit: '100', apiReservedConcurrency: '400' })).toMatchObject({
      apiGradeRateLimit: 100,
    });
  });

  it('follows apiReservedConcurrency when it changes', () => {
    expect(settingsFrom({ apiReservedConcurrency: '400' })).toMatchObject({ apiRateLimit: 504, apiBurstLimit: 126 });
  });

  it('fits the pool (the sum over the routes of burst + rate x W), whatever the pool and mode', () => {
    for (const apiAuth of ['none', 'iam'] as const) {
      for (let pool = 26; pool <= 2000; pool += 7) {
        // The toolkit's rates as a deployer who raised the pool might raise them: 1-2% of it each.
        const toolkit =
          pool >= 300
            ? {
                apiGradeRateLimit: Math.floor(pool / 100),
                apiPuzzleRateLimit: Math.floor(pool / 50),
                apiHintRateLimit: Math.floor(pool / 50),
              }
            : {};
        const settings = settingsFrom({ apiReservedConcurrency: pool, apiAuth, ...toolkit });
        expect(peak(settings), `pool ${pool}, ${apiAuth}`).toBeLessThanOrEqual(pool);
        expect(peak(settings), `pool ${pool}, ${apiAuth}`).toBeGreaterThan(pool - 1.5);
        expect(settings.apiRateLimit).toBeGreaterThanOrEqual(1);
        expect(settings.apiBurstLimit).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('needs a pool that holds the small buckets and the smallest POST /solve throttle, saying how much', () => {
    expect(() => settingsFrom({ apiReservedConcurrency: '17' })).toThrow(
      'context "apiReservedConcurrency" (17) must be 0 (no reservation) or at least 23: the small routes\' buckets ' +
        'keep up to 21.5 executions busy',
    );
    expect(settingsFrom({ apiReservedConcurrency: '23' })).toMatchObject({ apiRateLimit: 1, apiBurstLimit: 1 });
    expect(() => settingsFrom({ apiReservedConcurrency: '25', apiAuth: 'iam' })).toThrow('at least 26');
  });

  it('accepts explicit limits that fit the pool', () => {
    expect(settingsFrom({ apiRateLimit: '140', apiBurstLimit: '8' })).toMatchObject({
      apiRateLimit: 140,
      apiBurstLimit: 8,
    });
  });

  it('refuses explicit limits that would let Lambda throttle before API Gateway does, saying what fits', () => {
    expect(() => settingsFrom({ apiRateLimit: '200' })).toThrow(
      'context "apiRateLimit"/"apiBurstLimit": burst 26 + rate 200/s x W 0.5 s on POST /solve, plus 21.5 for the ' +
        'other routes, = 147.5 requests in flight, more than apiReservedConcurrency 100; lower them (e.g. rate 104, burst 26)',
    );
  });

  it('sizes the API throttle, unreserved, from its part of unreservedConcurrencyShare and refuses limits it cannot run', () => {
    // Both functions unreserved: the share is split as the default reservations are (100 : 80).
    const shared = settingsFrom({ apiReservedConcurrency: '0', filesReservedConcurrency: '0' });
    expect(functionPools(shared)).toEqual({ api: 55, files: 45 });
    expect(peak(shared)).toBeLessThanOrEqual(55);
    expect(shared.apiRateLimit).toBeLessThan(defaults.apiRateLimit);
    // Only the API unreserved: it may use the whole share.
    const alone = settingsFrom({ apiReservedConcurrency: '0', unreservedConcurrencyShare: '50' });
    expect(peak(alone)).toBeLessThanOrEqual(50);
    expect(peak(alone)).toBeGreaterThan(49);
    expect(() => settingsFrom({ apiReservedConcurrency: '0', apiRateLimit: '2000', apiBurstLimit: '400' })).toThrow(
      'more than its part of unreservedConcurrencyShare 100; lower them',
    );
    expect(() =>
      settingsFrom({ apiReservedConcurrency: '0', filesReservedConcurrency: '0', unreservedConcurrencyShare: '10' }),
    ).toThrow(`the API function's part of context "unreservedConcurrencyShare" (5 of 10) must be at least 23`);
  });
});

describe('the files pool', () => {
  it('holds S3 events, a batch run and a sweep at once, and one large file, by default and at every derived size', () => {
    expect(filesDemand(defaults)).toBe(defaults.filesReservedConcurrency);
    expect(filesPoolShares(defaults.filesReservedConcurrency)).toEqual({
      events: defaults.filesEventConcurrency,
      batch: defaults.batchMaxConcurrency,
      largeFile: defaults.largeFileMaxConcurrency,
    });
    for (let pool = MIN_FILES_POOL; pool <= 2000; pool++) {
      const settings = settingsFrom({ filesReservedConcurrency: String(pool), s3Events: 'sqs' });
      expect(filesDemand(settings), `pool ${pool}`).toBeLessThanOrEqual(pool);
      expect(settings.filesEventConcurrency).toBeGreaterThanOrEqual(2);
    }
  });

  it('fails the synth naming the sum when the demand set by hand passes the pool', () => {
    expect(() => settingsFrom({ batchMaxConcurrency: '30', largeFileMaxConcurrency: '30' })).toThrow(
      "the files function's concurrent demand, filesEventConcurrency 10 + a batch run 30 + a sweep 30 " +
        "(batchMaxConcurrency, twice: a run may still go at the other's hour) + one large file's ranges 30 " +
        '(largeFileMaxConcurrency) = 100, exceeds filesReservedConcurrency 80',
    );
    // Set alone, a run's width leaves the large file what is left.
    expect(settingsFrom({ batchMaxConcurrency: '30' }).largeFileMaxConcurrency).toBe(10);
    expect(() => settingsFrom({ largeFileMaxConcurrency: '31' })).toThrow('= 81, exceeds filesReservedConcurrency 80');
    expect(() => settingsFrom({ filesEventConcurrency: '11', largeFileMaxConcurrency: '30' })).toThrow(
      '= 81, exceeds filesReservedConcurrency 80',
    );
    expect(settingsFrom({ batchMaxConcurrency: '40', filesReservedConcurrency: '120' }).batchMaxConcurrency).toBe(40);
  });

  it('holds the demand in the unreserved share too: the large-file maps no longer widen to 100 without a reservation', () => {
    const shared = settingsFrom({ filesReservedConcurrency: '0' });
    expect(shared.largeFileMaxConcurrency).toBeLessThan(100);
    expect(filesDemand(shared)).toBeLessThanOrEqual(functionPools(shared).files);
    expect(() => settingsFrom({ filesReservedConcurrency: '0', largeFileMaxConcurrency: '400' })).toThrow(
      'exceeds its part of unreservedConcurrencyShare 100',
    );
  });
});

describe('a stack for a small account (no reservations)', () => {
  it('reserves no concurrency with apiReservedConcurrency=0 and filesReservedConcurrency=0, and throttles the API to its share', () => {
    const { template } = synth({
      apiReservedConcurrency: 0,
      filesReservedConcurrency: 0,
      unreservedConcurrencyShare: 50,
    });
    const functions = Object.values(
      template.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs24.x' } }),
    );
    expect(functions).toHaveLength(2);
    for (const fn of functions) {
      expect((fn as { Properties: Record<string, unknown> }).Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    const settings = settingsFrom({
      apiReservedConcurrency: 0,
      filesReservedConcurrency: 0,
      unreservedConcurrencyShare: 50,
    });
    expect(peak(settings) + filesDemand(settings)).toBeLessThanOrEqual(50);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      RouteSettings: Match.objectLike({
        'POST /solve': { ThrottlingRateLimit: settings.apiRateLimit, ThrottlingBurstLimit: settings.apiBurstLimit },
      }),
    });
  });

  it('reads corsOrigins from a comma-separated string or a JSON array', () => {
    const origins = ['https://app.example.com', 'http://localhost:5173'];
    expect(settingsFrom({ corsOrigins: origins.join(', ') }).corsOrigins).toEqual(origins);
    expect(settingsFrom({ corsOrigins: origins }).corsOrigins).toEqual(origins);
  });
});

describe('a stack with every setting changed', () => {
  let synthesized: Synthesized;
  let template: Template;
  beforeAll(() => {
    synthesized = synth({
      apiMemoryMb: 1024,
      apiTimeoutSeconds: 10,
      apiReservedConcurrency: 60,
      apiRateLimit: 4,
      apiBurstLimit: 20,
      apiGradeRateLimit: 6,
      apiHintRateLimit: 4,
      apiPuzzleRateLimit: 8,
      filesMemoryMb: 3538,
      filesTimeoutSeconds: 300,
      filesReservedConcurrency: 340,
      filesEventConcurrency: 20,
      unreservedConcurrencyShare: 200,
      alarmEmail: 'oncall@example.com',
      batchLogAll: true,
      apiAuth: 'iam',
      corsOrigins: 'https://app.example.com,https://admin.example.com',
      inputExpirationDays: 7,
      outputExpirationDays: 14,
      logRetentionDays: 7,
      retainBucket: false,
      batchSchedule: 'rate(6 hours)',
      sweepSchedule: 'cron(30 1 * * ? *)',
      batchScheduleTimezone: 'Europe/Paris',
      batchMaxConcurrency: 100,
      batchItemsPerInvocation: 25,
      batchToleratedFailurePercent: 1,
      largeFileMaxConcurrency: 120,
    });
    template = synthesized.template;
  });

  it('sizes each function from its memory, timeout and reserved concurrency settings', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('behind the HTTP API'),
      MemorySize: 1024,
      Timeout: 10,
      ReservedConcurrentExecutions: 60,
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('for files'),
      MemorySize: 3538,
      Timeout: 300,
      ReservedConcurrentExecutions: 340,
    });
  });

  it('throttles POST /solve from apiRateLimit and apiBurstLimit', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      RouteSettings: Match.objectLike({ 'POST /solve': { ThrottlingRateLimit: 4, ThrottlingBurstLimit: 20 } }),
    });
  });

  it('throttles the toolkit routes from apiGradeRateLimit, apiHintRateLimit and apiPuzzleRateLimit', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      RouteSettings: Match.objectLike({
        'POST /grade': { ThrottlingRateLimit: 6, ThrottlingBurstLimit: 3 },
        'POST /hint': { ThrottlingRateLimit: 4, ThrottlingBurstLimit: 2 },
        'GET /puzzle': { ThrottlingRateLimit: 8, ThrottlingBurstLimit: 4 },
      }),
    });
  });

  it("sets the near-timeout alarms from each function's timeout", () => {
    const thresholds = Object.values(
      template.findResources('AWS::CloudWatch::Alarm', { Properties: { MetricName: 'Duration' } }),
    )
      .map((a) => (a as { Properties: { Threshold: number } }).Properties.Threshold)
      .sort((a, b) => a - b);
    expect(thresholds).toEqual([8000, 240000]);
  });

  it('subscribes alarmEmail to the alarm topic', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
  });

  it('requires IAM authorization on every API route with apiAuth=iam, but lets the page and unsigned CORS preflights through', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => (route as { Properties: { RouteKey: string; AuthorizationType: string } }).Properties,
    );
    expect(routes.length).toBeGreaterThan(1);
    for (const route of routes) {
      const unsigned = route.RouteKey === 'OPTIONS /{proxy+}' || route.RouteKey === 'GET /';
      expect(route.AuthorizationType, route.RouteKey).toBe(unsigned ? 'NONE' : 'AWS_IAM');
    }
    expect(routes.map((route) => route.RouteKey)).toContain('OPTIONS /{proxy+}');
  });

  it('allows the corsOrigins in API Gateway and tells the function the same origins', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://app.example.com', 'https://admin.example.com'] }),
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      Environment: {
        Variables: Match.objectLike({ CORS_ALLOW_ORIGINS: 'https://app.example.com,https://admin.example.com' }),
      },
    });
  });

  it('expires objects after inputExpirationDays and outputExpirationDays', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'incoming/', ExpirationInDays: 7 }),
          Match.objectLike({ Prefix: 'solved/', ExpirationInDays: 14 }),
        ]),
      },
    });
  });

  it('keeps logs for logRetentionDays', () => {
    for (const group of Object.values(template.findResources('AWS::Logs::LogGroup'))) {
      expect(group).toMatchObject({ Properties: { RetentionInDays: 7 } });
    }
  });

  it('deletes the buckets and their objects with the stack when retainBucket=false', () => {
    for (const bucket of Object.values(template.findResources('AWS::S3::Bucket'))) {
      expect(bucket).toMatchObject({ DeletionPolicy: 'Delete' });
    }
    expect(Object.keys(template.findResources('Custom::S3AutoDeleteObjects'))).toHaveLength(2);
  });

  it('schedules the runs from batchSchedule, sweepSchedule and batchScheduleTimezone', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(6 hours)',
      ScheduleExpressionTimezone: 'Europe/Paris',
      Target: Match.objectLike({ Input: Match.serializedJson(Match.objectLike({ mode: 'batch' })) }),
    });
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'cron(30 1 * * ? *)',
      Target: Match.objectLike({ Input: Match.serializedJson(Match.objectLike({ mode: 'sweep' })) }),
    });
  });

  it('sizes the Distributed Maps from batchMaxConcurrency, batchItemsPerInvocation and batchToleratedFailurePercent', () => {
    const [machine, ...others] = Object.values(template.findResources('AWS::StepFunctions::StateMachine')).filter((m) =>
      JSON.stringify(m).includes('BatchFiles'),
    );
    expect(others).toEqual([]);
    const parts = (machine as { Properties: { DefinitionString: { 'Fn::Join': [string, unknown[]] } } }).Properties
      .DefinitionString['Fn::Join'][1];
    const text = parts.filter((p): p is string => typeof p === 'string').join('');
    expect(text.split('"MaxConcurrency":100,')).toHaveLength(3);
    expect(text.split('"MaxItemsPerBatch":25,')).toHaveLength(3);
    expect(text.split('"ToleratedFailurePercentage":1,')).toHaveLength(3);
  });

  it('sizes both large-file maps from largeFileMaxConcurrency', () => {
    const [machine] = Object.values(
      template.findResources('AWS::StepFunctions::StateMachine', {
        Properties: { StateMachineName: 'Sudoku-large-file' },
      }),
    );
    const text = JSON.stringify(machine);
    expect(text.split('\\"MaxConcurrency\\":120,')).toHaveLength(3);
  });

  it('logs every state machine event with its data with batchLogAll', () => {
    for (const machine of Object.values(template.findResources('AWS::StepFunctions::StateMachine'))) {
      expect(machine).toMatchObject({
        Properties: { LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: true } },
      });
    }
  });

  it('still passes cdk-nag AwsSolutions without new findings', () => {
    expect(unacknowledgedFindings(synthesized.app)).toEqual([]);
  });
});
