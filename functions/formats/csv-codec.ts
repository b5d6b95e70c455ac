import { formatCsvRecord, hasOpenQuote, parseCsvRecord } from './csv-fields.js';
import { FormatError } from './errors.js';
import { exceedsChars, type Line, MAX_LINE_CHARS, OVERLONG_LINE } from './line-splitting.js';
import type { LineCodec } from './line-codec.js';
import { overlongRow } from './row-result.js';
import { describeProblem } from './row-json.js';
import { failedRow, solveRow } from './row-result.js';
import { gradeRow } from './row-grade.js';
import type { RowResult } from './row-result.js';
import { FileTally } from './tally.js';

/** Header names of the puzzle column; `quizzes` is the name used by the widely shared Kaggle sets. */
const PUZZLE_COLUMNS = ['puzzle', 'puzzles', 'quizzes', 'quiz'];
const SOLUTION_COLUMNS = ['solution', 'solutions'];

interface Columns {
  puzzle: number;
  solution: number;
  status: number;
  error: number;
  /** The grade's columns, when the rows are graded (-1 otherwise). */
  level: number;
  score: number;
  width: number;
}

/**
 * Most of a rejected header its message repeats (and so the report and the log line): enough to
 * see what the columns are called, where a header of one 200 KB field would be echoed whole.
 */
export const MAX_ECHOED_HEADER_CHARS = 200;

/** The header's first fields as the message shows them, cut with an ellipsis and the true size past the cap. */
function shownHeader(fields: readonly string[], recordChars: number): string {
  const shown = fields.slice(0, 10).join(', ');
  if (fields.length <= 10 && shown.length <= MAX_ECHOED_HEADER_CHARS) return shown;
  let cut = Math.min(shown.length, MAX_ECHOED_HEADER_CHARS);
  // Never half a surrogate pair: the message goes into JSON.
  if (cut < shown.length && /[\ud800-\udbff]/.test(shown.charAt(cut - 1))) cut--;
  const size = `${fields.length.toLocaleString('en-US')} fields, ${recordChars.toLocaleString('en-US')} characters`;
  return `${shown.slice(0, cut)}\u2026 (the header has ${size})`;
}

function findColumn(names: readonly string[], wanted: readonly string[]): number {
  return names.findIndex((n) => wanted.includes(n));
}

/** Reads the header; existing solution/status/error columns are filled, missing ones appended. */
function readHeader(
  fields: string[],
  recordChars: number,
  lineNo: number,
  grade: boolean,
): { columns: Columns; header: string[] } {
  const names = fields.map((f) => f.trim().toLowerCase());
  const puzzle = findColumn(names, PUZZLE_COLUMNS);
  if (puzzle < 0) {
    throw new FormatError(
      'NO_PUZZLE_COLUMN',
      `The CSV header (line ${lineNo}) has no puzzle column; name it 'puzzle' or 'quizzes'. Found: ${shownHeader(fields, recordChars)}.`,
      lineNo,
    );
  }
  const header = [...fields];
  const columnFor = (wanted: readonly string[], name: string): number => {
    const found = findColumn(names, wanted);
    if (found >= 0) return found;
    header.push(name);
    return header.length - 1;
  };
  const solution = columnFor(SOLUTION_COLUMNS, 'solution');
  const status = columnFor(['status'], 'status');
  const error = columnFor(['error'], 'error');
  const level = grade ? columnFor(['level'], 'level') : -1;
  const score = grade ? columnFor(['score'], 'score') : -1;
  return { columns: { puzzle, solution, status, error, level, score, width: header.length }, header };
}

function answerRecord(fields: string[], columns: Columns, result: RowResult): string {
  const out =
    fields.length >= columns.width ? fields : [...fields, ...new Array<string>(columns.width - fields.length).fill('')];
  out[columns.solution] = result.problems ? '' : (result.solution as string);
  out[columns.status] = result.status;
  out[columns.error] = result.problems ? describeProblem(result.problems[0]!) : '';
  if (columns.level >= 0) out[columns.level] = result.grade?.level ?? '';
  if (columns.score >= 0) out[columns.score] = result.grade ? String(result.grade.score) : '';
  return formatCsvRecord(out);
}

/**
 * `.csv`: a header row, then one puzzle a row in the puzzle column. Out: the same rows, with the
 * solution, status and error columns filled. A quoted field may span lines; its record is
 * answered once complete, and its answer spans the same number of lines.
 */
export function createCsvCodec(grade = false): LineCodec {
  let columns: Columns | undefined;
  let open: { text: string; start: number } | undefined;

  const record = (text: string, start: number, tally: FileTally): string => {
    const fields = parseCsvRecord(text);
    if (!columns) {
      const read = readHeader(fields, text.length, start, grade);
      columns = read.columns;
      return formatCsvRecord(read.header);
    }
    const place = { line: start };
    const result =
      fields.length > columns.puzzle
        ? solveRow(fields[columns.puzzle]!, place, { grade: grade ? gradeRow : undefined })
        : failedRow(
            [
              {
                code: 'MISSING_PUZZLE_FIELD',
                message: `The row has ${fields.length} fields; the puzzle is field ${columns.puzzle + 1}.`,
              },
            ],
            place,
          );
    tally.record(result);
    return answerRecord(fields, columns, result);
  };

  const unclosed = (tally: FileTally): string => {
    const start = open!.start;
    open = undefined;
    const result = failedRow([{ code: 'MALFORMED_CSV_ROW', message: 'A quoted field is never closed.' }], {
      line: start,
    });
    tally.record(result);
    return columns ? answerRecord([], columns, result) : '';
  };

  return {
    line(line, lineNo, tally) {
      if (line === OVERLONG_LINE) {
        if (open) return unclosed(tally);
        const result = overlongRow(lineNo);
        tally.record(result);
        return columns ? answerRecord([], columns, result) : '';
      }
      if (open) {
        open.text += `\n${line}`;
        if (hasOpenQuote(open.text)) {
          if (exceedsChars(open.text, MAX_LINE_CHARS)) return unclosed(tally);
          return undefined;
        }
        const { text, start } = open;
        open = undefined;
        return record(text, start, tally);
      }
      if (line.trim() === '') {
        tally.blank();
        return '';
      }
      if (hasOpenQuote(line)) {
        open = { text: line, start: lineNo };
        return undefined;
      }
      return record(line, lineNo, tally);
    },
    end(tally) {
      return open ? unclosed(tally) : undefined;
    },
  };
}

/**
 * The lines of a .csv file up to and including its header record (blank lines before it too),
 * read from the start of the file: what a range further in reads first (StreamStart.csvHeader).
 * Throws the FormatError a file with that header gets (NO_PUZZLE_COLUMN), so a file is rejected
 * before it is cut.
 */
export async function readCsvHeaderLines(lines: AsyncIterable<Line[]>, grade = false): Promise<string[]> {
  const codec = createCsvCodec(grade);
  const tally = new FileTally();
  const header: string[] = [];
  let lineNo = 0;
  for await (const batch of lines) {
    for (const line of batch) {
      if (line === OVERLONG_LINE) return header;
      header.push(line);
      const answer = codec.line(line, ++lineNo, tally);
      if (answer !== undefined && answer !== '') return header;
    }
  }
  return header;
}
