import { mkdtempSync, readFileSync, writeFileSync, createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPuzzleSet, puzzlesDir } from '../helpers/puzzle-sets.js';
import { DUPLICATE as CONTRADICTORY, EASY, EASY_SOLUTION, NO_SOLUTION } from '../helpers/boards.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';
import { ensureBuilt, runCli } from './run-cli.js';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-cli-'));
});

const lines = (text: string) => text.split('\n').slice(0, -1);

describe('sudoku solve', () => {
  it('reads standard input and writes one solution line per input line, exit 0 when all are solved', async () => {
    const run = await runCli(['solve'], { stdin: `${EASY}\n${EASY}\n` });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(lines(run.stdout)).toEqual([EASY_SOLUTION, EASY_SOLUTION]);
  });

  it("treats '-' as standard input and accepts CRLF, a BOM and blank lines (kept blank)", async () => {
    const run = await runCli(['solve', '-'], { stdin: `\uFEFF${EASY}\r\n\r\n${EASY}\r\n` });
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toEqual([EASY_SOLUTION, '', EASY_SOLUTION]);
  });

  it('answers an unsolvable line with a line that is not a grid and names its line and reason on stderr; exit 1', async () => {
    const run = await runCli(['solve'], { stdin: `${EASY}\nhello\n\n${CONTRADICTORY}\n${NO_SOLUTION}\n${EASY}\n` });
    expect(run.code).toBe(1);
    const out = lines(run.stdout);
    expect(out).toHaveLength(6);
    expect(out[0]).toBe(EASY_SOLUTION);
    for (const i of [1, 3, 4]) expect(out[i]).toMatch(new RegExp(`^error line ${i + 1}: [A-Z_]+: `));
    expect(out[2]).toBe('');
    expect(out[5]).toBe(EASY_SOLUTION);
    const err = lines(run.stderr);
    expect(err[0]).toMatch(/^line 2: BAD_CHARACTER: Cell at row 1, column 1 is 'h'/);
    expect(err[1]).toMatch(/^line 4: DUPLICATE_IN_ROW: Digit 5 is given twice/);
    expect(err[2]).toMatch(/^line 5: NO_SOLUTION: /);
    expect(err[3]).toBe('sudoku: 3 of 5 puzzles not solved');
  });

  it('solves a file given by name (a shared set without extension is read as lines) and verifies every answer', async () => {
    const puzzles = readPuzzleSet('puzzles3_magictour_top1465');
    const run = await runCli(['solve', path.join(puzzlesDir, 'puzzles3_magictour_top1465')]);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out).toHaveLength(puzzles.length);
    out.forEach((solution, i) => {
      expect(isSolutionOf(puzzles[i]!, solution)).toBe(true);
    });
  });

  it('writes to -o OUT, gzipped when OUT ends in .gz, and reads a .gz input', async () => {
    const input = path.join(dir, 'in.txt.gz');
    writeFileSync(input, gzipSync(`${EASY}\n\n${EASY}\n`));
    const plainOut = path.join(dir, 'out.txt');
    const zippedOut = path.join(dir, 'out.txt.gz');
    expect((await runCli(['solve', input, '-o', plainOut])).code).toBe(0);
    expect((await runCli(['solve', input, '--output', zippedOut])).code).toBe(0);
    expect(readFileSync(plainOut, 'utf8')).toBe(`${EASY_SOLUTION}\n\n${EASY_SOLUTION}\n`);
    expect(gunzipSync(readFileSync(zippedOut)).toString('utf8')).toBe(`${EASY_SOLUTION}\n\n${EASY_SOLUTION}\n`);
  });

  it('uses the same CSV, JSONL and JSON writers as the S3 pipeline, chosen by extension or --format', async () => {
    const csv = path.join(dir, 'in.csv');
    writeFileSync(csv, `quizzes,solutions\n${EASY},\n`);
    const csvRun = await runCli(['solve', csv]);
    expect(lines(csvRun.stdout)).toEqual(['quizzes,solutions,status,error', `${EASY},${EASY_SOLUTION},unique,`]);
    const jsonlRun = await runCli(['solve', '--format', 'jsonl'], { stdin: `${JSON.stringify(EASY)}\n` });
    expect(JSON.parse(jsonlRun.stdout)).toEqual({ status: 'unique', solution: EASY_SOLUTION });
    const jsonRun = await runCli(['solve', '-f', 'json'], { stdin: JSON.stringify([EASY]) });
    expect(JSON.parse(jsonRun.stdout)).toEqual([{ status: 'unique', solution: EASY_SOLUTION }]);
  });

  it('exits 1 with the reason, and leaves no output file, when the file cannot be read as puzzles', async () => {
    const csv = path.join(dir, 'nocolumn.csv');
    const out = path.join(dir, 'nocolumn.out.csv');
    writeFileSync(csv, `a,b\n1,2\n`);
    const run = await runCli(['solve', csv, '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/line 1: NO_PUZZLE_COLUMN: /);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 1 with BAD_GZIP for a .gz input that is not gzip', async () => {
    const input = path.join(dir, 'fake.txt.gz');
    writeFileSync(input, `${EASY}\n`);
    const run = await runCli(['solve', input]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^sudoku: BAD_GZIP: The file ends in \.gz but is not valid gzip/);
  });

  it.each([
    [['solve', '--bogus'], /unknown option '--bogus'/],
    [['solve', 'a.txt', 'b.txt'], /only one input file/],
    [['solve', '-o'], /-o needs a value/],
    [['solve', '--format', 'xml'], /unknown format 'xml'/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [[], /missing command/],
    [['solve', '/no/such/file.txt'], /cannot read '\/no\/such\/file.txt': ENOENT/],
  ])('exits 2 on the usage error %j, saying what is wrong', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('refuses (exit 2) to write the output over its own input', async () => {
    const input = path.join(dir, 'same.txt');
    writeFileSync(input, `${EASY}\n`);
    const run = await runCli(['solve', input, '-o', path.join(dir, '.', 'same.txt')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is the input file/);
    expect(readFileSync(input, 'utf8')).toBe(`${EASY}\n`);
  });

  it('prints help with --help and exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: sudoku solve \[FILE\|-\]/);
    expect((await runCli(['solve', '-h'])).stdout).toMatch(
      /Exit status: 0 every puzzle solved, 1 some were not \(or the output could not be written\),\n2 usage error/,
    );
  });

  it('runs as `npx sudoku` from the repository (the package bin, no install)', async () => {
    const run = await runCli(['solve'], {
      command: ['npx', '--offline', '--no-install', 'sudoku'],
      stdin: `${EASY}\n`,
    });
    expect(run).toMatchObject({ code: 0, stdout: `${EASY_SOLUTION}\n` });
  });

  it('streams: 300,000 lines (25 MB in, 25 MB out) pass through a 24 MB heap', async () => {
    const input = path.join(dir, 'big.txt');
    const out = path.join(dir, 'big.out.txt');
    const file = createWriteStream(input);
    const block = `${EASY}\n`.repeat(1000);
    for (let i = 0; i < 300; i++) if (!file.write(block)) await once(file, 'drain');
    file.end();
    await once(file, 'finish');
    const run = await runCli(['solve', input, '-o', out], { nodeArgs: ['--max-old-space-size=24'] });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const text = readFileSync(out, 'utf8');
    expect(text.length).toBe(300_000 * 82);
    expect(text).toBe(`${EASY_SOLUTION}\n`.repeat(300_000));
  });
});
