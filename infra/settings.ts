// Deployer-facing settings: every knob of the stack, read from CDK context (`npx cdk deploy -c key=value`,
// or a `context` entry added to cdk.json) with a default chosen on purpose, written here and only here. Values are checked here, once,
// so a typo fails the synth with a clear message instead of deploying something surprising.
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { RUN_DEFAULTS } from '../functions/contract/service-layout.js';

export type ApiAuth = 'none' | 'iam';

export interface Settings {
  /**
   * Function memory (MB). 1769 MB is exactly one full vCPU, and the solver is CPU-bound. CPU grows
   * with memory: 3,538 MB buys 2 vCPUs, 10,240 MB 6, and files are then solved on that many
   * threads (SOLVER_THREADS, set from this by the function construct; HTTP requests use one).
   */
  readonly memoryMb: number;
  /** Function timeout (s). One invocation streams one whole file; Lambda's maximum is 900. */
  readonly timeoutSeconds: number;
  /** HTTP API default-stage steady-state rate (requests/s). */
  readonly apiRateLimit: number;
  /** HTTP API default-stage burst (requests). */
  readonly apiBurstLimit: number;
  /** `none` (public, throttled) or `iam` (SigV4-signed callers only). */
  readonly apiAuth: ApiAuth;
  /** Days after which `incoming/` and `batch/` objects expire. */
  readonly inputExpirationDays: number;
  /** Days after which `solved/` and `reports/` objects expire. */
  readonly outputExpirationDays: number;
  /** Retention (days) of the function's, the API's and the state machine's log groups. */
  readonly logRetentionDays: number;
  /** Keep the bucket (and its objects) when the stack is deleted. */
  readonly retainBucket: boolean;
  /** EventBridge Scheduler expression for the batch run. */
  readonly batchSchedule: string;
  /** EventBridge Scheduler expression for the sweep of `incoming/` files that have no output. */
  readonly sweepSchedule: string;
  /** IANA time zone the schedule expressions are read in. */
  readonly batchScheduleTimezone: string;
  /** Largest number of function invocations the Distributed Map runs at once. */
  readonly batchMaxConcurrency: number;
  /** Object keys handed to one function invocation by the Distributed Map. */
  readonly batchItemsPerInvocation: number;
  /** Percentage of failed items the batch run tolerates before it fails as a whole. */
  readonly batchToleratedFailurePercent: number;
}

export const defaults: Settings = {
  memoryMb: 1769,
  timeoutSeconds: 900,
  apiRateLimit: 50,
  apiBurstLimit: 100,
  apiAuth: 'none',
  inputExpirationDays: 30,
  outputExpirationDays: 90,
  logRetentionDays: 30,
  retainBucket: true,
  batchSchedule: 'cron(0 3 * * ? *)',
  sweepSchedule: 'cron(0 4 * * ? *)',
  batchScheduleTimezone: 'UTC',
  batchMaxConcurrency: RUN_DEFAULTS.maxConcurrency,
  batchItemsPerInvocation: RUN_DEFAULTS.itemsPerInvocation,
  batchToleratedFailurePercent: 5,
};

/** Context values arrive as strings from `-c key=value` and as JSON values from cdk.json. */
function integer(node: Node, key: keyof Settings, fallback: number, min: number, max: number): number {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`context "${key}" must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function boolean(node: Node, key: keyof Settings, fallback: boolean): boolean {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`context "${key}" must be true or false, got ${JSON.stringify(raw)}`);
}

function text(node: Node, key: keyof Settings, fallback: string, pattern: RegExp): string {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !pattern.test(raw)) {
    throw new Error(`context "${key}" must match ${pattern}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** CloudWatch Logs accepts only some retention periods (1, 3, 5, 7, 14, 30, 60, 90, ... days). */
function retention(node: Node, fallback: number): number {
  const value = integer(node, 'logRetentionDays', fallback, 1, 3653);
  const allowed = Object.values(RetentionDays).filter(
    (v): v is number => typeof v === 'number' && v !== RetentionDays.INFINITE,
  );
  if (!allowed.includes(value)) {
    throw new Error(`context "logRetentionDays" must be one of ${allowed.join(', ')}, got ${value}`);
  }
  return value;
}

/** Reads every setting from the context of `node` (usually the App), falling back to `defaults`. */
export function readSettings(node: Node): Settings {
  return {
    memoryMb: integer(node, 'memoryMb', defaults.memoryMb, 128, 10240),
    timeoutSeconds: integer(node, 'timeoutSeconds', defaults.timeoutSeconds, 30, 900),
    apiRateLimit: integer(node, 'apiRateLimit', defaults.apiRateLimit, 1, 10000),
    apiBurstLimit: integer(node, 'apiBurstLimit', defaults.apiBurstLimit, 1, 5000),
    apiAuth: text(node, 'apiAuth', defaults.apiAuth, /^(none|iam)$/) as ApiAuth,
    inputExpirationDays: integer(node, 'inputExpirationDays', defaults.inputExpirationDays, 1, 3650),
    outputExpirationDays: integer(node, 'outputExpirationDays', defaults.outputExpirationDays, 1, 3650),
    logRetentionDays: retention(node, defaults.logRetentionDays),
    retainBucket: boolean(node, 'retainBucket', defaults.retainBucket),
    batchSchedule: text(node, 'batchSchedule', defaults.batchSchedule, /^(cron|rate|at)\(.+\)$/),
    sweepSchedule: text(node, 'sweepSchedule', defaults.sweepSchedule, /^(cron|rate|at)\(.+\)$/),
    batchScheduleTimezone: text(node, 'batchScheduleTimezone', defaults.batchScheduleTimezone, /^[A-Za-z_+\-/0-9]+$/),
    batchMaxConcurrency: integer(node, 'batchMaxConcurrency', defaults.batchMaxConcurrency, 1, 10000),
    batchItemsPerInvocation: integer(node, 'batchItemsPerInvocation', defaults.batchItemsPerInvocation, 1, 1000),
    batchToleratedFailurePercent: integer(
      node,
      'batchToleratedFailurePercent',
      defaults.batchToleratedFailurePercent,
      0,
      100,
    ),
  };
}
