import { PROBLEM_CODE, solveBoard } from '../sudoku/index.js';
import { routeKey } from '../contract/api-routes.js';
import type { Hint } from '../sudoku/logic/index.js';
import { boardFailure } from './board-failure.js';
import { locateProblems } from './problem-location.js';
import { readJsonObject } from './json-body.js';
import { ClientError } from './problems.js';
import { jsonResponse } from './responses.js';
import type { SolveBudget } from './solve-budget.js';
import type { HttpRequest, HttpResponse } from './types.js';

export interface HintResponse {
  hint: Hint;
}

const SHAPE = '{"board": B} or {"board": B, "puzzle": P} (P: the puzzle B started from, so your entries are checked)';

/**
 * POST /hint: the steps to the next digit a person can write on `board`, and that digit. With
 * `puzzle`, the givens must be unchanged (400 GIVEN_CHANGED) and every other digit the solution's
 * (422 CONTRADICTS_SOLUTION, one problem per wrong entry); problems otherwise as /solve's.
 */
export async function hintRoute(request: HttpRequest, budget: SolveBudget): Promise<HttpResponse> {
  const body = readJsonObject(request, routeKey('hint'), SHAPE);
  if (!Object.hasOwn(body, 'board')) {
    throw new ClientError('invalidRequest', `The body has no "board" member; send ${SHAPE}.`);
  }
  const withPuzzle = Object.hasOwn(body, 'puzzle');
  // The givens: the puzzle when one is sent, else the board itself.
  const searched = withPuzzle ? 'puzzle' : 'board';
  // The hint settles uniqueness with the full search, which has no time bound of its own: the same
  // search, bounded by the request's guess allowance, runs first, so a board that would search for
  // seconds is a 422 SEARCH_LIMIT here as on /solve. The search is deterministic: when this one
  // finishes, the hint's finishes the same way (and costs microseconds on a proper puzzle).
  const bounded = solveBoard(body[searched], { rejectMultiple: true, maxGuesses: budget.guessAllowance() });
  if (!bounded.ok && bounded.problems.some((p) => p.code === PROBLEM_CODE.SEARCH_LIMIT))
    throw boardFailure(locateProblems(bounded.problems, `/${searched}`, body[searched]), bounded.problemsTotal);
  const { hint } = await import('../sudoku/logic/hint.js');
  const outcome = hint(withPuzzle ? { board: body.board, puzzle: body.puzzle } : { board: body.board });
  if (!outcome.ok)
    throw boardFailure(
      locateProblems(outcome.problems, `/${outcome.about}`, body[outcome.about]),
      outcome.problemsTotal,
    );
  const answer: HintResponse = { hint: outcome.hint };
  return jsonResponse(200, answer);
}
