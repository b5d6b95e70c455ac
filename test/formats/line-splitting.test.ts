import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OVERLONG_LINE, splitLines } from '../../functions/formats/line-splitting.js';
import { decodeUtf8 } from '../../functions/formats/line-splitting.js';
import { chunked } from './run-format.js';

async function collect(chunks: (string | Buffer)[], maxLineChars?: number) {
  const out: (string | typeof OVERLONG_LINE)[] = [];
  for await (const batch of splitLines(decodeUtf8(Readable.from(chunks)), maxLineChars)) out.push(...batch);
  return out;
}

describe('splitLines + decodeUtf8', () => {
  it('ends lines at LF and at CRLF and drops the terminators', async () => {
    expect(await collect(['a\r\nb\nc\r\n'])).toEqual(['a', 'b', 'c']);
  });

  it('keeps blank lines as empty strings, in place', async () => {
    expect(await collect(['a\n\n\r\nb\n'])).toEqual(['a', '', '', 'b']);
  });

  it('drops a leading UTF-8 byte-order mark, even when split over chunks', async () => {
    const bytes = Buffer.from('\uFEFFabc\n', 'utf8');
    expect(await collect([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)])).toEqual(['abc']);
  });

  it('yields a last line that has no terminator, and nothing for an empty input', async () => {
    expect(await collect(['a\nb'])).toEqual(['a', 'b']);
    expect(await collect([])).toEqual([]);
    expect(await collect(['\uFEFF'])).toEqual([]);
  });

  it('reassembles a multi-byte character split between two chunks', async () => {
    const bytes = Buffer.from('é€\n𝄞\n', 'utf8');
    expect(await collect(chunked(bytes, 1))).toEqual(['é€', '𝄞']);
  });

  it('replaces a line longer than the limit by a marker instead of holding it in memory', async () => {
    const long = 'x'.repeat(100);
    expect(await collect(['ok\n', long.slice(0, 60), long.slice(60), '\nafter\n'], 50)).toEqual([
      'ok',
      OVERLONG_LINE,
      'after',
    ]);
    expect(await collect([`ok\n${long}`], 50)).toEqual(['ok', OVERLONG_LINE]);
  });

  it('gives the same lines whatever the chunking (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[0-9.é \r]{0,12}$/), { maxLength: 20 }),
        fc.constantFrom('\n', '\r\n'),
        fc.integer({ min: 1, max: 17 }),
        async (lines, eol, size) => {
          const clean = lines.map((l) => l.replace(/\r/g, ''));
          const text = clean.map((l) => l + eol).join('');
          expect(await collect(chunked(Buffer.from(text, 'utf8'), size))).toEqual(clean);
        },
      ),
      { numRuns: 200 },
    );
  });
});
