// `sudoku grade` and `sudoku generate`, run as users run them (the built CLI).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatePuzzle, gradePuzzle } from '../../functions/sudoku/logic/index.js';
import { DUPLICATE, EASY, HARD, MULTIPLE } from '../helpers/boards.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { ensureBuilt, runCli } from './run-cli.js';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-toolkit-cli-'));
});

const lines = (text: string) => text.split('\n').slice(0, -1);

describe('sudoku grade', () => {
  it('writes one JSON line per input line: the core grade, a blank for a blank, the problems of a bad row', async () => {
    const run = await runCli(['grade'], { stdin: `${EASY}\n\n${DUPLICATE}\r\n${HARD}\n${MULTIPLE}\n` });
    expect(run.code).toBe(1);
    const out = lines(run.stdout);
    expect(out).toHaveLength(5);
    const core = (p: string) => {
      const g = gradePuzzle(p);
      return g.ok ? g.grade : undefined;
    };
    expect(JSON.parse(out[0]!)).toEqual(core(EASY));
    expect(out[1]).toBe('');
    expect(JSON.parse(out[2]!)).toMatchObject({ line: 3 });
    expect(JSON.parse(out[2]!).problems[0]).toMatchObject({ code: 'DUPLICATE_IN_ROW', line: 3 });
    expect(JSON.parse(out[3]!)).toEqual(core(HARD));
    expect(JSON.parse(out[4]!)).toMatchObject({ line: 5, problems: [{ code: 'MULTIPLE_SOLUTIONS' }] });
    expect(run.stderr).toMatch(/^line 3: DUPLICATE_IN_ROW: /m);
    expect(run.stderr).toMatch(/2 of 4 puzzles not graded/);
  });

  it('grades a file to -o OUT, exit 0 when every line was graded', async () => {
    const input = path.join(dir, 'set.txt');
    const set = readPuzzleSet('puzzles2_17_clue').slice(0, 200);
    writeFileSync(input, `${set.join('\n')}\n`);
    const out = path.join(dir, 'grades.jsonl');
    const run = await runCli(['grade', input, '-o', out]);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const grades = lines(readFileSync(out, 'utf8')).map((l) => JSON.parse(l) as { level: string });
    expect(grades).toHaveLength(200);
    grades.forEach((g, i) => {
      const core = gradePuzzle(set[i]!);
      expect(core.ok && g).toEqual(core.ok && core.grade);
    });
  });

  it('refuses a missing input (exit 2)', async () => {
    const run = await runCli(['grade', path.join(dir, 'nope.txt')]);
    expect(run.code).toBe(2);
  });
});

describe('sudoku generate', () => {
  it('writes N puzzles at the level, puzzle i from seed S + i, the same for the same seed', async () => {
    const run = await runCli(['generate', '--count', '4', '--level', 'medium', '--seed', '11']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const puzzles = lines(run.stdout);
    expect(puzzles).toHaveLength(4);
    puzzles.forEach((p, i) => {
      expect(p).toMatch(/^[1-9.]{81}$/);
      const made = generatePuzzle({ level: 'medium', seed: 11 + i });
      expect(made.ok && made.puzzle).toBe(p);
      const graded = gradePuzzle(p);
      expect(graded.ok && graded.grade.level).toBe('medium');
    });
    const again = await runCli(['generate', '--level=medium', '--seed=11', '-n', '4']);
    expect(again.stdout).toBe(run.stdout);
  });

  it('draws and prints a seed when none is given; writes -o OUT (gzipped for .gz); symmetric on request', async () => {
    const out = path.join(dir, 'easy.txt.gz');
    const run = await runCli(['generate', '--level', 'easy', '--count', '2', '--symmetric', '-o', out]);
    expect(run.code).toBe(0);
    const seed = Number(/seed (\d+)/.exec(run.stderr)?.[1]);
    const puzzles = lines(gunzipSync(readFileSync(out)).toString('utf8'));
    expect(puzzles).toHaveLength(2);
    const first = generatePuzzle({ level: 'easy', seed, symmetric: true });
    expect(first.ok && first.puzzle).toBe(puzzles[0]);
  });

  it('refuses a bad level, count or seed with a usage error (exit 2), writing nothing', async () => {
    for (const args of [
      ['--level', 'nightmare'],
      ['--level', 'easy', '--count', '0'],
      ['--level', 'easy', '--seed', '-3'],
      ['--count', '2'],
    ]) {
      const out = path.join(dir, 'never.txt');
      const run = await runCli(['generate', ...args, '-o', out]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(existsSync(out)).toBe(false);
    }
  });
});
