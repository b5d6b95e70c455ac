// The progress line as a person sees it: the built command run under a pseudo-terminal (util-linux
// `script`, which .ci/run installs when missing) draws it on stderr; the same run piped writes
// nothing of it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_SOLUTION } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { binPath, ensureBuilt, repoRoot, runCli } from './run-cli.js';

let dir: string;
let file: string;
/** The first 1,000 rows, for grade (a grade costs ~10x a solve). */
let small: string;
const ROWS = 20_000;
const REDRAW = '\r\u001b[K';

beforeAll(() => {
  ensureBuilt();
  // `script` comes with util-linux (Debian's bsdutils): without it this test fails, never skips.
  execFileSync('script', ['--version']);
  dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-progress-'));
  const puzzles = readPuzzleSet('puzzles3_magictour_top1465');
  const rows = Array.from({ length: ROWS }, (_, i) => (i === 7 ? NO_SOLUTION : puzzles[i % puzzles.length]!));
  file = path.join(dir, 'hard.txt');
  writeFileSync(file, `${rows.join('\n')}\n`);
  small = path.join(dir, 'small.txt');
  writeFileSync(small, `${rows.slice(0, 1_000).join('\n')}\n`);
});

/** `sudoku args` with a pseudo-terminal for its stdin, stdout and stderr: what the terminal showed, and how long it took. */
function runOnTerminal(args: string[]): Promise<{ code: number | null; screen: string; ms: number }> {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, binPath, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, screen: Buffer.concat(out).toString('utf8'), ms: performance.now() - began }),
    );
  });
}

/** Every state of the line drawn, in order. */
const drawnLines = (screen: string) =>
  screen
    .split(REDRAW)
    .slice(1)
    .map((part) => part.replace(/\r?\n[\s\S]*$/, ''))
    .filter((line) => line.startsWith('sudoku: '));

describe('the progress line of the sudoku command', () => {
  it.each([
    ['on one thread', ['-j', '1']],
    ['with rows counted from worker threads', ['-j', '2']],
  ])('shows solve on a terminal %s, in place, ending at every row of the file with a newline', async (_, threads) => {
    const out = path.join(dir, `out${threads[1]}.txt`);
    const run = await runOnTerminal(['solve', file, '-o', out, ...threads]);
    expect(run.code).toBe(1);
    const drawn = drawnLines(run.screen);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.at(-1)).toMatch(/^sudoku: 20,000 rows, [\d,]+ rows\/s, 100%, 0:00 left$/);
    // Redrawn at a few Hz, never per row: at most one draw per 250 ms of the run, and the last.
    expect(drawn.length).toBeLessThanOrEqual(Math.ceil(run.ms / 250) + 1);
    const counts = drawn.map((line) => Number(/^sudoku: ([\d,]+) rows/.exec(line)![1]!.replaceAll(',', '')));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // The line ends with a newline; the failed row's message is on a line of its own.
    expect(run.screen).toMatch(/100%, 0:00 left\r?\n/);
    expect(run.screen).toMatch(/(^|\n|\u001b\[K)line 8: NO_SOLUTION/);
    expect(readFileSync(out, 'utf8').split('\n')).toHaveLength(ROWS + 1);
  });

  it('shows grade and generate on a terminal, generate with the share of the count asked for', async () => {
    const graded = await runOnTerminal(['grade', small, '-o', path.join(dir, 'grades.jsonl'), '-j', '2']);
    expect(drawnLines(graded.screen).at(-1)).toMatch(/^sudoku: 1,000 rows, [\d,]+ rows\/s, 100%/);
    const made = await runOnTerminal([
      'generate',
      '--count',
      '40',
      '--level',
      'easy',
      '--seed',
      '3',
      '-o',
      path.join(dir, 'made.txt'),
    ]);
    expect(made.code).toBe(0);
    expect(drawnLines(made.screen).at(-1)).toMatch(/^sudoku: 40 rows, [\d,]+ rows\/s, 100%, 0:00 left$/);
  });

  it('writes nothing of it when stderr is a pipe: only the failed rows and the summary, as before', async () => {
    const run = await runCli(['solve', file, '-o', path.join(dir, 'piped.txt'), '-j', '2']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`^line 8: NO_SOLUTION: [^\\r\\n]+\\nsudoku: 1 of ${ROWS} puzzles not solved\\n$`),
    );
    const made = await runCli(['generate', '--count', '40', '--level', 'easy', '--seed', '3']);
    expect(made.stderr).toBe('');
    expect(made.stdout.split('\n')).toHaveLength(41);
  });
});
