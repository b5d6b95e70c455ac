import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EASY, EASY_SOLUTION } from '../../helpers/boards.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const quiet = { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' };

let started: ChildProcess | undefined;
afterEach(() => {
  started?.kill('SIGTERM');
  started = undefined;
});

/** Read the child's stdout until `pattern` matches all it printed so far, or fail after `ms`. */
function waitForOutput(child: ChildProcess, pattern: RegExp, ms = 30_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${text}`)), ms);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = text.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ${pattern}: ${text}`)));
  });
}

describe('npm start (twin/commands/start.ts)', () => {
  it('serves the API on 127.0.0.1:$PORT and prints the URL and a curl example that works', async () => {
    // Port 0 everywhere: whatever else `npm start` runs must not collide with other tests.
    started = spawn(tsx, ['twin/commands/start.ts'], {
      cwd: root,
      env: { ...quiet, PORT: '0', S3_PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const printed = (await waitForOutput(started, /Ctrl-C to stop/)).input!;
    const url = printed.match(/HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)/)![1]!;
    const body = printed.match(/curl -s \S+\/solve -H 'content-type: application\/json' -d '(\{.*\})'/)![1]!;
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const solved = await fetch(`${url}/solve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(solved.status).toBe(200);
    expect((await solved.json()) as unknown).toMatchObject({ unique: true });
  });
});

describe('npm run invoke (twin/commands/invoke.ts)', () => {
  it('prints the handler result for a sample event as JSON on stdout, logs kept off stdout', () => {
    const run = spawnSync(tsx, ['twin/commands/invoke.ts', 'events/http-solve-string.json'], {
      cwd: root,
      encoding: 'utf8',
      env: process.env,
    });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { statusCode: number; body: { solution: string } };
    expect(result.statusCode).toBe(200);
    expect(result.body.solution).toMatch(/^[1-9]{81}$/);
  });

  it('prints a text/plain body as its text (a one-line answer is not a number) and a problem+json body parsed', () => {
    const event = JSON.parse(readFileSync(path.join(root, 'events', 'http-solve-text-lines.json'), 'utf8')) as {
      body: string;
    };
    const eventFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'sudoku-invoke-')), 'one-line.json');
    writeFileSync(eventFile, JSON.stringify({ ...event, body: `${EASY}\n` }));
    const run = spawnSync(tsx, ['twin/commands/invoke.ts', eventFile, 'events/http-solve-bad-board.json'], {
      cwd: root,
      encoding: 'utf8',
      env: quiet,
    });
    expect(run.status, run.stderr).toBe(0);
    const [text, problem] = run.stdout.split(/\n(?=\{)/).map((printed) => JSON.parse(printed) as { body: unknown });
    expect(text!.body).toBe(`${EASY_SOLUTION}\n`);
    expect(problem!.body).toMatchObject({ status: 400, problems: expect.any(Array) });
  });

  it('exits 1 and prints the error when the handler rejects the event', () => {
    const run = spawnSync(tsx, ['twin/commands/invoke.ts', 'package.json'], {
      cwd: root,
      encoding: 'utf8',
      env: quiet,
    });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ errorType: 'UnrecognisedEventError' });
  });

  it('exits 2 with usage when given no event file', () => {
    const run = spawnSync(tsx, ['twin/commands/invoke.ts'], { cwd: root, encoding: 'utf8', env: quiet });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage');
  });
});
