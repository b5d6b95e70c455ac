import {
  badCharacter,
  badCharacterBeyondBoard,
  digitOutOfRange,
  MAX_LISTED_PROBLEMS,
  wrongLength,
  wrongShape,
  wrongType,
} from './problems.js';
import type { Cells, ParseResult, Problem } from './types.js';

function failed(problems: Problem[], problemsTotal: number): ParseResult {
  return { ok: false, problems, problemsTotal };
}

const CODE_0 = 48;
const CODE_9 = 57;
const CODE_DOT = 46;

/** Grid drawing and whitespace that people paste around boards; skipped without counting as cells. */
function isIgnorable(c: number): boolean {
  // space, tab, LF, CR, VT, FF, '|', '-', '+', NBSP, BOM
  return c === 32 || (c >= 9 && c <= 13) || c === 124 || c === 45 || c === 43 || c === 160 || c === 0xfeff;
}

function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return cp < 32 || cp === 127
    ? `the control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
    : `'${ch}'`;
}

/** Characters (code points, not UTF-16 units) in `text` before unit `end`: places are told in characters. */
function charsBefore(text: string, end: number): number {
  let chars = 0;
  for (let i = 0; i < end; i++, chars++) if ((text.codePointAt(i) ?? 0) > 0xffff) i++;
  return chars;
}

/** The first `count` characters of `text`, never half of a surrogate pair. */
function leadingChars(text: string, count: number): string {
  let end = 0;
  for (let k = 0; k < count && end < text.length; k++) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

/**
 * Parse an 81-cell string: 1-9 givens, '.' or '0' empty; whitespace and '|' '-' '+' ignored.
 * Bad characters are located at the cell they would have filled.
 */
export function parseBoardString(text: string): ParseResult {
  const cells = new Uint8Array(81);
  const problems: Problem[] = [];
  let n = 0;
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= CODE_0 && c <= CODE_9) {
      if (n < 81) cells[n] = c - CODE_0;
      n++;
    } else if (c === CODE_DOT) {
      n++;
    } else if (!isIgnorable(c)) {
      const cp = text.codePointAt(i) ?? c;
      if (bad < MAX_LISTED_PROBLEMS) {
        const shown = describeChar(String.fromCodePoint(cp));
        problems.push(
          n < 81
            ? badCharacter(Math.floor(n / 9) + 1, (n % 9) + 1, shown)
            : badCharacterBeyondBoard(charsBefore(text, i) + 1, shown),
        );
      }
      // A character beyond U+FFFF (an emoji) is two UTF-16 units but one character: one cell.
      if (cp > 0xffff) i++;
      bad++;
      n++;
    }
  }
  if (n !== 81) problems.push(wrongLength(n));
  return problems.length ? failed(problems, bad + (n === 81 ? 0 : 1)) : { ok: true, board: { cells, shape: 'string' } };
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') {
    return v !== '' && leadingChars(v, 1) === v ? describeChar(v) : `the string ${JSON.stringify(leadingChars(v, 20))}`;
  }
  if (typeof v === 'number') return String(v);
  return `a value of type ${typeof v}`;
}

/** Parse a 9x9 array whose cells are all one-character strings ("1"-"9", "." or "0") or all numbers (0-9). */
function parseBoardArray(rows: unknown[]): ParseResult {
  if (rows.length !== 9) return failed([wrongShape(`got ${rows.length} rows`)], 1);
  const problems: Problem[] = [];
  for (let r = 0; r < 9; r++) {
    const row = rows[r];
    if (!Array.isArray(row)) problems.push(wrongShape(`row ${r + 1} is ${describeValue(row)}, not an array`, r + 1));
    else if (row.length !== 9) problems.push(wrongShape(`row ${r + 1} has ${row.length} cells`, r + 1));
  }
  if (problems.length) return failed(problems, problems.length);

  const grid = rows as unknown[][];
  const first = grid[0]![0];
  const shape = typeof first === 'number' ? 'numbers' : 'chars';
  const cells: Cells = new Uint8Array(81);
  let bad = 0;
  // Listed while fewer than MAX_LISTED_PROBLEMS; every bad cell is counted.
  const report = (problem: () => Problem) => {
    if (bad++ < MAX_LISTED_PROBLEMS) problems.push(problem());
  };
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      const v = grid[r]![c];
      if (shape === 'numbers') {
        if (typeof v !== 'number')
          report(() => badCharacter(r + 1, c + 1, `${describeValue(v)} in a board of numbers`));
        else if (!Number.isInteger(v) || v < 0 || v > 9) report(() => digitOutOfRange(r + 1, c + 1, describeValue(v)));
        else cells[r * 9 + c] = v;
      } else if (typeof v !== 'string') {
        report(() => badCharacter(r + 1, c + 1, `${describeValue(v)} in a board of strings`));
      } else if (v.length === 1 && v >= '1' && v <= '9') {
        cells[r * 9 + c] = v.charCodeAt(0) - CODE_0;
      } else if (v !== '.' && v !== '0') {
        report(() => badCharacter(r + 1, c + 1, describeValue(v)));
      }
    }
  }
  return bad ? failed(problems, bad) : { ok: true, board: { cells, shape } };
}

/** Parse any of the three accepted board shapes; never throws, whatever `input` is. */
export function parseBoard(input: unknown): ParseResult {
  if (typeof input === 'string') return parseBoardString(input);
  if (Array.isArray(input)) return parseBoardArray(input);
  return failed([wrongType(describeValue(input))], 1);
}
