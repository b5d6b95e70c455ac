import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileTally, type FileFormat } from '../../functions/formats/index.js';
import { solveJsonDocument } from '../../functions/formats/json-document.js';
import { charCount, decodeUtf8, OVERLONG_LINE, splitLines } from '../../functions/formats/line-splitting.js';
import { runFormat } from './run-format.js';

// Every limit a message states is in characters (code points): an emoji is one, not two.
const EMOJI = '\u{1F600}';

async function lines(text: string, maxLineChars: number) {
  const out: (string | typeof OVERLONG_LINE)[] = [];
  for await (const batch of splitLines(decodeUtf8(Readable.from([Buffer.from(text)])), maxLineChars))
    out.push(...batch);
  return out;
}

describe('limits in characters', () => {
  it('counts a surrogate pair once, and a lone surrogate as one', () => {
    expect(charCount(`a${EMOJI}b`)).toBe(3);
    expect(charCount('\uD83D')).toBe(1);
    expect(charCount(`${EMOJI}\uDE00`)).toBe(2);
  });

  it('a line of 40 emoji is within a 50-character limit (80 UTF-16 units); 51 are over it, ended or not', async () => {
    expect(await lines(`${EMOJI.repeat(40)}\n`, 50)).toEqual([EMOJI.repeat(40)]);
    expect(await lines(`${EMOJI.repeat(40)}`, 50)).toEqual([EMOJI.repeat(40)]);
    expect(await lines(`${EMOJI.repeat(51)}\nok\n`, 50)).toEqual([OVERLONG_LINE, 'ok']);
    expect(await lines(`${EMOJI.repeat(51)}`, 50)).toEqual([OVERLONG_LINE]);
  });

  it('a .json document is bounded in characters: 6,000 emoji pass a 10,000-character bound', async () => {
    const document = JSON.stringify([EMOJI.repeat(6000)]);
    const out: string[] = [];
    for await (const chunk of solveJsonDocument(Readable.from([document]), new FileTally(), 10_000)) out.push(chunk);
    expect(JSON.parse(out.join(''))).toMatchObject([{ status: 'malformed' }]);
  });

  it('a .txt line of 81 emoji is answered as bad characters, never as a board of 162 cells', async () => {
    const { text, tally } = await runFormat('txt', `${EMOJI.repeat(81)}\n`);
    expect(text).toMatch(/^error line 1: BAD_CHARACTER: Cell at row 1, column 1 is '\u{1F600}'/u);
    // 81 bad characters: the first is the failure, the other 80 are counted (issue 26).
    expect(tally.failures[0]?.more).toBe(80);
  });
});

describe('file reports count every problem of a row', () => {
  const xs = 'x'.repeat(100_000);
  const inputs: [FileFormat, string][] = [
    ['txt', `${xs}\n`],
    ['csv', `puzzle\n${xs}\n`],
    ['jsonl', `${JSON.stringify(xs)}\n`],
    ['json', JSON.stringify([xs])],
  ];
  for (const [format, input] of inputs) {
    it(`.${format}: a row of 100,000 bad characters reports 100,001 problems (the first and 100,000 more)`, async () => {
      const { tally } = await runFormat(format, input);
      expect(tally.failures).toHaveLength(1);
      expect(tally.failures[0]).toMatchObject({ status: 'malformed', more: 100_000 });
    });
  }
});
