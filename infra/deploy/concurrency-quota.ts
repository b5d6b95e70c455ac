// Whether the stack's reserved concurrency fits the account, and what would. Lambda keeps at least
// 100 of an account's concurrent executions unreserved, and a new account's quota can be 10 or 50:
// reserving 100 + 30 there fails the first deploy half-way through CloudFormation. Read before it.

/** Lambda's floor of unreserved concurrency per account and region. */
export const MIN_UNRESERVED = 100;

export interface AccountConcurrency {
  /** The account's quota (GetAccountSettings AccountLimit.ConcurrentExecutions). */
  concurrentExecutions: number;
  /** What is not reserved today (AccountLimit.UnreservedConcurrentExecutions). */
  unreservedConcurrentExecutions: number;
  /** What this stack's functions reserve today (0 before the first deploy): a redeploy gives it back first. */
  reservedByThisStack: number;
}

export interface Reservations {
  apiReservedConcurrency: number;
  filesReservedConcurrency: number;
}

export type QuotaVerdict =
  | { fits: true; available: number }
  | {
      fits: false;
      available: number;
      needed: number;
      /** The settings that fit, as `-c key=value` arguments: the largest reservations in the same proportion, or none. */
      fitting: Record<string, number>;
      message: string;
    };

export function checkReservations(
  account: AccountConcurrency,
  wanted: Reservations,
  limits: { apiTimeoutSeconds: number; batchMaxConcurrency: number },
): QuotaVerdict {
  const available = account.unreservedConcurrentExecutions + account.reservedByThisStack - MIN_UNRESERVED;
  const needed = wanted.apiReservedConcurrency + wanted.filesReservedConcurrency;
  if (needed <= available) return { fits: true, available };
  const fitting: Record<string, number> = { apiReservedConcurrency: 0, filesReservedConcurrency: 0 };
  // The same proportion, when it leaves the API more than its timeout (a throttle of 1 request/s
  // keeps that many in flight) and the files function at least one execution.
  if (available > 0 && needed > 0) {
    const api = Math.floor((available * wanted.apiReservedConcurrency) / needed);
    const files = available - api;
    if (api > limits.apiTimeoutSeconds && files >= 1) {
      fitting.apiReservedConcurrency = api;
      fitting.filesReservedConcurrency = files;
      if (files < limits.batchMaxConcurrency) fitting.batchMaxConcurrency = files;
    }
  }
  const args = Object.entries(fitting)
    .map(([key, value]) => `-c ${key}=${value}`)
    .join(' ');
  const message =
    `This account's Lambda concurrency quota is ${account.concurrentExecutions} (${account.unreservedConcurrentExecutions} unreserved` +
    `${account.reservedByThisStack ? `, ${account.reservedByThisStack} reserved by this stack` : ''}); Lambda keeps ${MIN_UNRESERVED} unreserved, ` +
    `so at most ${Math.max(0, available)} can be reserved, and the settings reserve ${needed} ` +
    `(apiReservedConcurrency ${wanted.apiReservedConcurrency} + filesReservedConcurrency ${wanted.filesReservedConcurrency}). ` +
    `Deploy with: npm run deploy -- ${args}` +
    (fitting.apiReservedConcurrency === 0
      ? ' (no reservations: the API stays throttled as if its pool were the default, and the functions share the account pool)'
      : '') +
    ', or ask for a higher quota (Service Quotas, "Concurrent executions").';
  return { fits: false, available, needed, fitting, message };
}
