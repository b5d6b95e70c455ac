import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FileTally, FormatError } from '../../functions/formats/index.js';
import { MAX_ECHOED_HEADER_CHARS } from '../../functions/formats/csv-codec.js';
import { parseCsvRecord } from '../../functions/formats/csv-fields.js';
import { solveJsonDocument } from '../../functions/formats/json-document.js';
import type { FileFormat } from '../../functions/formats/index.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { linesOf, runFormat } from './run-format.js';
import { DUPLICATE as CONTRADICTORY, EASY, EASY_SOLUTION, MULTIPLE, NO_SOLUTION } from '../helpers/boards.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';

const HARD = readPuzzleSet('puzzles2_17_clue').slice(0, 20);
const toChars = (s: string) => Array.from({ length: 9 }, (_, r) => [...s.slice(r * 9, r * 9 + 9)]);
const toNumbers = (s: string) => toChars(s).map((row) => row.map((c) => (c === '.' ? 0 : Number(c))));

describe('.txt', () => {
  it('answers every line with its verified solution, in order', async () => {
    const { text, tally } = await runFormat('txt', `${HARD.join('\n')}\n`);
    const out = linesOf(text);
    expect(out).toHaveLength(HARD.length);
    out.forEach((solution, i) => {
      expect(isSolutionOf(HARD[i]!, solution)).toBe(true);
    });
    expect(tally.counts).toMatchObject({ rows: HARD.length, solved: HARD.length, unique: HARD.length });
  });

  it('keeps blank lines blank and accepts CRLF and a BOM', async () => {
    const { text, tally } = await runFormat('txt', `\uFEFF${EASY}\r\n\r\n   \r\n${EASY}\r\n`);
    expect(linesOf(text)).toEqual([EASY_SOLUTION, '', '', EASY_SOLUTION]);
    expect(tally.counts).toMatchObject({ rows: 2, blank: 2, solved: 2 });
  });

  it('fails a malformed line alone, with its line number, code and cell, and solves the rest', async () => {
    const input = [EASY, 'not a puzzle', EASY.slice(0, 80), CONTRADICTORY, NO_SOLUTION, MULTIPLE, EASY].join('\n');
    const { text, tally } = await runFormat('txt', input);
    const out = linesOf(text);
    expect(out).toHaveLength(7);
    expect(out[0]).toBe(EASY_SOLUTION);
    expect(out[1]).toMatch(/^error line 2: BAD_CHARACTER: /);
    expect(out[2]).toMatch(/^error line 3: WRONG_LENGTH: /);
    expect(out[3]).toMatch(/^error line 4: DUPLICATE_IN_ROW: /);
    expect(out[4]).toMatch(/^error line 5: NO_SOLUTION: /);
    expect(isSolutionOf(MULTIPLE, out[5]!)).toBe(true);
    expect(out[6]).toBe(EASY_SOLUTION);
    expect(tally.counts).toEqual({
      rows: 7,
      blank: 0,
      solved: 3,
      unique: 2,
      multiple: 1,
      noSolution: 1,
      contradictory: 1,
      malformed: 2,
    });
    expect(tally.failures.map((f) => [f.problem.line, f.status, f.problem.code])).toEqual([
      [2, 'malformed', 'BAD_CHARACTER'],
      [3, 'malformed', 'WRONG_LENGTH'],
      [4, 'contradictory', 'DUPLICATE_IN_ROW'],
      [5, 'no-solution', 'NO_SOLUTION'],
    ]);
    expect(tally.failures[0]!.problem).toMatchObject({ row: 1, col: 1 });
    expect(tally.failures[2]!.problem.cells).toEqual([
      { row: 1, col: 1 },
      { row: 1, col: 2 },
    ]);
  });

  it('keeps output line i the answer to input line i whatever the lines and chunking (property)', async () => {
    const line = fc.oneof(
      fc.constant(EASY),
      fc.constant(''),
      fc.constant(NO_SOLUTION),
      fc.constant(CONTRADICTORY),
      fc.string({ maxLength: 90 }).map((s) => s.replace(/[\r\n]/g, '')),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 30 }),
        fc.integer({ min: 1, max: 200 }),
        async (lines, chunkSize) => {
          const { text } = await runFormat('txt', lines.map((l) => `${l}\n`).join(''), { chunkSize });
          const out = linesOf(text);
          expect(out).toHaveLength(lines.length);
          lines.forEach((l, i) => {
            if (l.trim() === '') expect(out[i]).toBe('');
            else if (l === EASY) expect(out[i]).toBe(EASY_SOLUTION);
            else expect(out[i]!.startsWith(`error line ${i + 1}: `) || isSolutionOf(l, out[i]!)).toBe(true);
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('.csv', () => {
  it('fills the solutions column of a Kaggle-style quizzes,solutions file and adds status and error', async () => {
    const quiz = EASY.replace(/\./g, '0');
    const { text, tally } = await runFormat('csv', `quizzes,solutions\r\n${quiz},\r\n${quiz},${EASY_SOLUTION}\r\n`);
    expect(linesOf(text)).toEqual([
      'quizzes,solutions,status,error',
      `${quiz},${EASY_SOLUTION},unique,`,
      `${quiz},${EASY_SOLUTION},unique,`,
    ]);
    expect(tally.counts.solved).toBe(2);
  });

  it('adds a solution column after the others when the header has a puzzle column only, keeping every field', async () => {
    const { text } = await runFormat('csv', `id,Puzzle,note\n7,${EASY},"hello, ""world"""\n`);
    expect(linesOf(text)).toEqual([
      'id,Puzzle,note,solution,status,error',
      `7,${EASY},"hello, ""world""",${EASY_SOLUTION},unique,`,
    ]);
  });

  it('answers a bad row in its status and error columns, with the line it is on, and keeps blank lines', async () => {
    const { text, tally } = await runFormat(
      'csv',
      `puzzle,id\n${EASY},1\n\nxyz,2\n${CONTRADICTORY},3\n${NO_SOLUTION},4\n`,
    );
    const out = linesOf(text);
    expect(out[0]).toBe('puzzle,id,solution,status,error');
    expect(out[1]).toBe(`${EASY},1,${EASY_SOLUTION},unique,`);
    expect(out[2]).toBe('');
    expect(out[3]).toMatch(/^xyz,2,,malformed,"BAD_CHARACTER: Cell at row 1, column 1 is 'x'/);
    expect(out[4]).toMatch(/^5{2}.*,3,,contradictory,"DUPLICATE_IN_ROW: /);
    expect(out[5]).toMatch(/,4,,no-solution,/);
    expect(tally.failures.map((f) => f.problem.line)).toEqual([4, 5, 6]);
    expect(tally.counts).toMatchObject({ rows: 4, blank: 1, solved: 1 });
  });

  it('reports a row too short to have the puzzle field as MISSING_PUZZLE_FIELD', async () => {
    const { text, tally } = await runFormat('csv', `id,puzzle\n1\n`);
    expect(linesOf(text)[1]).toBe('1,,,malformed,MISSING_PUZZLE_FIELD: The row has 1 fields; the puzzle is field 2.');
    expect(tally.failures[0]!.problem).toMatchObject({ code: 'MISSING_PUZZLE_FIELD', line: 2 });
  });

  it('answers a record whose quoted field spans lines on as many lines', async () => {
    const { text } = await runFormat('csv', `note,puzzle\n"two\nlines",${EASY}\nlast,${EASY}\n`);
    expect(linesOf(text)).toEqual([
      'note,puzzle,solution,status,error',
      '"two',
      `lines",${EASY},${EASY_SOLUTION},unique,`,
      `last,${EASY},${EASY_SOLUTION},unique,`,
    ]);
  });

  it('neutralizes echoed cells a spreadsheet would run as formulas (= + - @ tab CR first), the solution left as digits', async () => {
    const cells = ['=1+2', '+SUM(A1)', '-2+3', '@x', '\tcmd', '=HYPERLINK("http://x","y")', 'plain'];
    const input = `note,puzzle\n${cells.map((c) => `${c.includes('"') ? `"${c.replace(/"/g, '""')}"` : c},${EASY}`).join('\n')}\n`;
    const { text } = await runFormat('csv', input);
    const out = linesOf(text).slice(1);
    expect(out.map((line) => line.slice(0, line.indexOf(`,${EASY},`)))).toEqual([
      `"'=1+2"`,
      `"'+SUM(A1)"`,
      `"'-2+3"`,
      `"'@x"`,
      `"'\tcmd"`,
      `"'=HYPERLINK(""http://x"",""y"")"`,
      'plain',
    ]);
    for (const line of out) expect(line.endsWith(`,${EASY},${EASY_SOLUTION},unique,`)).toBe(true);
    // Read back as RFC 4180, each cell is the user's text behind one quote: a spreadsheet shows it as text.
    expect(out.map((line) => parseCsvRecord(line)[0])).toEqual(cells.map((c) => (c === 'plain' ? c : `'${c}`)));
  });

  it('neutralizes a header field that would start a formula too', async () => {
    const { text } = await runFormat('csv', `=cmd|' /C calc'!A0,puzzle\nx,${EASY}\n`);
    expect(linesOf(text)[0]).toBe(`"'=cmd|' /C calc'!A0",puzzle,solution,status,error`);
  });

  it('caps the header a NO_PUZZLE_COLUMN error repeats, with an ellipsis and the true size', async () => {
    const field = 'h'.repeat(200_000);
    const error = await runFormat('csv', `${field},b\n${EASY},1\n`).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NO_PUZZLE_COLUMN', line: 1 });
    const message = (error as FormatError).message;
    expect(message.length).toBeLessThan(MAX_ECHOED_HEADER_CHARS + 250);
    expect(message).toMatch(/Found: h{200}\u2026 \(the header has 2 fields, 200,002 characters\)\.$/);
  });

  it('rejects a file whose header has no puzzle column with a typed NO_PUZZLE_COLUMN error naming the line', async () => {
    const error = await runFormat('csv', `\na,b\n${EASY},1\n`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ code: 'NO_PUZZLE_COLUMN', line: 2 });
  });
});

describe('.jsonl', () => {
  it('answers each board in the shape it came in: string, 9x9 characters, 9x9 numbers, {"board": ...}', async () => {
    const lines = [
      JSON.stringify(EASY),
      JSON.stringify(toChars(EASY)),
      JSON.stringify(toNumbers(EASY)),
      JSON.stringify({ board: EASY }),
    ];
    const { text } = await runFormat('jsonl', `${lines.join('\n')}\n`);
    expect(linesOf(text).map((l) => JSON.parse(l))).toEqual([
      { status: 'unique', solution: EASY_SOLUTION },
      { status: 'unique', solution: toChars(EASY_SOLUTION) },
      { status: 'unique', solution: toNumbers(EASY_SOLUTION) },
      { status: 'unique', solution: EASY_SOLUTION },
    ]);
  });

  it('fails an invalid JSON line and a non-board alone as malformed, keeping blank lines', async () => {
    const { text, tally } = await runFormat('jsonl', `{oops\n\n42\n${JSON.stringify(EASY)}\n`);
    const out = linesOf(text);
    expect(JSON.parse(out[0]!)).toMatchObject({ status: 'malformed', problems: [{ code: 'MALFORMED_JSON', line: 1 }] });
    expect(out[1]).toBe('');
    expect(JSON.parse(out[2]!)).toMatchObject({ status: 'malformed', problems: [{ code: 'WRONG_TYPE', line: 3 }] });
    expect(JSON.parse(out[3]!)).toEqual({ status: 'unique', solution: EASY_SOLUTION });
    expect(tally.counts).toMatchObject({ rows: 3, blank: 1, solved: 1, malformed: 2 });
  });
});

describe('.json', () => {
  it('answers an array of boards with an array of results in the same order', async () => {
    const { text } = await runFormat('json', JSON.stringify([EASY, toNumbers(EASY), NO_SOLUTION]));
    const results = JSON.parse(text) as unknown[];
    expect(results).toEqual([
      { status: 'unique', solution: EASY_SOLUTION },
      { status: 'unique', solution: toNumbers(EASY_SOLUTION) },
      { status: 'no-solution', problems: [expect.objectContaining({ code: 'NO_SOLUTION', index: 2 })] },
    ]);
  });

  it('answers {"boards": [...]} with {"results": [...]}, one result a line', async () => {
    const { text, tally } = await runFormat('json', `\uFEFF${JSON.stringify({ boards: [EASY, 'bad'] })}`);
    expect(JSON.parse(text)).toEqual({
      results: [
        { status: 'unique', solution: EASY_SOLUTION },
        { status: 'malformed', problems: expect.any(Array) },
      ],
    });
    expect(linesOf(text)).toHaveLength(4);
    expect(tally.failures[0]!.problem).toMatchObject({ code: 'BAD_CHARACTER', index: 1 });
  });

  it.each([
    ['not JSON', '{"boards": [', 'MALFORMED_JSON'],
    ['empty', '', 'MALFORMED_JSON'],
    ['not a list of boards', '{"puzzles": []}', 'NOT_A_BOARD_LIST'],
  ])('rejects a document that is %s with a typed %s error', async (_what, input, code) => {
    await expect(runFormat('json', input)).rejects.toMatchObject({ name: 'FormatError', code });
  });

  it('rejects a document over the size bound with JSON_TOO_LARGE instead of reading it all', async () => {
    async function* text() {
      yield '[';
      for (;;) yield `"${EASY}",`;
    }
    const consume = async () => {
      for await (const chunk of solveJsonDocument(text(), new FileTally(), 10_000)) void chunk;
    };
    await expect(consume()).rejects.toMatchObject({ code: 'JSON_TOO_LARGE' });
  });
});

describe('gzip', () => {
  const inputs: Record<FileFormat, string> = {
    txt: `${EASY}\n\nbad\n`,
    csv: `puzzle\n${EASY}\n`,
    jsonl: `${JSON.stringify(EASY)}\n`,
    json: JSON.stringify([EASY]),
  };
  it.each(Object.keys(inputs) as FileFormat[])(
    'reads .%s.gz gunzipped and writes its answer gzipped, identical to the plain answer',
    async (format) => {
      const plain = await runFormat(format, inputs[format]);
      const zipped = await runFormat(format, inputs[format], { gzip: true, chunkSize: 7 });
      expect(zipped.text).toBe(plain.text);
      expect(zipped.tally.counts).toEqual(plain.tally.counts);
    },
  );

  it('rejects a .gz input that is not gzip with a typed BAD_GZIP error', async () => {
    const { PassThrough, Readable } = await import('node:stream');
    const { solvePuzzleStream } = await import('../../functions/formats/index.js');
    const run = solvePuzzleStream({
      input: Readable.from([Buffer.from('plain text, not gzip')]),
      output: new PassThrough(),
      format: 'txt',
      gunzip: true,
    });
    await expect(run).rejects.toMatchObject({ name: 'FormatError', code: 'BAD_GZIP' });
  });

  it("fails the output stream itself with BAD_GZIP (not zlib's raw error), so an upload fed by it reports the file", async () => {
    // An S3 upload reads the output: whichever error destroys the output is the one it rejects with.
    const { PassThrough, Readable } = await import('node:stream');
    const { solvePuzzleStream } = await import('../../functions/formats/index.js');
    const output = new PassThrough();
    const outputError = new Promise<unknown>((resolve) => output.once('error', resolve));
    for (const gzip of [false, true]) {
      const run = solvePuzzleStream({
        input: Readable.from([Buffer.from('plain text, not gzip\n'.repeat(100))]),
        output: gzip ? output : new PassThrough(),
        format: 'jsonl',
        gunzip: true,
        gzip,
      });
      await expect(run).rejects.toMatchObject({ name: 'FormatError', code: 'BAD_GZIP' });
    }
    await expect(outputError).resolves.toMatchObject({ name: 'FormatError', code: 'BAD_GZIP' });
  });

  it('reports a .gz cut short as BAD_GZIP only when the input really ended; a failing input keeps its own (retryable) error', async () => {
    const { PassThrough, Readable } = await import('node:stream');
    const { solvePuzzleStream } = await import('../../functions/formats/index.js');
    const gz = gzipSync(`${EASY}\n`.repeat(50));
    const ended = solvePuzzleStream({
      input: Readable.from([gz.subarray(0, 30)]),
      output: new PassThrough().resume(),
      format: 'txt',
      gunzip: true,
    });
    await expect(ended).rejects.toMatchObject({ code: 'BAD_GZIP' });
    const dropped = new Readable({ read() {} });
    dropped.push(gz.subarray(0, 30));
    setTimeout(() => dropped.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })), 10);
    const failing = solvePuzzleStream({
      input: dropped,
      output: new PassThrough().resume(),
      format: 'txt',
      gunzip: true,
    });
    await expect(failing).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});
