/**
 * The limits the twin puts in front of the handler, read from the template the stack synthesizes
 * (twin/iam/stack-template.ts: cdk.json's context, as `npx cdk synth` and `npm start` read it), so
 * a change to infra/ changes what the twin enforces with no second copy of the rule: every route's
 * token bucket (the stage's RouteSettings), and each function's timeout, memory and pool (its
 * ReservedConcurrentExecutions, or without one the unreserved pool the stack sizes it for).
 *
 * Tests (and anyone curious) can override them by environment: SUDOKU_LOCAL_RATE_LIMIT and
 * SUDOKU_LOCAL_BURST_LIMIT (POST /solve's bucket), SUDOKU_LOCAL_RESERVED_CONCURRENCY (the pool;
 * 0 = none). Overrides are not checked against each other, so a test can fill the pool on purpose.
 * The files function's timeout likewise: SUDOKU_FILES_TIMEOUT_SECONDS; and its pool (its reserved
 * concurrency, or its part of the unreserved share): SUDOKU_LOCAL_FILES_CONCURRENCY.
 */
import { routeKey } from '../functions/contract/api-routes.js';
import { UNRESERVED_POOL_METADATA } from '../infra/template-metadata.js';
import type { GatewayLimits, RouteBucket } from './gateway/gateway-limits.js';
import { functionPurposes } from './iam/policy-model.js';
import type { CloudFormationTemplate, TemplateResource } from './iam/resolve-template.js';
import { cachedStackTemplate, loadStackTemplate } from './iam/stack-template.js';

const SOLVE_ROUTE = routeKey('solve');

/** One function's limits as the template deploys them. */
export interface FunctionLimits {
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  /** ReservedConcurrentExecutions; 0 = no reservation. */
  readonly reservedConcurrency: number;
  /** Executions it can keep busy: its reservation, or without one its part of the unreserved pool. */
  readonly pool: number;
}

export interface StackLimits {
  /** Route key -> bucket, as the HTTP API stage's RouteSettings set them. */
  readonly routeThrottles: Readonly<Record<string, RouteBucket>>;
  readonly api: FunctionLimits;
  readonly files: FunctionLimits;
}

/** The template does not say what the twin needs of it: the stack and the twin no longer agree. */
export class StackLimitsError extends Error {
  override readonly name = 'StackLimitsError';
  constructor(
    readonly code: 'template-not-synthesized' | 'template-missing-limit' | 'bad-override',
    message: string,
  ) {
    super(message);
  }
}

function missing(what: string): never {
  throw new StackLimitsError(
    'template-missing-limit',
    `the synthesized stack template has no ${what} (twin/stack-limits.ts reads it): infra/ and the twin disagree`,
  );
}

function numberAt(value: unknown, what: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) missing(what);
  return n;
}

function functionLimits(resource: TemplateResource, purpose: string): FunctionLimits {
  const raw = resource.Properties ?? {};
  const reserved = raw.ReservedConcurrentExecutions;
  const reservedConcurrency = reserved === undefined ? 0 : numberAt(reserved, `${purpose} function's reservation`);
  return {
    timeoutSeconds: numberAt(raw.Timeout, `${purpose} function's Timeout`),
    memoryMb: numberAt(raw.MemorySize, `${purpose} function's MemorySize`),
    reservedConcurrency,
    pool:
      reservedConcurrency > 0
        ? reservedConcurrency
        : numberAt(resource.Metadata?.[UNRESERVED_POOL_METADATA], `${purpose} function's ${UNRESERVED_POOL_METADATA}`),
  };
}

function routeBucket(raw: unknown, route: string): RouteBucket {
  const settings = raw as { ThrottlingRateLimit?: unknown; ThrottlingBurstLimit?: unknown } | undefined;
  return {
    rate: numberAt(settings?.ThrottlingRateLimit, `${route} ThrottlingRateLimit`),
    burst: numberAt(settings?.ThrottlingBurstLimit, `${route} ThrottlingBurstLimit`),
  };
}

/**
 * What the template deploys: the stage's buckets (RouteSettings per route, DefaultRouteSettings for
 * `$default` unless RouteSettings names it), and the functions found as the stack wires them (the
 * HTTP API integration's target answers the API; the one the bucket's events reach handles files).
 */
export function stackLimits(template: CloudFormationTemplate): StackLimits {
  const stage = Object.values(template.Resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage');
  if (!stage) missing('AWS::ApiGatewayV2::Stage');
  const routeThrottles: Record<string, RouteBucket> = {};
  const defaults = stage.Properties?.DefaultRouteSettings;
  if (defaults) routeThrottles.$default = routeBucket(defaults, 'DefaultRouteSettings');
  for (const [route, settings] of Object.entries((stage.Properties?.RouteSettings ?? {}) as Record<string, unknown>))
    routeThrottles[route] = routeBucket(settings, route);
  if (!routeThrottles[SOLVE_ROUTE]) missing(`RouteSettings for ${SOLVE_ROUTE}`);
  const functions: Partial<Record<'api' | 'files', FunctionLimits>> = {};
  for (const [id, purpose] of functionPurposes(template))
    functions[purpose] = functionLimits(template.Resources[id]!, purpose);
  return {
    routeThrottles,
    api: functions.api ?? missing('function behind the HTTP API'),
    files: functions.files ?? missing("function the bucket's events reach"),
  };
}

let deployed: StackLimits | undefined;

/** The limits of the stack `npm start` runs (cdk.json's context), synthesizing its template if need be. */
export async function loadStackLimits(): Promise<StackLimits> {
  deployed ??= stackLimits(await loadStackTemplate());
  return deployed;
}

/**
 * The same, read at once: the template must have been synthesized already (loadStackLimits, or
 * stackTemplateFile as the tests' global setup does), since synthesizing cannot be done synchronously.
 */
export function deployedStackLimits(): StackLimits {
  if (deployed) return deployed;
  const template = cachedStackTemplate();
  if (!template)
    throw new StackLimitsError(
      'template-not-synthesized',
      "the stack's template is not synthesized yet: await loadStackLimits() (twin/stack-limits.ts) before reading the limits",
    );
  deployed = stackLimits(template);
  return deployed;
}

function override(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new StackLimitsError('bad-override', `${name} must be a number >= 0, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The files function's timeout as deployed, or SUDOKU_FILES_TIMEOUT_SECONDS so a test can make it
 * short: the twin ends each files invocation there, as Lambda does.
 */
export function filesTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return (override(env, 'SUDOKU_FILES_TIMEOUT_SECONDS') ?? deployedStackLimits().files.timeoutSeconds) * 1000;
}

/** Overrides the files function's pool (executions at once) the twin enforces; 0 = no limit. */
export const FILES_CONCURRENCY_ENV = 'SUDOKU_LOCAL_FILES_CONCURRENCY';

/**
 * The files function's pool as deployed: its reservation, or without one its part of the unreserved
 * pool (the account would throttle past it, as far as the stack's sizing goes). Read per call so a
 * test can set FILES_CONCURRENCY_ENV.
 */
export function filesConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  return override(env, FILES_CONCURRENCY_ENV) ?? deployedStackLimits().files.pool;
}

export function stackGatewayLimits(
  env: NodeJS.ProcessEnv = process.env,
  limits: StackLimits = deployedStackLimits(),
): GatewayLimits {
  const solve = limits.routeThrottles[SOLVE_ROUTE]!;
  return {
    routeThrottles: {
      ...limits.routeThrottles,
      [SOLVE_ROUTE]: {
        rate: override(env, 'SUDOKU_LOCAL_RATE_LIMIT') ?? solve.rate,
        burst: override(env, 'SUDOKU_LOCAL_BURST_LIMIT') ?? solve.burst,
      },
    },
    // Without a reservation, the API's part of the unreserved pool: what the stage's throttle is
    // sized for, and past which the account's shared pool would throttle it.
    reservedConcurrency: override(env, 'SUDOKU_LOCAL_RESERVED_CONCURRENCY') ?? limits.api.pool,
  };
}
