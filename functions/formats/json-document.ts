import { FormatError } from './errors.js';
import { charCount } from './line-splitting.js';
import { boardOf, rowJson } from './row-json.js';
import { gradeBoardRow, gradeJson } from './grade-codec.js';
import { solveRow } from './row-result.js';
import { gradeRow } from './row-grade.js';
import type { FileTally } from './tally.js';

/** A .json file is read whole, so it is bounded (in characters); bigger sets belong in .jsonl, .txt or .csv. */
export const MAX_JSON_CHARS = 16 * 1024 * 1024;

/** The boards of a .json document: an array, or an object with a `boards` array. */
function boardsOf(document: unknown): { boards: unknown[]; wrapped: boolean } {
  if (Array.isArray(document)) return { boards: document, wrapped: false };
  if (document !== null && typeof document === 'object' && Array.isArray((document as { boards?: unknown }).boards)) {
    return { boards: (document as { boards: unknown[] }).boards, wrapped: true };
  }
  throw new FormatError('NOT_A_BOARD_LIST', 'A .json file holds an array of boards or an object {"boards": [...]}.');
}

/**
 * `.json`: read whole (bounded), then answered with one result per board in the same order: an
 * array for an array, `{"results": [...]}` for `{"boards": [...]}`, one result a line. With
 * `answer` 'grade' each result is the board's grade, or its index and problems (`sudoku grade`).
 */
export async function* solveJsonDocument(
  chunks: AsyncIterable<string>,
  tally: FileTally,
  maxChars = MAX_JSON_CHARS,
  grade = false,
  answer: 'solution' | 'grade' = 'solution',
): AsyncGenerator<string> {
  const parts: string[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += charCount(chunk);
    if (size > maxChars) {
      throw new FormatError(
        'JSON_TOO_LARGE',
        `A .json file is read whole and may hold at most ${maxChars} characters; use .jsonl (one board a line) for more.`,
      );
    }
    parts.push(chunk);
  }
  const text = parts.join('');
  if (text.trim() === '') throw new FormatError('MALFORMED_JSON', 'The .json file is empty.');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new FormatError('MALFORMED_JSON', `The file is not valid JSON: ${reason}.`);
  }
  const { boards, wrapped } = boardsOf(document);
  let out = wrapped ? '{"results": [' : '[';
  for (let index = 0; index < boards.length; index++) {
    const board = boardOf(boards[index]);
    const result =
      answer === 'grade'
        ? gradeBoardRow(board, { index })
        : solveRow(board, { index }, { grade: grade ? gradeRow : undefined });
    tally.record(result);
    out +=
      (index ? ',\n' : '\n') + (answer === 'grade' ? gradeJson(result, { index }) : JSON.stringify(rowJson(result)));
    if (out.length > 1 << 16) {
      yield out;
      out = '';
    }
  }
  yield out + (boards.length ? '\n' : '') + (wrapped ? ']}\n' : ']\n');
}
