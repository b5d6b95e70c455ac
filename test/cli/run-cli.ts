import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const binPath = path.join(repoRoot, 'bin', 'sudoku.mjs');

/**
 * The tests run the built CLI, as users do; `npm test` builds first. A bare `vitest` without it is
 * told to build, as the bundle's tests tell it: building here would empty dist/ (scripts/build.mjs
 * starts each bundle's folder afresh) under the other files' tests running on the handler bundle.
 */
export function ensureBuilt(): void {
  if (!existsSync(path.join(repoRoot, 'dist', 'cli', 'index.mjs')))
    throw new Error('dist/cli/index.mjs is missing: run `npm run build` (npm test does) first');
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `node [nodeArgs] bin/sudoku.mjs args`, feeding `stdin` if given. */
export function runCli(
  args: string[],
  options: { stdin?: string | Buffer; nodeArgs?: string[]; command?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const [cmd, ...pre] = options.command ?? [process.execPath, ...(options.nodeArgs ?? []), binPath];
    const child = spawn(cmd!, [...pre, ...args], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}

/**
 * Spawns `node bin/sudoku.mjs args` and closes its standard output after the first bytes, as
 * `sudoku ... | head -1` does; resolves with how it ended and what it said on stderr.
 */
export function runCliReaderGone(args: string[]): Promise<{ code: number | null; stderr: string; read: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const err: Buffer[] = [];
    let read = 0;
    child.stdout.once('data', (c: Buffer) => {
      read = c.length;
      child.stdout.destroy();
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8'), read }));
  });
}
