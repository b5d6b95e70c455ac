import { PROBLEM_CLASS, solveBoard } from '../sudoku/index.js';
import type { BoardOutput, Problem, ProblemCode } from '../sudoku/index.js';
import type { RowProblem, RowStatus } from './types.js';
import { MAX_LINE_CHARS } from './line-splitting.js';

/** Where a row sits in its file: a 1-based line (line formats) or a 0-based index (.json). */
export type RowPlace = { line: number } | { index: number };

/** The answer to one row: a solution in the shape the row was given in, or its problems. */
export type RowResult =
  | { status: 'unique' | 'multiple'; solution: BoardOutput; problems?: undefined }
  | { status: Exclude<RowStatus, 'unique' | 'multiple'>; solution?: undefined; problems: RowProblem[] };

/** A row's status from its first problem: the core's class for its codes, `malformed` for the formats' own. */
function statusOf(problem: RowProblem): Exclude<RowStatus, 'unique' | 'multiple'> {
  const problemClass = Object.hasOwn(PROBLEM_CLASS, problem.code)
    ? PROBLEM_CLASS[problem.code as ProblemCode]
    : 'malformed';
  // SEARCH_LIMIT is 'no-solution' too: none was found within the search limit; the code says which.
  return problemClass === 'unsolvable' ? 'no-solution' : problemClass;
}

/** A row that failed for the given problems, each stamped with the row's place. */
export function failedRow(problems: readonly (Problem | RowProblem)[], place: RowPlace): RowResult {
  const placed = problems.map((p) => ({ ...p, ...place }));
  return { status: statusOf(placed[0]!), problems: placed };
}

/**
 * Solve one board of a file, counting to two solutions so reports can tell unique from multiple;
 * `maxGuesses` bounds its search (the core's limit by default). Never throws.
 */
export function solveRow(input: unknown, place: RowPlace, maxGuesses?: number): RowResult {
  const outcome = solveBoard(
    input,
    maxGuesses === undefined ? { checkUnique: true } : { checkUnique: true, maxGuesses },
  );
  if (!outcome.ok) return failedRow(outcome.problems, place);
  return { status: outcome.unique === false ? 'multiple' : 'unique', solution: outcome.solution };
}

/** The answer to a line longer than any row can be. */
export function overlongRow(line: number): RowResult {
  return failedRow(
    [
      {
        code: 'LINE_TOO_LONG',
        message: `The line is longer than ${MAX_LINE_CHARS} characters; a row holds one board.`,
      },
    ],
    { line },
  );
}
