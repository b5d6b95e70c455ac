// Whether the stack's concurrency fits the account, and what would. Lambda keeps at least 100 of an
// account's concurrent executions unreserved, and a new account's quota can be 10 or 50: reserving
// 100 + 80 there fails the first deploy half-way through CloudFormation, and an unreserved function
// sized for more than the account's unreserved pool has the API admit requests Lambda throttles
// (the client's 500). Read before it. Every suggestion is checked by the settings' own validation
// before it is printed, so what the check proposes synthesizes.
import type { Node } from 'constructs';
import { LAMBDA_MIN_UNRESERVED_CONCURRENCY } from '../../functions/contract/aws-quotas.js';
import { filesPoolShares, functionPools, readSettings, type Settings } from '../settings.js';

/** Lambda's floor of unreserved concurrency per account and region. */
export const MIN_UNRESERVED = LAMBDA_MIN_UNRESERVED_CONCURRENCY;

export interface AccountConcurrency {
  /** The account's quota (GetAccountSettings AccountLimit.ConcurrentExecutions). */
  concurrentExecutions: number;
  /** What is not reserved today (AccountLimit.UnreservedConcurrentExecutions). */
  unreservedConcurrentExecutions: number;
  /** What this stack's functions reserve today (0 before the first deploy): a redeploy gives it back first. */
  reservedByThisStack: number;
}

export type Wanted = Pick<
  Settings,
  'apiReservedConcurrency' | 'filesReservedConcurrency' | 'unreservedConcurrencyShare'
>;

/** The settings' own validation on the deploy's context with `overrides` on top: the synth's error, or undefined. */
export type SettingsCheck = (overrides: Record<string, number>) => string | undefined;

/** A SettingsCheck that reads the settings as `npx cdk synth` would from `context` (cdk.json's and the `-c` ones). */
export function settingsCheck(context: Record<string, unknown>): SettingsCheck {
  return (overrides) => {
    const merged: Record<string, unknown> = { ...context, ...overrides };
    try {
      readSettings({ tryGetContext: (key: string) => merged[key] } as Node);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
}

export type QuotaVerdict =
  | { fits: true; available: number }
  | {
      fits: false;
      /** What may be reserved (the account's unreserved, plus this stack's, less Lambda's floor). */
      available: number;
      needed: number;
      /** Settings that fit and synthesize, as `-c key=value` arguments; absent when none do. */
      fitting?: Record<string, number>;
      message: string;
    };

/** The unreserved concurrency the account keeps once this stack reserves `reserved` (its own given back first). */
function unreservedAfter(account: AccountConcurrency, reserved: number): number {
  return account.unreservedConcurrentExecutions + account.reservedByThisStack - reserved;
}

function fitsAccount(account: AccountConcurrency, wanted: Wanted): boolean {
  const reserved = wanted.apiReservedConcurrency + wanted.filesReservedConcurrency;
  const left = unreservedAfter(account, reserved);
  // Lambda refuses a reservation that would leave less than its floor unreserved; none at all is always allowed.
  if (reserved > 0 && left < MIN_UNRESERVED) return false;
  const shared = wanted.apiReservedConcurrency === 0 || wanted.filesReservedConcurrency === 0;
  return !shared || wanted.unreservedConcurrencyShare <= left;
}

/**
 * Candidates, best first: the largest reservations in the same proportion; else none, sharing the
 * account's whole unreserved pool. Each also with the files pool's parts written out, for a deploy
 * that set them by hand (derived, they follow the pool).
 */
function candidates(account: AccountConcurrency, wanted: Wanted, available: number): Record<string, number>[] {
  const list: Record<string, number>[] = [];
  const withParts = (c: Record<string, number>, filesPool: number) => {
    const parts = filesPoolShares(filesPool);
    return {
      ...c,
      filesEventConcurrency: parts.events,
      batchMaxConcurrency: parts.batch,
      largeFileMaxConcurrency: parts.largeFile,
    };
  };
  const needed = wanted.apiReservedConcurrency + wanted.filesReservedConcurrency;
  if (available > 0 && needed > 0 && wanted.apiReservedConcurrency > 0 && wanted.filesReservedConcurrency > 0) {
    const api = Math.floor((available * wanted.apiReservedConcurrency) / needed);
    const files = available - api;
    const reserved = { apiReservedConcurrency: api, filesReservedConcurrency: files };
    list.push(reserved, withParts(reserved, files));
  }
  const share = unreservedAfter(account, 0);
  if (share > 0) {
    const none = { apiReservedConcurrency: 0, filesReservedConcurrency: 0, unreservedConcurrencyShare: share };
    list.push(none, withParts(none, functionPools(none).files));
  }
  return list;
}

export function checkReservations(account: AccountConcurrency, wanted: Wanted, check: SettingsCheck): QuotaVerdict {
  const available = unreservedAfter(account, 0) - MIN_UNRESERVED;
  if (fitsAccount(account, wanted)) return { fits: true, available };
  const needed = wanted.apiReservedConcurrency + wanted.filesReservedConcurrency;
  let refusal = '';
  let fitting: Record<string, number> | undefined;
  for (const candidate of candidates(account, wanted, available)) {
    const error = check(candidate);
    const settings = { ...wanted, ...candidate } as Wanted;
    if (error === undefined && fitsAccount(account, settings)) {
      fitting = candidate;
      break;
    }
    refusal ||= error ?? '';
  }
  const args =
    fitting &&
    Object.entries(fitting)
      .map(([key, value]) => `-c ${key}=${value}`)
      .join(' ');
  const shared = wanted.apiReservedConcurrency === 0 || wanted.filesReservedConcurrency === 0;
  const message =
    `This account's Lambda concurrency quota is ${account.concurrentExecutions} (${account.unreservedConcurrentExecutions} unreserved` +
    `${account.reservedByThisStack ? `, ${account.reservedByThisStack} reserved by this stack` : ''}); Lambda keeps ${MIN_UNRESERVED} unreserved, ` +
    `so at most ${Math.max(0, available)} can be reserved, and the settings reserve ${needed} ` +
    `(apiReservedConcurrency ${wanted.apiReservedConcurrency} + filesReservedConcurrency ${wanted.filesReservedConcurrency})` +
    (shared
      ? ` and size the unreserved functions for unreservedConcurrencyShare ${wanted.unreservedConcurrencyShare} of the ${unreservedAfter(account, needed)} left unreserved`
      : '') +
    '. ' +
    (args
      ? `Deploy with: npm run deploy -- ${args}` +
        (fitting?.apiReservedConcurrency === 0
          ? " (no reservations: the functions share the account's unreserved pool, and the API is throttled to its part of it)"
          : '') +
        ', or ask for a higher quota (Service Quotas, "Concurrent executions").'
      : `No settings fit: ${refusal || 'nothing can be reserved'}. Ask for a higher quota (Service Quotas, "Concurrent executions").`);
  return { fits: false, available, needed, ...(fitting ? { fitting } : {}), message };
}
