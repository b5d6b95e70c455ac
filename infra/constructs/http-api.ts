// The HTTP API (payload format 2.0) in front of the function: throttled, logged, CORS-enabled.
import { Duration, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { ApiAuth } from '../settings.js';

export interface HttpApiProps {
  readonly handler: lambda.IFunction;
  readonly auth: ApiAuth;
  readonly rateLimit: number;
  readonly burstLimit: number;
  readonly logRetentionDays: number;
}

/** The routes the function answers; anything else reaches it through `$default` and gets its 404/405. */
export const routes = [
  { method: apigw.HttpMethod.POST, path: '/solve' },
  { method: apigw.HttpMethod.GET, path: '/health' },
  { method: apigw.HttpMethod.GET, path: '/openapi.json' },
] as const;

/** One JSON line per request: enough to trace a client's call to the function's logs. */
const accessLogFields = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  caller: '$context.identity.caller',
  requestTime: '$context.requestTime',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
};

export class HttpApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    const integration = new HttpLambdaIntegration('Solver', props.handler, {
      payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
    });

    // Authorization: public by default (solving a puzzle reads and writes no stored data, and the
    // stage throttling bounds the cost); `-c apiAuth=iam` requires SigV4-signed callers instead.
    // Browsers may call it from any origin; the IAM signing headers are allowed for the iam mode.
    this.api = new apigw.HttpApi(this, 'Api', {
      description: 'Sudoku solver: POST /solve, GET /health, GET /openapi.json',
      createDefaultStage: false,
      defaultIntegration: integration,
      defaultAuthorizer: props.auth === 'iam' ? new HttpIamAuthorizer() : undefined,
      corsPreflight: {
        allowOrigins: ['*'],
        allowMethods: [apigw.CorsHttpMethod.GET, apigw.CorsHttpMethod.POST, apigw.CorsHttpMethod.OPTIONS],
        allowHeaders: ['content-type', 'authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256'],
        maxAge: Duration.days(1),
      },
    });
    for (const route of routes) {
      this.api.addRoutes({ path: route.path, methods: [route.method], integration });
    }

    // Access logs in their own log group, with retention.
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetentionDays as logs.RetentionDays,
    });

    // The $default stage, auto-deployed, throttled for every route (the API is public by default).
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit, burstLimit: props.burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });

    if (props.auth === 'none') {
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Public by design: solving a puzzle touches no stored data and stage throttling bounds the cost; deploy with -c apiAuth=iam to require IAM authorization.',
      });
    }
  }

  /** The invoke URL of the $default stage (ends with `/`). */
  get url(): string {
    return this.stage.url;
  }
}
