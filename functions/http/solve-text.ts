import { recordSolves } from '../observability/powertools.js';
import { createTxtCodec } from '../formats/txt-codec.js';
import { FileTally } from '../formats/tally.js';
import { ClientError } from './problems.js';
import { checkBoardCount } from './board-count.js';
import type { SolveBudget } from './solve-budget.js';
import { textResponse } from './responses.js';
import type { HttpResponse } from './types.js';

/**
 * POST /solve with text/plain: one puzzle a line -> one answer line per input line, in order,
 * through the `.txt` codec, so a line reads the same as in a `.txt` file: the solution, or
 * `error line N: CODE: message[; ...]` for a line that cannot be solved. Blank lines stay blank.
 * Line endings LF or CRLF; a trailing newline is kept. Counts go in x-sudoku-solved/-failed.
 */
export function solveTextBody(text: string, budget: SolveBudget): HttpResponse {
  const lines = text.split('\n');
  const puzzles = lines.reduce((n, line) => (isBlank(line) ? n : n + 1), 0);
  if (puzzles === 0) {
    throw new ClientError('invalidRequest', 'The body holds no puzzle lines; send one 81-character puzzle a line.');
  }
  checkBoardCount(puzzles, (count) => `The body holds ${count} puzzle lines`);
  const codec = createTxtCodec({ maxGuesses: () => budget.guessAllowance() });
  const tally = new FileTally({ failureCap: 0 });
  const out: string[] = new Array<string>(lines.length);
  let micros = 0;
  try {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (isBlank(line)) {
        out[i] = '';
        continue;
      }
      if (tally.counts.rows > 0) budget.check(tally.counts.rows, puzzles);
      const started = performance.now();
      out[i] = codec.line(line.endsWith('\r') ? line.slice(0, -1) : line, i + 1, tally) ?? '';
      micros += Math.round((performance.now() - started) * 1000);
    }
  } finally {
    // Also when the time budget stops the request: the boards solved so far were work done.
    recordSolves(tally.counts.solved, tally.counts.rows - tally.counts.solved, micros);
  }
  const solved = tally.counts.solved;
  return textResponse(200, out.join('\n'), {
    'x-sudoku-solved': String(solved),
    'x-sudoku-failed': String(puzzles - solved),
  });
}

function isBlank(line: string): boolean {
  // trim() also removes a UTF-8 BOM and the \r of CRLF.
  return line.trim() === '';
}
