// Deployer settings: context parsing and validation, and a stack synthesized with every knob turned.
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaults, readSettings } from '../../infra/settings.js';
import { type Synthesized, cdkJsonContext, synth, unacknowledgedFindings } from './helpers.js';

function settingsFrom(context: Record<string, unknown>) {
  return readSettings(new App({ context }).node);
}

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
    const settings = settingsFrom({ memoryMb: '3008', retainBucket: 'false', apiAuth: 'iam', logRetentionDays: '14' });
    expect(settings).toMatchObject({ memoryMb: 3008, retainBucket: false, apiAuth: 'iam', logRetentionDays: 14 });
  });

  it.each([
    ['memoryMb', 64],
    ['timeoutSeconds', 901],
    ['apiAuth', 'cognito'],
    ['retainBucket', 'yes'],
    ['logRetentionDays', 10],
    ['batchSchedule', 'daily'],
    ['batchToleratedFailurePercent', 101],
    ['corsOrigins', 'app.example.com'],
    ['corsOrigins', 'https://app.example.com/path'],
    ['corsOrigins', '*,https://app.example.com'],
    ['corsOrigins', []],
  ])('rejects %s=%j with a message naming the key', (key, value) => {
    expect(() => settingsFrom({ [key]: value })).toThrow(`context "${key}"`);
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
      memoryMb: 3008,
      timeoutSeconds: 300,
      apiRateLimit: 10,
      apiBurstLimit: 20,
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
    });
    template = synthesized.template;
  });

  it('sizes the function from memoryMb and timeoutSeconds', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      MemorySize: 3008,
      Timeout: 300,
    });
  });

  it('throttles the stage from apiRateLimit and apiBurstLimit', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    });
  });

  it('requires IAM authorization on every route with apiAuth=iam, but lets unsigned CORS preflights through', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => (route as { Properties: { RouteKey: string; AuthorizationType: string } }).Properties,
    );
    expect(routes.length).toBeGreaterThan(1);
    for (const route of routes) {
      expect(route.AuthorizationType, route.RouteKey).toBe(route.RouteKey === 'OPTIONS /{proxy+}' ? 'NONE' : 'AWS_IAM');
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
      Target: Match.objectLike({ Input: '{"mode":"batch"}' }),
    });
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'cron(30 1 * * ? *)',
      Target: Match.objectLike({ Input: '{"mode":"sweep"}' }),
    });
  });

  it('sizes the Distributed Maps from batchMaxConcurrency, batchItemsPerInvocation and batchToleratedFailurePercent', () => {
    const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    const parts = (machine as { Properties: { DefinitionString: { 'Fn::Join': [string, unknown[]] } } }).Properties
      .DefinitionString['Fn::Join'][1];
    const text = parts.filter((p): p is string => typeof p === 'string').join('');
    expect(text.split('"MaxConcurrency":100,')).toHaveLength(3);
    expect(text.split('"MaxItemsPerBatch":25,')).toHaveLength(3);
    expect(text.split('"ToleratedFailurePercentage":1,')).toHaveLength(3);
  });

  it('still passes cdk-nag AwsSolutions without new findings', () => {
    expect(unacknowledgedFindings(synthesized.app)).toEqual([]);
  });
});
