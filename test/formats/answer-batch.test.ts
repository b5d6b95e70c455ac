import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerBatch, answerBatchInTurns, FileTally } from '../../functions/formats/index.js';
import type { BatchFormat } from '../../functions/formats/index.js';
import { createJsonlCodec } from '../../functions/formats/jsonl-codec.js';
import { cutRowBatches } from '../../functions/formats/cut-batches.js';
import { createGradeCodec } from '../../functions/formats/grade-codec.js';
import { solveLines } from '../../functions/formats/line-codec.js';
import type { LineCodec } from '../../functions/formats/line-codec.js';
import { decodeUtf8, splitLines } from '../../functions/formats/line-splitting.js';
import { createTxtCodec } from '../../functions/formats/txt-codec.js';
import { DUPLICATE, EASY, EASY_SOLUTION, HARD, MULTIPLE, NO_SOLUTION, toChars } from '../helpers/boards.js';
import { batched } from './run-batches.js';
import { chunked } from './run-format.js';

/** The file as the line codecs answer it one line at a time: the reference the batches must match. */
async function lineByLine(
  bytes: Buffer,
  format: BatchFormat,
  chunkSize: number,
  maxLineChars: number,
  codec: LineCodec = format === 'txt' ? createTxtCodec() : createJsonlCodec(),
) {
  const tally = new FileTally({ failureCap: Number.POSITIVE_INFINITY });
  const parts: string[] = [];
  for await (const part of solveLines(
    splitLines(decodeUtf8(Readable.from(chunked(bytes, chunkSize))), maxLineChars),
    codec,
    tally,
  ))
    parts.push(part);
  return { text: parts.join(''), counts: tally.counts, failures: tally.failures };
}

const MAX_LINE = 120;

/** Rows of every kind a .txt file meets: plain, drawn, zeros, blank, bad characters, invalid UTF-8, too long. */
const TXT_ROWS: (string | Buffer)[] = [
  EASY,
  HARD,
  EASY.replace(/\./g, '0'),
  MULTIPLE,
  DUPLICATE,
  NO_SOLUTION,
  `${EASY.slice(0, 40)}x${EASY.slice(41)}`,
  Buffer.concat([Buffer.from(EASY.slice(0, 40)), Buffer.from([0xb9]), Buffer.from(EASY.slice(41))]),
  `${EASY.slice(0, 80)}\r`,
  EASY.slice(0, 80),
  `  ${EASY.slice(0, 27)} | ${EASY.slice(27)}  `,
  '',
  '   ',
  'é'.repeat(81),
  Buffer.from([0xff, 0x35, 0xc3]),
  'z'.repeat(MAX_LINE + 1),
  '7'.repeat(MAX_LINE * 4),
];

const JSONL_ROWS: (string | Buffer)[] = [
  JSON.stringify(EASY),
  JSON.stringify({ board: HARD }),
  JSON.stringify(toChars(EASY)),
  JSON.stringify(DUPLICATE),
  '{"board": [1, 2]}',
  '{not json',
  '',
  EASY,
  'z'.repeat(MAX_LINE * 4),
];

/** A file of the given rows: LF or CRLF each, maybe a BOM first, maybe no final newline. */
function fileOf(rows: (string | Buffer)[], crlf: boolean[], bom: boolean, finalNewline: boolean): Buffer {
  const parts: Buffer[] = bom ? [Buffer.from('\uFEFF')] : [];
  rows.forEach((row, i) => {
    parts.push(typeof row === 'string' ? Buffer.from(row) : row);
    if (i < rows.length - 1 || finalNewline) parts.push(Buffer.from(crlf[i] ? '\r\n' : '\n'));
  });
  return Buffer.concat(parts);
}

const fileArbitrary = (rows: (string | Buffer)[]) =>
  fc.record({
    picks: fc.array(fc.nat(rows.length - 1), { minLength: 0, maxLength: 40 }),
    crlf: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
    chunkSize: fc.integer({ min: 1, max: 700 }),
    batchBytes: fc.integer({ min: 1, max: 2000 }),
  });

describe('rows answered in batches (the file path of .txt and .jsonl)', () => {
  // Grades cost ~10x a solve, so their files get fewer runs.
  it.each([
    ['txt', 'solutions', TXT_ROWS, {}, 150],
    ['jsonl', 'solutions', JSONL_ROWS, {}, 150],
    ['txt', 'grades', TXT_ROWS, { answer: 'grade' }, 40],
    ['jsonl', 'grades', JSONL_ROWS, { answer: 'grade' }, 40],
  ] as const)(
    'answers a .%s file (%s) exactly as its line codec does, line by line, whatever the chunks and batches (property)',
    async (format, _answers, rows, answered, numRuns) => {
      const codec = () => ('answer' in answered ? createGradeCodec(format) : undefined);
      await fc.assert(
        fc.asyncProperty(fileArbitrary(rows), async ({ picks, crlf, bom, finalNewline, chunkSize, batchBytes }) => {
          const bytes = fileOf(
            picks.map((i) => rows[i]!),
            crlf,
            bom,
            finalNewline,
          );
          const expected = await lineByLine(bytes, format, chunkSize, MAX_LINE, codec());
          const got = await batched(bytes, format, { chunkSize, batchBytes, maxLineChars: MAX_LINE, rows: answered });
          expect(got).toEqual(expected);
        }),
        { numRuns },
      );
    },
  );

  it('cuts a read larger than a batch into batches of about the batch size, each knowing its lines (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fileArbitrary(TXT_ROWS), async ({ picks, crlf, finalNewline, chunkSize, batchBytes }) => {
        const bytes = fileOf(
          picks.map((i) => TXT_ROWS[i]!),
          crlf,
          false,
          finalNewline,
        );
        const reads = Readable.from(chunked(bytes, chunkSize * 10));
        const batches = [];
        for await (const batch of cutRowBatches(reads, 'txt', { batchBytes, maxLineChars: MAX_LINE }))
          batches.push(batch);
        let firstLine = 1;
        for (const batch of batches) {
          const text = Buffer.from(batch.bytes).toString('latin1');
          expect(batch.firstLine).toBe(firstLine);
          expect(batch.lines).toBe(text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
          // Whole lines, and no more than one line past the batch size (lines here are at most 4 x MAX_LINE bytes).
          expect(batch.bytes.length).toBeLessThan(batchBytes + 4 * MAX_LINE + 2);
          firstLine += batch.lines;
        }
        const ends = bytes.toString('latin1').split('\n').length - 1;
        const lines = ends + (bytes.length > 0 && bytes.at(-1) !== 0x0a ? 1 : 0);
        expect(firstLine - 1).toBe(lines);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['txt', 'solutions', TXT_ROWS, {}],
    ['txt', 'solutions and levels', TXT_ROWS, { grade: true }],
    ['txt', 'grades', TXT_ROWS, { answer: 'grade' }],
    ['jsonl', 'solutions', JSONL_ROWS, {}],
    ['jsonl', 'grades', JSONL_ROWS, { answer: 'grade' }],
  ] as const)(
    'answers a .%s batch (%s) slice by slice in this thread exactly as in one piece, whatever the slice sizes (property)',
    async (format, _answers, rows, answered) => {
      await fc.assert(
        fc.asyncProperty(
          fileArbitrary(rows),
          fc.integer({ min: 1, max: 600 }),
          async ({ picks, crlf, finalNewline, batchBytes }, sliceBytes) => {
            const bytes = fileOf(
              picks.map((i) => rows[i]!),
              crlf,
              false,
              finalNewline,
            );
            const cut = cutRowBatches(Readable.from([bytes]), format, { batchBytes, maxLineChars: MAX_LINE });
            for await (const batch of cut) {
              const graded = { ...batch, ...answered };
              // sliceMs 0: every slice `sliceBytes`, however fast the rows go, so a batch is many slices.
              expect(await answerBatchInTurns(graded, undefined, sliceBytes, 0)).toEqual(answerBatch(graded));
            }
          },
        ),
        { numRuns: 100 },
      );
    },
  );

  it('answers a batch the same with slices sized by what the rows so far took as with fixed slices', async () => {
    const bytes = Buffer.from(`${Array.from({ length: 3000 }, () => EASY).join('\n')}\n`);
    const batches = [];
    for await (const batch of cutRowBatches(Readable.from([bytes]), 'txt', { batchBytes: bytes.length }))
      batches.push(batch);
    // Easy rows answer 820 bytes in well under a second: a sized second slice takes the rest.
    const slow = await answerBatchInTurns(batches[0]!, undefined, 820, 0);
    const sized = await answerBatchInTurns(batches[0]!, undefined, 820, 1000);
    expect(sized).toEqual(slow);
    expect(sized).toEqual(answerBatch(batches[0]!));
  });

  it('stops answering a batch in this thread at the next slice once its file is given up', async () => {
    const bytes = Buffer.from(`${Array.from({ length: 200 }, () => HARD).join('\n')}\n`);
    const batches = [];
    for await (const batch of cutRowBatches(Readable.from([bytes]), 'txt', { batchBytes: bytes.length }))
      batches.push(batch);
    expect(batches).toHaveLength(1);
    const controller = new AbortController();
    // Ten rows a slice: the abort arrives after the first slice, during the turn that follows it.
    const answering = answerBatchInTurns(batches[0]!, controller.signal, 82 * 10, 0);
    setImmediate(() => controller.abort(new Error('stopped for time')));
    await expect(answering).rejects.toThrow('stopped for time');
  });

  it('numbers lines across batches: the failures name the line they are on', async () => {
    const rows = [EASY, DUPLICATE, '', EASY, 'nope', HARD, NO_SOLUTION];
    const bytes = Buffer.from(`${Array.from({ length: 50 }, () => rows.join('\n')).join('\n')}\n`);
    const got = await batched(bytes, 'txt', { chunkSize: 333, batchBytes: 500, maxLineChars: MAX_LINE });
    const lines = got.text.split('\n');
    expect(lines).toHaveLength(50 * rows.length + 1);
    expect(lines[0]).toBe(EASY_SOLUTION);
    expect(got.counts).toMatchObject({ rows: 300, blank: 50, solved: 150, contradictory: 50, malformed: 50 });
    expect(got.counts.noSolution).toBe(50);
    const failedLines = got.failures.map((f) => f.problem.line);
    const expectedLines = Array.from({ length: 50 }, (_, k) => [2, 5, 7].map((l) => k * rows.length + l)).flat();
    expect(failedLines).toEqual(expectedLines);
    for (const line of expectedLines) expect(lines[line - 1]).toMatch(new RegExp(`^error line ${line}: [A-Z_]+: `));
  });

  it('drops a line that never ends as it streams in and answers it as too long, then goes on', async () => {
    const bytes = Buffer.concat([Buffer.from(`${EASY}\n`), Buffer.alloc(10_000, 0x37), Buffer.from(`\n${EASY}\n`)]);
    const got = await batched(bytes, 'txt', { chunkSize: 64, batchBytes: 100, maxLineChars: 100 });
    expect(got.text.split('\n')).toEqual([
      EASY_SOLUTION,
      expect.stringMatching(/^error line 2: LINE_TOO_LONG: /),
      EASY_SOLUTION,
      '',
    ]);
    expect(got.failures.map((f) => [f.problem.line, f.problem.code])).toEqual([[2, 'LINE_TOO_LONG']]);
  });
});
