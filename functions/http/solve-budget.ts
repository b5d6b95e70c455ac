import type { Context } from 'aws-lambda';
import { ClientError } from './problems.js';
import { MAX_GUESSES } from '../sudoku/index.js';
import { MAX_SOLVE_MS, SOLVE_SAFETY_MARGIN_MS } from './constants.js';

/**
 * Guesses per millisecond assumed when turning time left into a guess allowance: a quarter of the
 * slowest rate measured on the hardest sets (about 1 million guesses/s on one x86 core, counting to
 * two), so a slower arm64 vCPU still stops in time. No known puzzle needs more than ~10,000.
 */
const GUESSES_PER_MS_FLOOR = 250;
/** Even a request whose budget is spent lets its first board search this far. */
const MIN_GUESS_ALLOWANCE = 1_000;

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

  /** A budget `ms` shorter from now, on the same clock (a /grade batch keeps time back for one slow grade). */
  shortenedBy(ms: number): SolveBudget {
    return new SolveBudget(Math.max(0, this.limitMs - ms), this.now);
  }

  /**
   * The guesses the next board may make before it gives up with SEARCH_LIMIT (a 422). One board's
   * search cannot be interrupted, so this is what keeps a single pathological board inside the
   * function's timeout: the time left, at a rate well below the solver's slowest measured one.
   */
  guessAllowance(): number {
    const leftMs = Math.max(0, this.deadline - this.now());
    return Math.min(MAX_GUESSES, Math.max(MIN_GUESS_ALLOWANCE, Math.floor(leftMs * GUESSES_PER_MS_FLOOR)));
  }

  /**
   * Throws the 413 once the budget is spent; call before every board but the first. `work` names
   * what the boards get in the message (POST /grade grades them).
   */
  check(done: number, total: number, work: 'solving' | 'grading' = 'solving'): void {
    if (this.now() <= this.deadline) return;
    const Work = work === 'solving' ? 'Solving' : 'Grading';
    throw new ClientError(
      'solveTimeExceeded',
      `${Work} stopped after ${done} of ${total} boards: one request may spend at most ${this.limitMs} ms ${work}. ` +
        'Send fewer (or easier) boards per request.',
      { limit: this.limitMs },
    );
  }
}
