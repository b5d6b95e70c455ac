import { StringDecoder } from 'node:string_decoder';

/** Stands in for a line too long to be a row: it is answered as a failed row instead of being held in memory. */
export const OVERLONG_LINE: unique symbol = Symbol('overlong line');
export type Line = string | typeof OVERLONG_LINE;

/** Longest line kept in memory, in characters. A board is 81 characters; a CSV row of the Kaggle sets is 164. */
export const MAX_LINE_CHARS = 1 << 20;

/** Characters (code points) in `text`: an emoji is two UTF-16 units, and one character in every message. */
export function charCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/** Whether `text` holds more than `max` characters; counts only when its UTF-16 length leaves it open. */
export function exceedsChars(text: string, max: number): boolean {
  return text.length > max && (text.length > 2 * max || charCount(text) > max);
}

/**
 * Text chunks to batches of lines (one batch per chunk, so per-line work stays synchronous).
 * LF and CRLF both end a line; the line terminators are dropped. A last line without a
 * terminator is still a line; an empty input has no lines.
 */
export async function* splitLines(
  chunks: AsyncIterable<string>,
  maxLineChars = MAX_LINE_CHARS,
): AsyncGenerator<Line[]> {
  let rest = '';
  let overlong = false;
  for await (const chunk of chunks) {
    const text = rest + chunk;
    const last = text.lastIndexOf('\n');
    if (last < 0) {
      rest = text;
      if (exceedsChars(rest, maxLineChars)) {
        overlong = true;
        rest = '';
      }
      continue;
    }
    const lines: Line[] = text.slice(0, last).split('\n');
    rest = text.slice(last + 1);
    if (overlong) {
      lines[0] = OVERLONG_LINE;
      overlong = false;
    }
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (typeof line !== 'string') continue;
      if (exceedsChars(line, maxLineChars)) lines[i] = OVERLONG_LINE;
      else if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
    }
    if (exceedsChars(rest, maxLineChars)) {
      overlong = true;
      rest = '';
    }
    yield lines;
  }
  if (overlong) yield [OVERLONG_LINE];
  else if (rest.length > 0) yield [rest.charCodeAt(rest.length - 1) === 13 ? rest.slice(0, -1) : rest];
}

const BOM = '\uFEFF';

/**
 * Bytes to text, UTF-8, a leading byte-order mark dropped. A character split across two chunks
 * is held back until complete; invalid bytes become U+FFFD and so fail only their own row.
 */
export async function* decodeUtf8(source: AsyncIterable<Buffer | string>, startOfFile = true): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = startOfFile;
  for await (const chunk of source) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (first && text.length > 0) {
      first = false;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    if (text.length > 0) yield text;
  }
  const rest = decoder.end();
  if (rest.length > 0) yield first && rest.startsWith(BOM) ? rest.slice(1) : rest;
}
