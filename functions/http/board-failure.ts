import type { Problem } from '../sudoku/index.js';
import { listedProblems } from './board-result.js';
import { ClientError, type ProblemTypeName } from './problems.js';

/**
 * Codes that mean "well-formed, but no answer to give" (422, not 400) for the routes that need a
 * proper puzzle (grade, hint): no solution, more than one, a search that gave up, or a person's
 * entry that is not the solution's digit (the board as filled has no solution).
 */
const UNANSWERABLE_CODES: ReadonlySet<string> = new Set([
  'NO_SOLUTION',
  'MULTIPLE_SOLUTIONS',
  'SEARCH_LIMIT',
  'CONTRADICTS_SOLUTION',
]);

/** 400 (the board or request is malformed) or 422 (well-formed, but not a puzzle with one solution). */
export function failureStatus(problems: readonly Problem[]): 400 | 422 {
  return problems.length > 0 && problems.every((p) => UNANSWERABLE_CODES.has(p.code)) ? 422 : 400;
}

/** The problem type a single-board request answers with for these problems. */
export function failureType(problems: readonly Problem[]): ProblemTypeName {
  if (failureStatus(problems) === 400) return 'invalidBoard';
  return problems.every((p) => p.code === 'MULTIPLE_SOLUTIONS') ? 'notUniqueBoard' : 'unsolvableBoard';
}

/**
 * The 400/422 a single-board request throws for a board's problems, listing the first few, as
 * /solve does; `problemsTotal` counts them all (the core lists only the first bad characters).
 */
export function boardFailure(problems: readonly Problem[], problemsTotal = problems.length): ClientError {
  const listed = listedProblems({ problems, problemsTotal: Math.max(problemsTotal, problems.length) });
  const more = listed.problemsTotal - listed.problems.length;
  return new ClientError(
    failureType(problems),
    listed.problems.map((p) => p.message).join(' ') + (more > 0 ? ` (and ${more} more problems)` : ''),
    listed,
  );
}
