import { recordSolves } from '../observability/powertools.js';
import type { Problem } from '../sudoku/index.js';
import { listedProblems, solveRequestBoard } from './board-result.js';
import { ClientError } from './problems.js';
import { MAX_BOARDS } from './constants.js';
import type { SolveBudget } from './solve-budget.js';
import { textResponse } from './responses.js';
import type { HttpResponse } from './types.js';

/**
 * The answer line for an input line that could not be solved: never 81 digits, so never mistaken
 * for a grid. It lists the first problems and counts the rest.
 */
export function errorLine(line: number, problems: readonly Problem[], problemsTotal: number = problems.length): string {
  const listed = listedProblems({ problems, problemsTotal });
  const more = listed.problemsTotal - listed.problems.length;
  const text = listed.problems.map((p) => `${p.code}: ${p.message.replace(/\.$/, '')}`).join('; ');
  return `error line ${line}: ${text}${more > 0 ? `; and ${more} more problems` : ''}`;
}

/**
 * POST /solve with text/plain: one puzzle a line -> one answer line per input line, in order.
 * Blank lines stay blank; a line that cannot be solved is answered with `error line N: ...`.
 * Line endings LF or CRLF; a trailing newline is kept. Counts go in x-sudoku-solved/-failed.
 */
export function solveTextBody(text: string, budget: SolveBudget): HttpResponse {
  const lines = text.split('\n');
  const puzzles = lines.reduce((n, line) => (isBlank(line) ? n : n + 1), 0);
  if (puzzles === 0) {
    throw new ClientError('invalidRequest', 'The body holds no puzzle lines; send one 81-character puzzle a line.');
  }
  if (puzzles > MAX_BOARDS) {
    throw new ClientError(
      'tooManyBoards',
      `The body holds ${puzzles} puzzle lines; the limit is ${MAX_BOARDS} per request. Split them over several requests.`,
      { limit: MAX_BOARDS },
    );
  }
  const out: string[] = new Array<string>(lines.length);
  let solved = 0;
  let micros = 0;
  let attempted = 0;
  try {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (isBlank(line)) {
        out[i] = '';
        continue;
      }
      if (attempted > 0) budget.check(attempted, puzzles);
      attempted++;
      const result = solveRequestBoard(line.endsWith('\r') ? line.slice(0, -1) : line, budget.guessAllowance());
      if (result.ok) {
        solved++;
        micros += result.stats.micros;
        out[i] = result.solution as string;
      } else {
        micros += result.micros;
        out[i] = errorLine(i + 1, result.problems, result.problemsTotal);
      }
    }
  } finally {
    // Also when the time budget stops the request: the boards solved so far were work done.
    recordSolves(solved, attempted - solved, micros);
  }
  const failed = puzzles - solved;
  return textResponse(200, out.join('\n'), { 'x-sudoku-solved': String(solved), 'x-sudoku-failed': String(failed) });
}

function isBlank(line: string): boolean {
  // trim() also removes a UTF-8 BOM and the \r of CRLF.
  return line.trim() === '';
}
