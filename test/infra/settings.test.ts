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

  it('matches the defaults written in cdk.json, so the file documents what deploys', () => {
    expect(settingsFrom(cdkJsonContext())).toEqual(defaults);
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
  ])('rejects %s=%j with a message naming the key', (key, value) => {
    expect(() => settingsFrom({ [key]: value })).toThrow(`context "${key}"`);
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
      inputExpirationDays: 7,
      outputExpirationDays: 14,
      logRetentionDays: 7,
      retainBucket: false,
    });
    template = synthesized.template;
  });

  it('sizes the function from memoryMb and timeoutSeconds', () => {
    template.hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.handler', MemorySize: 3008, Timeout: 300 });
  });

  it('throttles the stage from apiRateLimit and apiBurstLimit', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
    });
  });

  it('requires IAM authorization on every route with apiAuth=iam', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      expect((route as { Properties: { AuthorizationType: string } }).Properties.AuthorizationType).toBe('AWS_IAM');
    }
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

  it('still passes cdk-nag AwsSolutions without new findings', () => {
    expect(unacknowledgedFindings(synthesized.app)).toEqual([]);
  });
});
