// Template assertions on the default stack (cdk.json's context): each test names the property it proves.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesized, synth } from './helpers.js';

let synthesized: Synthesized;
let template: Template;
beforeAll(() => {
  synthesized = synth();
  template = synthesized.template;
});

interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** The one resource of `type` (the test fails if there are more or none). */
function only(type: string): {
  logicalId: string;
  properties: Record<string, unknown>;
  resource: Record<string, unknown>;
} {
  const found = template.findResources(type);
  const ids = Object.keys(found);
  expect(ids, `exactly one ${type}`).toHaveLength(1);
  const logicalId = ids[0] as string;
  const resource = found[logicalId] as Record<string, unknown>;
  return { logicalId, resource, properties: (resource.Properties ?? {}) as Record<string, unknown> };
}

function solverFunction() {
  const functions = template.findResources('AWS::Lambda::Function', {
    Properties: { Handler: 'index.handler', Runtime: 'nodejs22.x' },
  });
  const [logicalId, ...others] = Object.keys(functions);
  expect(logicalId).toBeDefined();
  expect(others).toEqual([]);
  return {
    logicalId: logicalId as string,
    properties: (functions[logicalId as string] as { Properties: Record<string, unknown> }).Properties,
  };
}

/** The queue the function's failed asynchronous invocations go to. */
function failedEventsQueueId(): string {
  const config = only('AWS::Lambda::EventInvokeConfig').properties as {
    DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [string] } } };
  };
  return config.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
}

function dataBucketId(): string {
  const buckets = template.findResources('AWS::S3::Bucket', { Properties: { LoggingConfiguration: Match.anyValue() } });
  const [id] = Object.keys(buckets);
  return id as string;
}

/** `arn-of-bucket/<suffix>` as CloudFormation renders it, reduced to the suffix (or '' for the bucket itself). */
function bucketResourceSuffix(resource: unknown, bucketId: string): string | undefined {
  const json = JSON.stringify(resource);
  if (json === JSON.stringify({ 'Fn::GetAtt': [bucketId, 'Arn'] })) return '';
  const match = /^\{"Fn::Join":\["",\[\{"Fn::GetAtt":\["([^"]+)","Arn"\]\},"\/([^"]*)"\]\]\}$/.exec(json);
  return match && match[1] === bucketId ? match[2] : undefined;
}

/** Every S3 action the solver's role may perform, as action -> sorted resource suffixes. */
function solverS3Grants(): Record<string, string[]> {
  const { properties } = solverFunction();
  const roleId = (properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  const bucketId = dataBucketId();
  const grants: Record<string, string[]> = {};
  for (const policy of Object.values(policies)) {
    const statements = (policy as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties
      .PolicyDocument.Statement;
    for (const statement of statements) {
      const actions = ([] as string[]).concat(statement.Action).filter((a) => a.startsWith('s3:'));
      const resources = ([] as unknown[]).concat(statement.Resource);
      for (const action of actions) {
        expect(statement.Effect).toBe('Allow');
        for (const resource of resources) {
          const suffix = bucketResourceSuffix(resource, bucketId);
          expect(
            suffix,
            `${action} on ${JSON.stringify(resource)} must be the data bucket or a prefix of it`,
          ).toBeDefined();
          grants[action] ??= [];
          grants[action].push(suffix as string);
        }
      }
    }
  }
  for (const list of Object.values(grants)) list.sort();
  return grants;
}

describe('function', () => {
  it('runs Node.js 22 on arm64 with the bundle entry index.handler', () => {
    expect(solverFunction().properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
    });
  });

  it('deploys exactly the bundle folder (index.mjs and its source map, byte for byte)', () => {
    const code = solverFunction().properties.Code as { S3Key: string };
    const hash = code.S3Key.replace(/\.zip$/, '');
    const staged = path.join(synthesized.app.outdir, `asset.${hash}`);
    expect(readdirSync(staged).sort()).toEqual(readdirSync(synthesized.bundleDir).sort());
    for (const file of readdirSync(staged)) {
      expect(readFileSync(path.join(staged, file))).toEqual(readFileSync(path.join(synthesized.bundleDir, file)));
    }
  });

  it('has the default memory (one full vCPU) and a timeout long enough for large files', () => {
    expect(solverFunction().properties).toMatchObject({ MemorySize: 1769, Timeout: 900 });
  });

  it('gets the bucket name, the Powertools settings and source maps through its environment', () => {
    const env = (solverFunction().properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env).toEqual({
      BUCKET: { Ref: dataBucketId() },
      POWERTOOLS_SERVICE_NAME: 'sudoku',
      POWERTOOLS_METRICS_NAMESPACE: 'Sudoku',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
      SOLVER_THREADS: '1',
    });
  });

  it('logs JSON to its own log group with a retention period', () => {
    const logging = solverFunction().properties.LoggingConfig as { LogFormat: string; LogGroup: { Ref: string } };
    expect(logging.LogFormat).toBe('JSON');
    const groups = template.findResources('AWS::Logs::LogGroup');
    expect(groups[logging.LogGroup.Ref]).toMatchObject({ Properties: { RetentionInDays: 30 } });
  });

  it('has recursive loop detection on and X-Ray tracing active', () => {
    expect(solverFunction().properties).toMatchObject({
      RecursiveLoop: 'Terminate',
      TracingConfig: { Mode: 'Active' },
    });
  });

  it('has a role without managed policies', () => {
    const { properties } = solverFunction();
    const roleId = (properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const role = template.findResources('AWS::IAM::Role')[roleId] as { Properties: Record<string, unknown> };
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('least privilege on the bucket', () => {
  it('reads only incoming/*, batch/* and solved/* (the idempotency HeadObject), writes only solved/* and reports/*', () => {
    expect(solverS3Grants()).toEqual({
      's3:GetObject': ['batch/*', 'incoming/*', 'solved/*'],
      's3:PutObject': ['reports/*', 'solved/*'],
      's3:AbortMultipartUpload': ['reports/*', 'solved/*'],
      's3:ListBucket': [''],
    });
  });
});

describe('bucket', () => {
  it('blocks all public access, is encrypted and is retained when the stack is deleted', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[dataBucketId()];
    expect(bucket).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
      },
    });
  });

  it('denies every request not made over TLS 1.2 or later', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: dataBucketId() },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
          }),
        ]),
      },
    });
  });

  it('writes server access logs to a separate bucket', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[dataBucketId()] as {
      Properties: { LoggingConfiguration: { DestinationBucketName: { Ref: string } } };
    };
    const logBucketId = bucket.Properties.LoggingConfiguration.DestinationBucketName.Ref;
    expect(logBucketId).not.toBe(dataBucketId());
    expect(template.findResources('AWS::S3::Bucket')[logBucketId]).toBeDefined();
  });

  it('expires inputs after 30 days, outputs and reports after 90, and abandoned multipart uploads after 1', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[dataBucketId()] as {
      Properties: { LifecycleConfiguration: { Rules: Record<string, unknown>[] } };
    };
    const rules = bucket.Properties.LifecycleConfiguration.Rules;
    const byPrefix = Object.fromEntries(rules.filter((r) => r.Prefix).map((r) => [r.Prefix, r.ExpirationInDays]));
    expect(byPrefix).toEqual({ 'incoming/': 30, 'batch/': 30, 'solved/': 90, 'reports/': 90 });
    expect(rules).toContainEqual(
      expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
  });
});

describe('S3 notification', () => {
  it('invokes the function for every ObjectCreated event (multipart included) under incoming/ only', () => {
    const { properties } = only('Custom::S3BucketNotifications');
    expect(properties.NotificationConfiguration).toEqual({
      LambdaFunctionConfigurations: [
        {
          Events: ['s3:ObjectCreated:*'],
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'incoming/' }] } },
          LambdaFunctionArn: { 'Fn::GetAtt': [solverFunction().logicalId, 'Arn'] },
        },
      ],
    });
  });
});

describe('HTTP API', () => {
  it('routes POST /solve, GET /health, GET /openapi.json and $default (for 404/405) to the function', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey,
    );
    expect(routes.sort()).toEqual(['$default', 'GET /health', 'GET /openapi.json', 'POST /solve']);
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [solverFunction().logicalId, 'Arn'] },
    });
  });

  it('is public by default (no authorizer on any route)', () => {
    for (const route of Object.values(template.findResources('AWS::ApiGatewayV2::Route'))) {
      expect((route as { Properties: { AuthorizationType: string } }).Properties.AuthorizationType).toBe('NONE');
    }
  });

  it('throttles the default stage (50 requests/s, burst 100)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
  });

  it('writes JSON access logs to a log group with retention', () => {
    const { properties } = only('AWS::ApiGatewayV2::Stage');
    const settings = properties.AccessLogSettings as {
      DestinationArn: { 'Fn::GetAtt': [string, string] };
      Format: string;
    };
    const groupId = settings.DestinationArn['Fn::GetAtt'][0];
    expect(template.findResources('AWS::Logs::LogGroup')[groupId]).toMatchObject({
      Properties: { RetentionInDays: 30 },
    });
    expect(JSON.parse(settings.Format)).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
  });

  it('answers CORS preflights for GET and POST from any origin', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['*'],
        AllowMethods: Match.arrayWith(['GET', 'POST']),
        AllowHeaders: Match.arrayWith(['content-type']),
      }),
    });
  });
});

describe('failed asynchronous invocations', () => {
  it('are retried twice, for at most 6 hours, then sent to the failed-events queue', () => {
    const queueId = failedEventsQueueId();
    expect(template.findResources('AWS::SQS::Queue')[queueId]).toBeDefined();
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: solverFunction().logicalId },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
  });

  it('land in a queue that is encrypted and refuses non-TLS requests', () => {
    const queueId = failedEventsQueueId();
    expect(template.findResources('AWS::SQS::Queue')[queueId]).toMatchObject({
      Properties: { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 },
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('alarms', () => {
  it('fire on the first failed event waiting, function error and function throttle', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
      (a) => (a as { Properties: Record<string, unknown> }).Properties,
    );
    const byMetric = Object.fromEntries(alarms.map((a) => [`${a.Namespace}/${a.MetricName}`, a]));
    for (const key of ['AWS/SQS/ApproximateNumberOfMessagesVisible', 'AWS/Lambda/Errors', 'AWS/Lambda/Throttles']) {
      expect(byMetric[key], key).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
      });
    }
    expect(byMetric['AWS/Lambda/Errors']?.Dimensions).toEqual([
      { Name: 'FunctionName', Value: { Ref: solverFunction().logicalId } },
    ]);
  });
});

describe('outputs', () => {
  it('give the API URL, the bucket name and the failed-events queue URL', () => {
    const outputs = template.findOutputs('*');
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'BucketName', 'FailedEventsQueueUrl']));
    expect(outputs.BucketName?.Value).toEqual({ Ref: dataBucketId() });
    expect(outputs.FailedEventsQueueUrl?.Value).toEqual({ Ref: failedEventsQueueId() });
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain('execute-api');
  });
});
