// Template assertions on the default stack (cdk.json's context): each test names the property it proves.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesized, synth } from './helpers.js';
import { API_WORST_CASE_MS } from '../../functions/contract/api-capacity.js';

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

type Purpose = 'api' | 'files';

/** The function deployed for `purpose` (by its construct's ID; the test fails unless exactly one). */
function solverFunction(purpose: Purpose = 'files') {
  const functions = template.findResources('AWS::Lambda::Function');
  const prefix = `${purpose === 'api' ? 'Api' : 'Files'}SolverFunction`;
  const [logicalId, ...others] = Object.keys(functions).filter((id) => id.startsWith(prefix));
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

/** Every statement of every policy attached to the role of the `purpose` function. */
function roleStatements(purpose: Purpose): Statement[] {
  const { properties } = solverFunction(purpose);
  const roleId = (properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return Object.values(policies).flatMap(
    (policy) =>
      (policy as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument.Statement,
  );
}

/** Every S3 action the function's role is allowed (or, `effect` Deny, denied), as action -> sorted resource suffixes. */
function s3Grants(purpose: Purpose, effect: 'Allow' | 'Deny' = 'Allow'): Record<string, string[]> {
  const bucketId = dataBucketId();
  const grants: Record<string, string[]> = {};
  for (const statement of roleStatements(purpose).filter((s) => s.Effect === effect)) {
    const actions = ([] as string[]).concat(statement.Action).filter((a) => a.startsWith('s3:'));
    const resources = ([] as unknown[]).concat(statement.Resource);
    for (const action of actions) {
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
  for (const list of Object.values(grants)) list.sort();
  return grants;
}

describe('functions', () => {
  it('deploy the same bundle and handler twice, on Node.js 24 and arm64', () => {
    const api = solverFunction('api').properties;
    const files = solverFunction('files').properties;
    for (const properties of [api, files]) {
      expect(properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
    }
    expect(api.Code).toEqual(files.Code);
    expect(
      Object.keys(template.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'nodejs24.x' } })),
    ).toHaveLength(2);
  });

  it('deploy exactly the bundle folder (index.mjs and its source map, byte for byte)', () => {
    const code = solverFunction().properties.Code as { S3Key: string };
    const hash = code.S3Key.replace(/\.zip$/, '');
    const staged = path.join(synthesized.app.outdir, `asset.${hash}`);
    expect(readdirSync(staged).sort()).toEqual(readdirSync(synthesized.bundleDir).sort());
    for (const file of readdirSync(staged)) {
      expect(readFileSync(path.join(staged, file))).toEqual(readFileSync(path.join(synthesized.bundleDir, file)));
    }
  });

  it("the API function: one vCPU, a 5 s timeout (under API Gateway's 30 s), 100 reserved executions", () => {
    expect(solverFunction('api').properties).toMatchObject({
      MemorySize: 1769,
      Timeout: 5,
      ReservedConcurrentExecutions: 100,
    });
  });

  it('the files function: one vCPU, the 900 s maximum timeout for whole files, 80 reserved executions (S3 events, a batch run and a sweep, one large file)', () => {
    expect(solverFunction('files').properties).toMatchObject({
      MemorySize: 1769,
      Timeout: 900,
      ReservedConcurrentExecutions: 80,
    });
  });

  it.each([
    ['api', { CORS_ALLOW_ORIGINS: '*' }],
    ['files', { SOLVER_THREADS: '1' }],
  ] as const)(
    'the %s function gets the Powertools settings, source maps (and the API its CORS origins) through its environment, nothing set only for the twin',
    (purpose, extra) => {
      const env = (solverFunction(purpose).properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env).toEqual({
        POWERTOOLS_SERVICE_NAME: 'sudoku',
        POWERTOOLS_METRICS_NAMESPACE: 'Sudoku',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
        ...('CORS_ALLOW_ORIGINS' in extra ? { CORS_ALLOW_ORIGINS: '*' } : {}),
        ...('SOLVER_THREADS' in extra ? { SOLVER_THREADS: '1' } : {}),
        // The large-file machine's ARN and the function's own timeout: test/infra/large-file.test.ts.
        ...(purpose === 'files'
          ? { SUDOKU_LARGE_FILE_STATE_MACHINE: expect.anything(), SUDOKU_FILES_TIMEOUT_SECONDS: '900' }
          : {}),
      });
    },
  );

  it.each(['api', 'files'] as const)(
    'the %s function logs JSON to its own log group with a retention period',
    (purpose) => {
      const logging = solverFunction(purpose).properties.LoggingConfig as {
        LogFormat: string;
        LogGroup: { Ref: string };
      };
      expect(logging.LogFormat).toBe('JSON');
      const groups = template.findResources('AWS::Logs::LogGroup');
      expect(groups[logging.LogGroup.Ref]).toMatchObject({ Properties: { RetentionInDays: 30 } });
      expect(logging.LogGroup.Ref).not.toBe(
        (solverFunction(purpose === 'api' ? 'files' : 'api').properties.LoggingConfig as { LogGroup: { Ref: string } })
          .LogGroup.Ref,
      );
    },
  );

  it.each(['api', 'files'] as const)(
    'the %s function has recursive loop detection on and X-Ray tracing active',
    (purpose) => {
      expect(solverFunction(purpose).properties).toMatchObject({
        RecursiveLoop: 'Terminate',
        TracingConfig: { Mode: 'Active' },
      });
    },
  );

  it.each(['api', 'files'] as const)('the %s function has its own role without managed policies', (purpose) => {
    const roleOf = (p: Purpose) =>
      (solverFunction(p).properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const role = template.findResources('AWS::IAM::Role')[roleOf(purpose)] as { Properties: Record<string, unknown> };
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(roleOf('api')).not.toBe(roleOf('files'));
  });
});

describe('least privilege on the bucket', () => {
  it('the files function reads only incoming/*, batch/* and its output prefixes (the idempotency HeadObject), writes only its output prefixes, works in staging/*, and deletes answers only conditionally', () => {
    const outputs = ['batch-reports/*', 'batch-solved/*', 'long-keys/*', 'reports/*', 'solved/*'];
    expect(s3Grants('files')).toEqual({
      's3:GetObject': ['batch/*', 'incoming/*', ...outputs, 'staging/*'].sort(),
      's3:PutObject': [...outputs, 'staging/*'],
      's3:AbortMultipartUpload': [...outputs, 'staging/*'],
      's3:DeleteObject': ['batch-reports/*', 'batch-solved/*', 'long-keys/*', 'reports/*', 'solved/*', 'staging/*'],
      's3:ListBucket': [''],
    });
  });

  it('the files function deletes answers (solved/*, batch-solved/*, long-keys/*) only with If-Match (a superseded output, never blind)', () => {
    const deletes = roleStatements('files').filter(
      (s) => s.Effect === 'Allow' && ([] as string[]).concat(s.Action).includes('s3:DeleteObject'),
    );
    const answers = deletes.filter((s) => JSON.stringify(s.Resource).includes('solved/'));
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ Condition: { Null: { 's3:if-match': 'false' } } });
  });

  it('the files function deletes reports (a superseded run taking back its running report) only with If-Match', () => {
    const deletes = roleStatements('files').filter(
      (s) => s.Effect === 'Allow' && ([] as string[]).concat(s.Action).includes('s3:DeleteObject'),
    );
    const reports = deletes.filter((s) => JSON.stringify(s.Resource).includes('reports/'));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ Condition: { Null: { 's3:if-match': 'false' } } });
  });

  it("the files function is denied writing run-reports/*, the batch run's own result files", () => {
    expect(s3Grants('files', 'Deny')).toEqual({
      's3:PutObject': ['run-reports/*'],
      's3:AbortMultipartUpload': ['run-reports/*'],
    });
  });

  it('the API function has no access to the bucket at all', () => {
    expect(s3Grants('api')).toEqual({});
    expect(
      roleStatements('api')
        .flatMap((s) => ([] as string[]).concat(s.Action))
        .sort(),
    ).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
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

  it('expires inputs after 30 days, outputs, reports and run results after 90, staging/ after 8, and abandoned multipart uploads (anywhere) after 1', () => {
    const bucket = template.findResources('AWS::S3::Bucket')[dataBucketId()] as {
      Properties: { LifecycleConfiguration: { Rules: Record<string, unknown>[] } };
    };
    const rules = bucket.Properties.LifecycleConfiguration.Rules;
    const byPrefix = Object.fromEntries(rules.filter((r) => r.Prefix).map((r) => [r.Prefix, r.ExpirationInDays]));
    expect(byPrefix).toEqual({
      'incoming/': 30,
      'batch/': 30,
      'solved/': 90,
      'reports/': 90,
      'batch-solved/': 90,
      'batch-reports/': 90,
      'long-keys/': 90,
      'run-reports/': 90,
      'staging/': 8,
    });
    expect(rules).toContainEqual({
      Id: 'abort-incomplete-uploads',
      AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      Status: 'Enabled',
    });
  });
});

describe('S3 notification', () => {
  it('invokes the files function for every ObjectCreated event (multipart included) under incoming/ only', () => {
    const { properties } = only('Custom::S3BucketNotifications');
    expect(properties.NotificationConfiguration).toEqual({
      LambdaFunctionConfigurations: [
        {
          Events: ['s3:ObjectCreated:*'],
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'incoming/' }] } },
          LambdaFunctionArn: { 'Fn::GetAtt': [solverFunction('files').logicalId, 'Arn'] },
        },
      ],
    });
  });
});

describe('HTTP API', () => {
  it('routes POST /solve, POST /grade, POST /hint, GET /puzzle, GET /, GET /health, GET /openapi.json and $default (for 404/405) to the API function', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey,
    );
    expect(routes.sort()).toEqual([
      '$default',
      'GET /',
      'GET /health',
      'GET /openapi.json',
      'GET /puzzle',
      'POST /grade',
      'POST /hint',
      'POST /solve',
    ]);
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [solverFunction('api').logicalId, 'Arn'] },
    });
  });

  it('is public by default (no authorizer on any route)', () => {
    for (const route of Object.values(template.findResources('AWS::ApiGatewayV2::Route'))) {
      expect((route as { Properties: { AuthorizationType: string } }).Properties.AuthorizationType).toBe('NONE');
    }
  });

  it("throttles every route by its own bucket, so requests in flight never exceed the API function's reserved concurrency", () => {
    const { properties, logicalId } = only('AWS::ApiGatewayV2::Stage');
    const buckets = properties.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    const routes = template.findResources('AWS::ApiGatewayV2::Route');
    const keys = Object.values(routes).map((r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey);
    // Every route has a bucket of its own (API Gateway throttles each route separately: docs/infra.md).
    expect(Object.keys(buckets).sort()).toEqual(keys.sort());
    expect(buckets['POST /solve']).toEqual({ ThrottlingRateLimit: 104, ThrottlingBurstLimit: 26 });
    // ... and a route added without one gets the smallest.
    expect(properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 2, ThrottlingBurstLimit: 2 });
    // Peak in flight: every bucket full, then each steady rate for as long as a request may run (W).
    const { ReservedConcurrentExecutions } = solverFunction('api').properties as Record<string, number>;
    const peak = Object.values(buckets).reduce(
      (sum, b) => sum + b.ThrottlingBurstLimit + (b.ThrottlingRateLimit * API_WORST_CASE_MS) / 1000,
      0,
    );
    expect(peak).toBeLessThanOrEqual(ReservedConcurrentExecutions as number);
    expect(peak).toBeGreaterThan((ReservedConcurrentExecutions as number) - 1);
    // CloudFormation refuses RouteSettings naming a route that does not exist yet.
    const dependsOn = (template.toJSON().Resources[logicalId] as { DependsOn: string[] }).DependsOn;
    for (const route of Object.keys(routes)) expect(dependsOn).toContain(route);
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
        ExposeHeaders: Match.arrayWith(['x-sudoku-solved', 'x-sudoku-failed']),
      }),
    });
    // Public mode: no authorizer, so preflights need no route of their own.
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (route) => (route as { Properties: { RouteKey: string } }).Properties.RouteKey,
    );
    expect(routeKeys).not.toContain('OPTIONS /{proxy+}');
  });
});

describe('failed asynchronous invocations', () => {
  it('are retried twice, for at most 6 hours, then sent to the failed-events queue', () => {
    const queueId = failedEventsQueueId();
    expect(template.findResources('AWS::SQS::Queue')[queueId]).toBeDefined();
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: solverFunction('files').logicalId },
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
  const alarms = () =>
    Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
      (a) => (a as { Properties: Record<string, unknown> }).Properties,
    );
  const on = (namespace: string, metric: string, dimension?: unknown) =>
    alarms().filter(
      (a) =>
        a.Namespace === namespace &&
        a.MetricName === metric &&
        (dimension === undefined || JSON.stringify(a.Dimensions).includes(JSON.stringify(dimension))),
    );

  it('fire on the first API 5xx', () => {
    const [alarm, ...others] = on('AWS/ApiGateway', '5xx');
    expect(others).toEqual([]);
    expect(alarm).toMatchObject({
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarm?.Dimensions).toEqual([{ Name: 'ApiId', Value: { Ref: only('AWS::ApiGatewayV2::Api').logicalId } }]);
  });

  it.each(['api', 'files'] as const)('fire on the first error and the first throttle of the %s function', (purpose) => {
    const dimension = { Name: 'FunctionName', Value: { Ref: solverFunction(purpose).logicalId } };
    for (const metric of ['Errors', 'Throttles']) {
      const found = on('AWS/Lambda', metric, dimension);
      expect(found, metric).toHaveLength(1);
      expect(found[0]).toMatchObject({ Statistic: 'Sum', Threshold: 1, EvaluationPeriods: 1 });
    }
  });

  it.each([
    ['api', 5],
    ['files', 900],
  ] as const)('fire when an invocation of the %s function runs for 80%% of its %i s timeout', (purpose, timeout) => {
    const dimension = { Name: 'FunctionName', Value: { Ref: solverFunction(purpose).logicalId } };
    const [alarm, ...others] = on('AWS/Lambda', 'Duration', dimension);
    expect(others).toEqual([]);
    expect(alarm).toMatchObject({
      Statistic: 'Maximum',
      Threshold: timeout * 1000 * 0.8,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('fire on the first failed S3 event waiting in the dead-letter queue', () => {
    const found = on('AWS/SQS', 'ApproximateNumberOfMessagesVisible', {
      Name: 'QueueName',
      Value: { 'Fn::GetAtt': [failedEventsQueueId(), 'QueueName'] },
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ Statistic: 'Maximum', Threshold: 1 });
  });

  it("fire on every state machine's first failed, timed-out or aborted execution, to the topic", () => {
    const topicId = only('AWS::SNS::Topic').logicalId;
    const machines = Object.keys(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(machines.length).toBeGreaterThanOrEqual(3);
    for (const id of machines)
      for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted']) {
        const found = on('AWS/States', metric, { Name: 'StateMachineArn', Value: { Ref: id } });
        expect(found, `${id} ${metric}`).toHaveLength(1);
        expect(found[0]).toMatchObject({ Statistic: 'Sum', Threshold: 1, AlarmActions: [{ Ref: topicId }] });
      }
  });

  it('all notify one SNS topic, when they fire and when they recover', () => {
    const topicId = only('AWS::SNS::Topic').logicalId;
    expect(alarms().length).toBeGreaterThanOrEqual(12);
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions, String(alarm.AlarmDescription)).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions, String(alarm.AlarmDescription)).toEqual([{ Ref: topicId }]);
      expect(String(alarm.AlarmDescription).length).toBeGreaterThan(20);
    }
  });

  it('go to a topic that refuses non-TLS publishing, with no subscription unless alarmEmail is set', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    expect(template.findResources('AWS::SNS::Subscription')).toEqual({});
  });
});

describe('dashboard', () => {
  const body = (): string => {
    const { properties } = only('AWS::CloudWatch::Dashboard');
    const rendered = properties.DashboardBody as { 'Fn::Join': [string, unknown[]] };
    return rendered['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('');
  };

  it('shows the API: requests, latency p50 and p99, 4xx and 5xx', () => {
    const text = body();
    for (const metric of ['"Count"', '"Latency"', '"4xx"', '"5xx"'])
      expect(text).toContain(`"AWS/ApiGateway",${metric}`);
    expect(text).toContain('"stat":"p50"');
    expect(text).toContain('"stat":"p99"');
  });

  it('shows puzzles and files solved and failed per minute from the EMF metrics the function emits (namespace and service dimension)', () => {
    const text = body();
    for (const metric of ['BoardsSolved', 'BoardsFailed', 'SolveTime', 'FilesSolved', 'FilesRejected', 'FilesFailed']) {
      expect(text).toContain(`["Sudoku","${metric}","service","sudoku"`);
    }
    expect(text).toContain('"expression":"micros / (solved + failed)"');
  });

  it('shows files, batch runs and map items, the concurrency of each function against its reservation, and both queues', () => {
    const text = body();
    for (const metric of ['Invocations', 'Errors', 'ConcurrentExecutions'])
      expect(text).toContain(`"AWS/Lambda","${metric}"`);
    for (const metric of ['ExecutionsStarted', 'ExecutionsSucceeded', 'ExecutionsFailed', 'ExecutionsTimedOut']) {
      expect(text).toContain(`"AWS/States","${metric}"`);
    }
    expect(text).toContain('/BatchFiles"');
    expect(text).toContain('/SweepIncoming"');
    expect(text).toContain('"ApproximateNumberOfMessagesVisible"');
    expect(text).toContain('"value":100,"label":"API reserved"');
    expect(text).toContain('"value":80,"label":"files reserved"');
    expect(text).toContain('"type":"alarm"');
  });
});

describe("CDK's BucketNotificationsHandler", () => {
  it('logs to a log group with the retention setting', () => {
    const handlers = template.findResources('AWS::Lambda::Function', {
      Properties: { Runtime: Match.stringLikeRegexp('^python') },
    });
    const [handler, ...others] = Object.values(handlers) as {
      Properties: { LoggingConfig: { LogGroup: { Ref: string } } };
    }[];
    expect(others).toEqual([]);
    const groupId = handler?.Properties.LoggingConfig.LogGroup.Ref as string;
    expect(template.findResources('AWS::Logs::LogGroup')[groupId]).toMatchObject({
      Properties: { RetentionInDays: 30 },
    });
  });
});

describe('outputs', () => {
  it('give the API URL, the bucket name, the failed-events queue URL, the alarm topic and the dashboard', () => {
    const outputs = template.findOutputs('*');
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining(['ApiUrl', 'BucketName', 'FailedEventsQueueUrl', 'AlarmTopicArn', 'DashboardName']),
    );
    expect(outputs.AlarmTopicArn?.Value).toEqual({ Ref: only('AWS::SNS::Topic').logicalId });
    expect(outputs.DashboardName?.Value).toEqual({ Ref: only('AWS::CloudWatch::Dashboard').logicalId });
    expect(outputs.BucketName?.Value).toEqual({ Ref: dataBucketId() });
    expect(outputs.FailedEventsQueueUrl?.Value).toEqual({ Ref: failedEventsQueueId() });
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain('execute-api');
  });
});
