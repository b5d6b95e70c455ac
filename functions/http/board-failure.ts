import { PROBLEM_CLASS, PROBLEM_CODE, type Problem } from '../sudoku/index.js';
import { listedProblems } from './board-result.js';
import type { ApiProblem } from './problem-location.js';
import { ClientError, type ProblemTypeName } from './problems.js';

/**
 * 400 (the board or request is malformed) or 422 (well-formed, but not a puzzle with one solution:
 * every problem's class in the core is `unsolvable`, as a person's entry that is not the solution's
 * digit is).
 */
export function failureStatus(problems: readonly Problem[]): 400 | 422 {
  return problems.length > 0 && problems.every((p) => PROBLEM_CLASS[p.code] === 'unsolvable') ? 422 : 400;
}

/** The problem type a single-board request answers with for these problems. */
export function failureType(problems: readonly Problem[]): ProblemTypeName {
  if (failureStatus(problems) === 400) return 'invalidBoard';
  return problems.every((p) => p.code === PROBLEM_CODE.MULTIPLE_SOLUTIONS) ? 'notUniqueBoard' : 'unsolvableBoard';
}

/**
 * The 400/422 a single-board request throws for a board's problems, each already located in the
 * request, listing the first few; `problemsTotal` counts them all (the core lists only the first bad
 * characters).
 */
export function boardFailure(problems: readonly ApiProblem[], problemsTotal = problems.length): ClientError {
  const listed = listedProblems({ problems, problemsTotal: Math.max(problemsTotal, problems.length) });
  const more = listed.problemsTotal - listed.problems.length;
  return new ClientError(
    failureType(problems),
    listed.problems.map((p) => p.message).join(' ') + (more > 0 ? ` (and ${more} more problems)` : ''),
    listed,
  );
}
