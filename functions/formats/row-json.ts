import type { BoardOutput } from '../sudoku/index.js';
import type { Grade } from '../sudoku/logic/index.js';
import type { RowResult } from './row-result.js';
import type { RowProblem, RowStatus } from './types.js';

/**
 * How a row's answer is written in .jsonl and .json outputs; a graded file's unique rows also
 * carry their grade (level, score, hardest, techniques).
 */
export type RowJson =
  | { status: 'unique' | 'multiple'; solution: BoardOutput; grade?: Grade }
  | { status: Exclude<RowStatus, 'unique' | 'multiple'>; problems: RowProblem[] };

export function rowJson(result: RowResult): RowJson {
  if (result.problems) return { status: result.status, problems: result.problems };
  const { status, solution, grade } = result;
  return grade ? { status, solution, grade } : { status, solution };
}

/** A problem in one line of text, for the txt output, the CSV error column and the CLI's stderr. */
export function describeProblem(problem: RowProblem): string {
  return `${problem.code}: ${problem.message}`;
}

/** A JSON value that carries a board: the board itself, or an object with a `board` field (as the HTTP API takes). */
export function boardOf(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'board' in value) {
    return (value as { board: unknown }).board;
  }
  return value;
}
