/**
 * The limits `npm start` puts in front of the handler, computed by the stack's own settings code
 * (infra/settings.ts, on cdk.json's context, as `npx cdk synth` reads it): every route's token
 * bucket and the API function's reserved concurrency. Never a copy kept by hand.
 *
 * Tests (and anyone curious) can override them by environment: SUDOKU_LOCAL_RATE_LIMIT and
 * SUDOKU_LOCAL_BURST_LIMIT (POST /solve's bucket), SUDOKU_LOCAL_RESERVED_CONCURRENCY (the pool;
 * 0 = none). Overrides are not checked against each other, so a test can fill the pool on purpose.
 * The files function's timeout likewise: SUDOKU_FILES_TIMEOUT_SECONDS; and its pool (its reserved
 * concurrency, or its part of the unreserved share): SUDOKU_LOCAL_FILES_CONCURRENCY.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node } from 'constructs';
import { apiRouteThrottles, functionPools, readSettings, SOLVE_ROUTE } from '../infra/settings.js';
import type { GatewayLimits } from './gateway/gateway-limits.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The context `npx cdk synth` gives the app: cdk.json's `context` entries. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(root, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

function override(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number >= 0, got ${JSON.stringify(raw)}`);
  return value;
}

/** The stack's settings as `npx cdk synth` reads them (readSettings only asks the node for context values). */
export function stackSettings(): ReturnType<typeof readSettings> {
  const context = cdkJsonContext();
  return readSettings({ tryGetContext: (key: string) => context[key] } as Node);
}

/**
 * The files function's timeout as deployed (filesTimeoutSeconds), or SUDOKU_FILES_TIMEOUT_SECONDS
 * so a test can make it short: the twin ends each files invocation there, as Lambda does.
 */
export function filesTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return (override(env, 'SUDOKU_FILES_TIMEOUT_SECONDS') ?? stackSettings().filesTimeoutSeconds) * 1000;
}

/** Overrides the files function's pool (executions at once) the twin enforces; 0 = no limit. */
export const FILES_CONCURRENCY_ENV = 'SUDOKU_LOCAL_FILES_CONCURRENCY';

let stackFilesPool: number | undefined;

/**
 * The files function's pool as deployed: filesReservedConcurrency, or without a reservation its part
 * of unreservedConcurrencyShare (the account would throttle past it, as far as the stack's sizing
 * goes). Read per call so a test can set FILES_CONCURRENCY_ENV; the stack's value is read once.
 */
export function filesConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const set = override(env, FILES_CONCURRENCY_ENV);
  if (set !== undefined) return set;
  stackFilesPool ??= functionPools(stackSettings()).files;
  return stackFilesPool;
}

export function stackGatewayLimits(
  env: NodeJS.ProcessEnv = process.env,
  settings: ReturnType<typeof readSettings> = stackSettings(),
): GatewayLimits {
  const routeThrottles = apiRouteThrottles(settings);
  const solve = routeThrottles[SOLVE_ROUTE]!;
  return {
    routeThrottles: {
      ...routeThrottles,
      [SOLVE_ROUTE]: {
        rate: override(env, 'SUDOKU_LOCAL_RATE_LIMIT') ?? solve.rate,
        burst: override(env, 'SUDOKU_LOCAL_BURST_LIMIT') ?? solve.burst,
      },
    },
    // Without a reservation, the API's part of unreservedConcurrencyShare: what the stage's throttle
    // is sized for, and past which the account's shared pool would throttle it.
    reservedConcurrency: override(env, 'SUDOKU_LOCAL_RESERVED_CONCURRENCY') ?? functionPools(settings).api,
  };
}
