import type { Context } from 'aws-lambda';
import { ClientError } from './problems.js';
import { MAX_SOLVE_MS, SOLVE_SAFETY_MARGIN_MS } from './constants.js';

/**
 * How long one request may keep solving: MAX_SOLVE_MS, or less when the function would time out
 * first. Checked between boards (one board's search cannot be interrupted), so a batch of hard
 * boards ends in a 413 the client can act on, not in a gateway timeout.
 */
export class SolveBudget {
  private readonly deadline: number;

  constructor(
    readonly limitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = now() + limitMs;
  }

  static forInvocation(context: Pick<Context, 'getRemainingTimeInMillis'> | undefined): SolveBudget {
    const remaining = context ? context.getRemainingTimeInMillis() - SOLVE_SAFETY_MARGIN_MS : MAX_SOLVE_MS;
    return new SolveBudget(Math.max(0, Math.min(MAX_SOLVE_MS, remaining)));
  }

  /** Throws the 413 once the budget is spent; call before every board but the first. */
  check(done: number, total: number): void {
    if (this.now() <= this.deadline) return;
    throw new ClientError(
      'solveTimeExceeded',
      `Solving stopped after ${done} of ${total} boards: one request may spend at most ${this.limitMs} ms solving. ` +
        'Send fewer (or easier) boards per request.',
      { limit: this.limitMs },
    );
  }
}
