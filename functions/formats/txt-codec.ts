import { OVERLONG_LINE } from './line-splitting.js';
import type { LineCodec } from './line-codec.js';
import { overlongRow } from './row-result.js';
import { describeProblem } from './row-json.js';
import { solveRow } from './row-result.js';
import type { RowResult } from './row-result.js';

/** A failed row in a .txt output: starts with a word, so it can never be mistaken for a grid. */
export function txtAnswer(result: RowResult): string {
  return result.problems ? `error: ${describeProblem(result.problems[0]!)}` : (result.solution as string);
}

/** `.txt`: one puzzle a line in; the 81-digit solution, or `error: CODE: reason`, a line out. */
export function createTxtCodec(grade = false): LineCodec {
  return {
    line(line, lineNo, tally) {
      if (line === OVERLONG_LINE) {
        const result = overlongRow(lineNo);
        tally.record(result);
        return txtAnswer(result);
      }
      if (line.trim() === '') {
        tally.blank();
        return '';
      }
      const result = solveRow(line, { line: lineNo }, grade);
      tally.record(result);
      return txtAnswer(result);
    },
    end: () => undefined,
  };
}
