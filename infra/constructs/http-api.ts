// The HTTP API (payload format 2.0) in front of the function: throttled, logged, CORS-enabled.
import { Duration, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpNoneAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { API_ROUTE_NAMES, routeKey } from '../../functions/contract/api-routes.js';
import { CORS } from '../../functions/contract/service-layout.js';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type ApiAuth, PREFLIGHT_ROUTE, type RouteThrottle } from '../settings.js';

export interface HttpApiProps {
  readonly handler: lambda.Function;
  /** The API's name in the console (API Gateway lets names repeat, people do not); CDK's default is the construct's id. */
  readonly apiName?: string;
  readonly auth: ApiAuth;
  /** Origins allowed by CORS (`*` for any). */
  readonly corsOrigins: readonly string[];
  /**
   * Every route key's token bucket (settings.ts: apiRouteThrottles). Each becomes a route, and the
   * stage throttles each route by its own bucket; `$default`'s is also the stage default.
   */
  readonly routeThrottles: Readonly<Record<string, RouteThrottle>>;
  readonly logRetentionDays: number;
}

/**
 * The routes the function answers, from the route keys of `routeThrottles` (`METHOD /path`); any
 * other request reaches it through `$default` and gets its 404/405.
 */
function explicitRoutes(routeThrottles: Readonly<Record<string, RouteThrottle>>) {
  return Object.keys(routeThrottles)
    .filter((key) => key !== '$default' && key !== PREFLIGHT_ROUTE)
    .map((key) => {
      const [method, path] = key.split(' ') as [keyof typeof apigw.HttpMethod, string];
      return { method: apigw.HttpMethod[method], path };
    });
}

/**
 * Routes served without authorization even with `apiAuth=iam`: the page, because a browser opening
 * a URL cannot sign the request with SigV4. The page is a static document (its scripts and styles
 * inline: it loads nothing else from the API); the calls it makes to the API routes are signed or
 * refused like any other caller's.
 */
const UNSIGNED_ROUTES: ReadonlySet<string> = new Set([routeKey('page')]);

/** One JSON line per request: enough to trace a client's call to the function's logs. */
export const accessLogFields = {
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
    // CORS from the corsOrigins setting; the IAM signing headers are allowed for the iam mode. The
    // function answers the preflights API Gateway passes on with the same values (one source: CORS).
    this.api = new apigw.HttpApi(this, 'Api', {
      ...(props.apiName === undefined ? {} : { apiName: props.apiName }),
      description: `Sudoku solver: ${API_ROUTE_NAMES.filter((name) => name !== 'page')
        .map(routeKey)
        .join(', ')}, and a web page at ${routeKey('page')}`,
      createDefaultStage: false,
      defaultIntegration: integration,
      defaultAuthorizer: props.auth === 'iam' ? new HttpIamAuthorizer() : undefined,
      corsPreflight: {
        allowOrigins: [...props.corsOrigins],
        allowMethods: CORS.allowMethods.map((method) => apigw.CorsHttpMethod[method]),
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
    props.handler.addEnvironment(CORS.originsEnv, props.corsOrigins.join(','));
    // Routes the stage's RouteSettings name; CDK creates $default's for the default integration.
    // CDK also gives each route's integration a Lambda permission of its own (`<api>/*/*/solve`...),
    // but the $default route's (`<api>/*/*`) already allows every route: the extra ones allow nothing
    // more (test/infra/authorization.test.ts drops each grant in turn and finds them unneeded).
    const created = [this.api.node.findChild('DefaultRoute')];
    for (const route of explicitRoutes(props.routeThrottles)) {
      const unsigned = props.auth === 'iam' && UNSIGNED_ROUTES.has(`${route.method} ${route.path}`);
      const added = this.api.addRoutes({
        path: route.path,
        methods: [route.method],
        integration,
        ...(unsigned ? { authorizer: new HttpNoneAuthorizer() } : {}),
      });
      created.push(...added);
      if (unsigned) {
        Validations.of(added[0]!).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            'The web page only: a browser opens it unsigned, and it returns a static document (it solves nothing and reads no data); every API route keeps IAM authorization.',
        });
      }
    }
    // A browser sends its preflight unsigned: in IAM mode it would get 403 from the authorizer, so
    // preflights get a route of their own without authorization (the function answers them).
    if (props.auth === 'iam') {
      const [preflight] = this.api.addRoutes({
        path: '/{proxy+}',
        methods: [apigw.HttpMethod.OPTIONS],
        integration,
        authorizer: new HttpNoneAuthorizer(),
      });
      created.push(preflight!);
      Validations.of(preflight!).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'CORS preflights only: browsers send them unsigned, and the function answers them with headers alone (it solves nothing).',
      });
    }

    for (const route of created.slice(1)) route.node.tryRemoveChild('Solver-Permission');

    // Access logs in their own log group, with retention.
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetentionDays as logs.RetentionDays,
    });

    // The $default stage, auto-deployed. API Gateway throttles each route by its own bucket (the
    // stage's default route throttle too is per route), so every route gets an explicit one, sized
    // together to fit the API function's pool (settings.ts); the default is the smallest, for a route
    // added without one.
    const fallback = props.routeThrottles.$default;
    if (!fallback) throw new Error('routeThrottles must give $default a bucket');
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: fallback.rate, burstLimit: fallback.burst },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
      },
    });
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const [key, { rate, burst }] of Object.entries(props.routeThrottles)) {
      if (key === PREFLIGHT_ROUTE && props.auth !== 'iam') continue;
      routeSettings[key] = { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst };
    }
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = routeSettings;
    // CloudFormation refuses RouteSettings for a route key that does not exist yet.
    for (const route of created) this.stage.node.addDependency(route);

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
