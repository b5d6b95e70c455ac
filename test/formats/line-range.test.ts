// A byte range of a line-based file owns exactly the lines that start in it, whatever the cut:
// across every range of a file, each line is read once, in order, and the windows' counts place
// every range (its first line's number, and for .csv whether it starts inside a quoted field).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openLineRange } from '../../functions/formats/index.js';

async function* chunked(bytes: Buffer, from: number, size: number): AsyncGenerator<Uint8Array> {
  for (let at = from; at < bytes.length; at += size) yield bytes.subarray(at, Math.min(bytes.length, at + size));
}

/** Every range of `bytes` cut at `cuts`, each given the place the ranges before it counted (as the redo is). */
async function readAll(bytes: Buffer, cuts: number[], csv: boolean, chunk: number) {
  const bounds = [0, ...cuts, bytes.length];
  let newlinesBefore = 0;
  let quotes = 0;
  const owned: Buffer[] = [];
  const firstLines: number[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const start = bounds[i]!;
    const end = bounds[i + 1]!;
    const opened = await openLineRange(chunked(bytes, start > 0 ? start - 1 : 0, chunk), {
      start,
      end,
      csv,
      inQuotes: quotes % 2 === 1,
    });
    const pieces: Uint8Array[] = [];
    for await (const piece of opened.owned) pieces.push(piece);
    const text = Buffer.concat(pieces);
    if (text.length > 0) firstLines.push(1 + newlinesBefore + opened.skipped);
    owned.push(text);
    newlinesBefore += opened.window().newlines;
    quotes += opened.window().quotes;
  }
  return { whole: Buffer.concat(owned), firstLines, owned };
}

const line = fc.oneof(
  fc.constant(''),
  fc.stringMatching(/^[1-9.]{0,81}$/),
  fc.stringMatching(/^[a-z,.]{0,20}$/).map((s) => `${s}\r`),
);
const csvRecord = fc.oneof(
  fc.stringMatching(/^[a-z0-9.]{0,12},[1-9.]{0,20}$/),
  fc.tuple(fc.stringMatching(/^[a-z ]{0,8}$/), fc.stringMatching(/^[a-z ]{0,8}$/)).map(([a, b]) => `"${a}\n${b}",x`),
  fc.stringMatching(/^[a-z]{0,6}$/).map((s) => `"a ""quoted"" ${s}",1`),
);

/** Cut points as fractions of the file, so they shrink with it. */
const fractions = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });
function cutsAt(length: number, at: number[]): number[] {
  return [...new Set(at.map((f) => Math.floor(f * length)).filter((x) => x > 0 && x < length))].sort((a, b) => a - b);
}

describe('a line range', () => {
  it('owns each line of a text file exactly once, whatever the cuts and the read sizes (LF, CRLF, blank and unended lines)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        fractions,
        async (lines, endsWithNewline, chunk, at) => {
          const bytes = Buffer.from(lines.join('\n') + (endsWithNewline && lines.length > 0 ? '\n' : ''));
          const { whole, firstLines, owned } = await readAll(bytes, cutsAt(bytes.length, at), false, chunk);
          expect(whole.equals(bytes)).toBe(true);
          // Each range's first line number is that line's number in the file: one more than the line ends before it.
          let offset = 0;
          for (const piece of owned.filter((p) => p.length > 0)) {
            const lineEndsBefore = bytes.subarray(0, offset).toString().split('\n').length - 1;
            expect(firstLines.shift()).toBe(1 + lineEndsBefore);
            offset += piece.length;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a quoted CSV field that spans lines in the range its record starts in, given the quote state before it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(csvRecord, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 48 }),
        fractions,
        async (records, chunk, at) => {
          const text = `name,puzzle\n${records.join('\n')}\n`;
          const bytes = Buffer.from(text);
          const { whole, owned } = await readAll(bytes, cutsAt(bytes.length, at), true, chunk);
          expect(whole.equals(bytes)).toBe(true);
          // No range ends inside a quoted field: every piece holds whole records.
          for (const piece of owned) expect((piece.toString().match(/"/g) ?? []).length % 2).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('owns nothing when it lies inside one long line, and the range the line starts in reads all of it', async () => {
    const bytes = Buffer.from(`short\n${'x'.repeat(500)}\nend\n`);
    const { owned } = await readAll(bytes, [100, 200, 300], false, 7);
    expect(owned.map((p) => p.toString())).toEqual([`short\n${'x'.repeat(500)}\n`, '', '', 'end\n']);
  });
});
