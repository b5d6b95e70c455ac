import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE, EASY, EASY_SOLUTION, HARD, HARD_SOLUTION, MULTIPLE, NO_SOLUTION } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';
import { binPath, ensureBuilt, runCli } from './run-cli.js';

let dir: string;
/** 20,000 rows of a shared hard set with a failing, blank or CRLF row every so often: several batches. */
let mixed: { file: string; rows: string[] };

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-cli-threads-'));
  const puzzles = readPuzzleSet('puzzles3_magictour_top1465');
  const odd = [DUPLICATE, NO_SOLUTION, 'not a board', '', MULTIPLE, `${HARD}\r`];
  const rows = Array.from({ length: 20_000 }, (_, i) =>
    i % 997 === 3 ? odd[Math.floor(i / 997) % odd.length]! : puzzles[i % puzzles.length]!,
  );
  const file = path.join(dir, 'mixed.txt');
  writeFileSync(file, `${rows.join('\n')}\n`);
  mixed = { file, rows };
});

describe('sudoku solve --threads', () => {
  it('answers every line in order, with the same failures on stderr, on 1 thread, 2 threads and by default', async () => {
    const runs = await Promise.all([
      runCli(['solve', mixed.file, '--threads', '1']),
      runCli(['solve', mixed.file, '--threads=2']),
      runCli(['solve', mixed.file, '-j', '3']),
      runCli(['solve', mixed.file]),
    ]);
    const [one, ...others] = runs;
    expect(one!.code).toBe(1);
    for (const run of others) expect(run).toEqual(one);
    const out = one!.stdout.split('\n').slice(0, -1);
    expect(out).toHaveLength(mixed.rows.length);
    mixed.rows.forEach((row, i) => {
      if (!out[i]!.startsWith(`error line ${i + 1}: `) && row.trim() !== '')
        expect(isSolutionOf(row.trim(), out[i]!)).toBe(true);
    });
    const failedLines = one!.stderr
      .split('\n')
      .filter((l) => l.startsWith('line '))
      .map((l) => Number(/^line (\d+):/.exec(l)?.[1]));
    expect(failedLines.length).toBeGreaterThan(5);
    expect(failedLines).toEqual([...failedLines].sort((a, b) => a - b));
    for (const line of failedLines) expect(out[line - 1]).toMatch(new RegExp(`^error line ${line}: `));
  });

  it('exits once done when some threads never got a batch (idle threads do not keep the process alive)', async () => {
    const file = path.join(dir, 'one.txt');
    writeFileSync(file, `${EASY}\n`);
    const run = await runCli(['solve', file, '--threads', '4']);
    expect(run).toEqual({ code: 0, stdout: `${EASY_SOLUTION}\n`, stderr: '' });
  });

  it('starts its threads when run from a `node -e` script (the threads do not inherit the script)', async () => {
    const script = `process.argv.splice(1, 0, 'sudoku'); await import(${JSON.stringify(binPath)});`;
    const run = await runCli(['solve', mixed.file, '--threads', '2'], {
      command: [process.execPath, '--input-type=module', '-e', script],
    });
    const direct = await runCli(['solve', mixed.file, '--threads', '1']);
    expect(run).toEqual(direct);
    expect(run.stderr).not.toMatch(/SUDOKU_SOLVER_THREAD_LOST|solver thread stopped/);
  });

  it('answers .jsonl on worker threads as on one thread', async () => {
    const file = path.join(dir, 'boards.jsonl');
    const rows = [JSON.stringify(EASY), '{"board": 7}', JSON.stringify({ board: HARD }), '{oops'];
    writeFileSync(file, `${Array.from({ length: 9000 }, (_, i) => rows[i % rows.length]).join('\n')}\n`);
    const [one, two] = await Promise.all([
      runCli(['solve', file, '--threads', '1']),
      runCli(['solve', file, '--threads', '2']),
    ]);
    expect(two).toEqual(one);
    expect(JSON.parse(one!.stdout.split('\n')[0]!)).toEqual({ status: 'unique', solution: EASY_SOLUTION });
  });

  it.each([['0'], ['two'], ['65'], ['']])('refuses --threads %j with a usage error (exit 2)', async (value) => {
    const run = await runCli(['solve', mixed.file, '--threads', value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^sudoku: --threads (must be a whole number from 1 to 64|needs a value)/);
  });

  it('refuses a SOLVER_THREADS that is not a thread count, naming it', async () => {
    const run = await runCli(['solve', mixed.file], { env: { SOLVER_THREADS: 'all' } });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/SOLVER_THREADS must be a whole number from 1 to 64, got 'all'/);
  });

  it('streams on 2 threads: 300,000 lines pass through a 24 MB heap, in order', async () => {
    const input = path.join(dir, 'big.txt');
    const out = path.join(dir, 'big.out.txt');
    const file = createWriteStream(input);
    const block = [...Array<string>(9).fill(EASY), HARD, ''].join('\n');
    for (let i = 0; i < 30_000; i++) if (!file.write(block)) await once(file, 'drain');
    file.end();
    await once(file, 'finish');
    const run = await runCli(['solve', input, '-o', out, '--threads', '2'], { nodeArgs: ['--max-old-space-size=24'] });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const answers = [...Array<string>(9).fill(EASY_SOLUTION), HARD_SOLUTION, ''].join('\n');
    expect(readFileSync(out, 'utf8')).toBe(answers.repeat(30_000));
  });
});
