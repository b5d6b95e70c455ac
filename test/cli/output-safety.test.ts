import { spawn } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { binPath, ensureBuilt, repoRoot, runCli } from './run-cli.js';

let dir: string;
beforeAll(() => {
  ensureBuilt();
});

const PUZZLES = `${EASY}\n${EASY}\n`;
const SOLUTIONS = `${EASY_SOLUTION}\n${EASY_SOLUTION}\n`;
const PREVIOUS = 'the previous output, which a failed run must leave alone\n';

/** A fresh folder per test, so the "nothing left behind" checks see only that test's files. */
function folder(): string {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-cli-out-'));
  return dir;
}

const leftovers = (where: string) => readdirSync(where).filter((name) => name.includes('.sudoku-'));

describe('an output that is the input file, by identity', () => {
  it.each([
    ['-o is a symbolic link to the input', 'symlink', 'input', 'link'],
    ['the input is a symbolic link to -o', 'symlink', 'link', 'input'],
    ['-o is a hard link to the input', 'hardlink', 'input', 'link'],
    ['the input is a hard link to -o', 'hardlink', 'link', 'input'],
  ] as const)('is refused with exit 2 and the input kept intact: %s', async (_, kind, inputName, outputName) => {
    const where = folder();
    const files = { input: path.join(where, 'in.txt'), link: path.join(where, 'link.txt') };
    writeFileSync(files.input, PUZZLES);
    if (kind === 'symlink') symlinkSync(files.input, files.link);
    else linkSync(files.input, files.link);
    const run = await runCli(['solve', files[inputName], '-o', files[outputName]]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is the input file/);
    expect(readFileSync(files.input, 'utf8')).toBe(PUZZLES);
    expect(lstatSync(files.link).isSymbolicLink()).toBe(kind === 'symlink');
    expect(leftovers(where)).toEqual([]);
  });
});

describe('a failed run', () => {
  it('leaves an existing output untouched when the input is a directory (exit 2)', async () => {
    const where = folder();
    const out = path.join(where, 'out.txt');
    writeFileSync(out, PREVIOUS);
    mkdirSync(path.join(where, 'some-directory'));
    const run = await runCli(['solve', path.join(where, 'some-directory'), '-o', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is a directory/);
    expect(readFileSync(out, 'utf8')).toBe(PREVIOUS);
    expect(leftovers(where)).toEqual([]);
  });

  it('leaves an existing output untouched, and no temporary file, when the input is not puzzles (exit 1)', async () => {
    const where = folder();
    const input = path.join(where, 'nocolumn.csv');
    const out = path.join(where, 'out.csv');
    writeFileSync(input, `a,b\n${'1,2\n'.repeat(50_000)}`);
    writeFileSync(out, PREVIOUS);
    const run = await runCli(['solve', input, '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/NO_PUZZLE_COLUMN/);
    expect(readFileSync(out, 'utf8')).toBe(PREVIOUS);
    expect(leftovers(where)).toEqual([]);
  });

  it('exits 1 (not 2) when the output cannot be written: ENOSPC on /dev/full, which is written directly and never removed', async () => {
    const device = statSync('/dev/full');
    const input = path.join(folder(), 'in.txt');
    writeFileSync(input, `${EASY}\n`.repeat(20_000));
    const run = await runCli(['solve', input, '-o', '/dev/full']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot write '\/dev\/full': ENOSPC/);
    const after = statSync('/dev/full');
    expect(after.isCharacterDevice()).toBe(true);
    expect(after.rdev).toBe(device.rdev);
  });

  it('exits 1 when the output folder cannot take the file, and says which output', async () => {
    const input = path.join(folder(), 'in.txt');
    writeFileSync(input, PUZZLES);
    const run = await runCli(['solve', input, '-o', path.join(dir, 'no-such-folder', 'out.txt')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot write '.*no-such-folder\/out\.txt': ENOENT/);
  });

  it('refuses a directory as the output (exit 2)', async () => {
    const input = path.join(folder(), 'in.txt');
    writeFileSync(input, PUZZLES);
    const run = await runCli(['solve', input, '-o', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is a directory/);
  });

  it('interrupted (SIGINT) halfway, even the moment its temporary file appears: the existing output is untouched and the temporary file removed', async () => {
    // The signal follows the temporary file's appearance as closely as the test can, a few times:
    // the file exists before the CLI's open returns, and a Ctrl-C right then must remove it too.
    for (let round = 0; round < 5; round++) {
      const where = folder();
      const out = path.join(where, 'out.txt');
      writeFileSync(out, PREVIOUS);
      const child = spawn(process.execPath, [binPath, 'solve', '-o', out], {
        cwd: repoRoot,
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      const exited = new Promise<string>((resolve) =>
        child.once('exit', (code, signal) => resolve(`${code}/${signal}`)),
      );
      // Standard input stays open, so the run is still going when the signal comes.
      child.stdin.write(PUZZLES);
      const deadline = Date.now() + 10_000;
      while (readdirSync(where).length < 2 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      child.kill('SIGINT');
      expect(await exited).toBe('130/null');
      expect(readFileSync(out, 'utf8')).toBe(PREVIOUS);
      expect(leftovers(where)).toEqual([]);
    }
  });
});

describe('a successful run', () => {
  it('replaces an existing output whole, keeping its permissions, and leaves nothing else behind', async () => {
    const where = folder();
    const input = path.join(where, 'in.txt');
    const out = path.join(where, 'out.txt');
    writeFileSync(input, PUZZLES);
    writeFileSync(out, `${PREVIOUS.repeat(100)}`);
    chmodSync(out, 0o640);
    const run = await runCli(['solve', input, '-o', out]);
    expect(run.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(SOLUTIONS);
    expect(statSync(out).mode & 0o777).toBe(0o640);
    expect(readdirSync(where).sort()).toEqual(['in.txt', 'out.txt']);
  });

  it('through a link to an existing output, writes the file the link names and keeps the link', async () => {
    const where = folder();
    const input = path.join(where, 'in.txt');
    const real = path.join(where, 'real-out.txt');
    const link = path.join(where, 'out-link.txt');
    writeFileSync(input, PUZZLES);
    writeFileSync(real, PREVIOUS);
    symlinkSync(real, link);
    const run = await runCli(['solve', input, '-o', link]);
    expect(run.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe(SOLUTIONS);
  });

  it('writes /dev/stdout directly when it is a pipe: the answers arrive through the pipe, nothing is renamed', async () => {
    const input = path.join(folder(), 'in.txt');
    writeFileSync(input, PUZZLES);
    // Through `| cat`: the test runner's own stdout is a socket, which /dev/stdout cannot be opened on.
    const run = await runCli([], {
      command: ['sh', '-c', `"${process.execPath}" "${binPath}" solve "${input}" -o /dev/stdout | cat`],
    });
    expect(run).toMatchObject({ code: 0, stdout: SOLUTIONS, stderr: '' });
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
  });
});
