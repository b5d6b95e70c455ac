import { OVERLONG_LINE } from './line-splitting.js';
import type { LineCodec } from './line-codec.js';
import { overlongRow } from './row-result.js';
import { boardOf, rowJson } from './row-json.js';
import { failedRow, solveRow } from './row-result.js';
import { gradeRow } from './row-grade.js';
import type { RowResult } from './row-result.js';

/** The board a .jsonl line carries (itself, or its `board` field), or the line's MALFORMED_JSON failure. */
export function readJsonLine(line: string, lineNo: number): { board: unknown } | { failed: RowResult } {
  try {
    return { board: boardOf(JSON.parse(line)) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const problem = { code: 'MALFORMED_JSON' as const, message: `The line is not valid JSON: ${reason}.` };
    return { failed: failedRow([problem], { line: lineNo }) };
  }
}

function solveJsonLine(line: string, lineNo: number, grade: boolean): RowResult {
  const read = readJsonLine(line, lineNo);
  return 'failed' in read
    ? read.failed
    : solveRow(read.board, { line: lineNo }, { grade: grade ? gradeRow : undefined });
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
