import { OVERLONG_LINE } from './line-splitting.js';
import type { LineCodec } from './line-codec.js';
import { overlongRow } from './row-result.js';
import { boardOf, rowJson } from './row-json.js';
import { failedRow, solveRow } from './row-result.js';
import type { RowResult } from './row-result.js';

function solveJsonLine(line: string, lineNo: number, grade: boolean): RowResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return failedRow([{ code: 'MALFORMED_JSON', message: `The line is not valid JSON: ${reason}.` }], { line: lineNo });
  }
  return solveRow(boardOf(value), { line: lineNo }, grade);
}

/** `.jsonl`: one board a line in any accepted shape (or `{"board": ...}`); one result object a line out. */
export function createJsonlCodec(grade = false): LineCodec {
  return {
    line(line, lineNo, tally) {
      if (line !== OVERLONG_LINE && line.trim() === '') {
        tally.blank();
        return '';
      }
      const result = line === OVERLONG_LINE ? overlongRow(lineNo) : solveJsonLine(line, lineNo, grade);
      tally.record(result);
      return JSON.stringify(rowJson(result));
    },
    end: () => undefined,
  };
}
