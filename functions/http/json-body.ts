import { readBodyText } from './body.js';
import { ACCEPTED_CHARSETS, MEDIA_TYPE } from './constants.js';
import { parseMediaType } from './content-type.js';
import { ClientError } from './problems.js';
import type { HttpRequest } from './types.js';

const ACCEPTED = [MEDIA_TYPE.json];

/**
 * The JSON object body of a route that takes only application/json (POST /grade, POST /hint):
 * 415 for another content type or charset, 413/400 from the body reader, 400 for text that is
 * not JSON or JSON that is not an object. `shape` names what the route expects, for the 400s.
 */
export function readJsonObject(request: HttpRequest, route: string, shape: string): Record<string, unknown> {
  const header = request.headers['content-type'];
  const mediaType = parseMediaType(header);
  if (!mediaType || mediaType.essence !== MEDIA_TYPE.json) {
    const got = header ? `"${header.slice(0, 100)}"` : 'no content-type';
    const hint =
      mediaType?.essence === 'application/x-www-form-urlencoded'
        ? " (with curl, add -H 'content-type: application/json')"
        : '';
    throw new ClientError('unsupportedMediaType', `${route} takes ${MEDIA_TYPE.json}; got ${got}${hint}.`, {
      accept: ACCEPTED,
    });
  }
  const charset = mediaType.params.charset?.toLowerCase();
  if (charset !== undefined && !ACCEPTED_CHARSETS.includes(charset)) {
    throw new ClientError('unsupportedMediaType', `The body must be UTF-8; got charset "${charset.slice(0, 40)}".`, {
      accept: ACCEPTED,
    });
  }
  return parseJsonObject(readBodyText(request), `The body of ${route} must be a JSON object ${shape}.`);
}

/**
 * A body's text as a JSON object: 400 malformed-json for text that is not JSON (with the place
 * where it stops being JSON: `position`, `line`, `column`), 400 `notAnObject` for other JSON.
 */
export function parseJsonObject(text: string, notAnObject: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ClientError('malformedJson', `The body is not valid JSON: ${reason}.`, jsonErrorPlace(text));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ClientError('invalidRequest', notAnObject);
  return body as Record<string, unknown>;
}

/**
 * Where text stops being JSON, as a program reads it: the character (1-based, in code points, as
 * `position` counts in a board string) and its line and column. V8's messages name a position
 * only sometimes ("Unexpected token '}', "..." is not valid JSON" names none), so the place is
 * found by a scan of RFC 8259's grammar, run only on a body that already failed to parse.
 */
export function jsonErrorPlace(text: string): { position: number; line: number; column: number } {
  const at = jsonErrorIndex(text);
  let position = 1;
  let line = 1;
  let column = 1;
  for (let i = 0; i < at; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair is one character.
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < at) i++;
    position++;
    if (code === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { position, line, column };
}

/** The index (UTF-16 units) of the first character that cannot continue a JSON text (text.length at a premature end). */
function jsonErrorIndex(text: string): number {
  let i = 0;
  const isDigit = (): boolean => text[i] !== undefined && text[i]! >= '0' && text[i]! <= '9';
  const space = (): void => {
    while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++;
  };
  // Each scanner moves i past what it read and answers false where the text stops being JSON (at i).
  const digits = (): boolean => {
    if (!isDigit()) return false;
    while (isDigit()) i++;
    return true;
  };
  const number = (): boolean => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (!digits()) return false;
    if (text[i] === '.') {
      i++;
      if (!digits()) return false;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digits()) return false;
    }
    return true;
  };
  const string = (): boolean => {
    for (i++; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 34) {
        i++;
        return true;
      }
      if (code < 0x20) return false;
      if (code !== 92) continue;
      i++;
      if (text[i] === 'u') {
        for (let k = 0; k < 4; k++) if (!HEX_DIGIT.test(text[++i] ?? '')) return false;
      } else if (!ESCAPED.includes(text[i] ?? '')) return false;
    }
    return false;
  };
  const literal = (word: string): boolean => {
    for (const ch of word) {
      if (text[i] !== ch) return false;
      i++;
    }
    return true;
  };
  // Iterative, with the open containers on a stack: a body nested a million deep is still scanned.
  const open: string[] = [];
  let wantValue = true;
  for (;;) {
    space();
    if (wantValue) {
      const ch = text[i];
      if (ch === '{' || ch === '[') {
        i++;
        space();
        if (text[i] === (ch === '{' ? '}' : ']')) i++;
        else {
          open.push(ch);
          if (ch === '[') continue;
          if (text[i] !== '"' || !string()) return i;
          space();
          if (text[i] !== ':') return i;
          i++;
          continue;
        }
      } else if (
        ch === '"'
          ? !string()
          : ch === 't'
            ? !literal('true')
            : ch === 'f'
              ? !literal('false')
              : ch === 'n'
                ? !literal('null')
                : ch === '-' || isDigit()
                  ? !number()
                  : true
      )
        return i;
      wantValue = false;
      continue;
    }
    const top = open.at(-1);
    // A complete value with nothing open: anything after it is where JSON stops.
    if (top === undefined) return i;
    const ch = text[i];
    if (ch === (top === '{' ? '}' : ']')) {
      open.pop();
      i++;
    } else if (ch === ',') {
      i++;
      wantValue = true;
      if (top === '{') {
        space();
        if (text[i] !== '"' || !string()) return i;
        space();
        if (text[i] !== ':') return i;
        i++;
      }
    } else return i;
  }
}

const HEX_DIGIT = /^[0-9a-fA-F]$/;
const ESCAPED = ['"', '\\', '/', 'b', 'f', 'n', 'r', 't'];
