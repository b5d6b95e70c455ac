import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Screenshots and other outputs of the browser tests (gitignored, like the rest of .local/). */
export const artifactsDir = path.join(root, '.local', 'test-artifacts', 'web');

/**
 * Chromium from the system (Debian's `chromium` package; `.ci/run` installs it when missing), or
 * CHROMIUM_PATH. Never a browser download: this project's machines reach no such host.
 */
export function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser'])
    if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
  return found || undefined;
}

/**
 * Headless, as root, on a machine whose network is closed: the background-networking flags stop
 * the connections Chromium would otherwise try (and have refused). Playwright gives every launch
 * a fresh temporary profile (--user-data-dir).
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export interface LocalSystem {
  /** The HTTP API, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  stop(): Promise<void>;
}

/**
 * `npm start`'s program (twin/commands/start.ts) in a child process, every port picked free;
 * `env` adds variables (e.g. SUDOKU_LOCAL_RATE_LIMIT for a tighter or looser POST /solve throttle).
 */
export async function startLocalSystem(env: Record<string, string> = {}): Promise<LocalSystem> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-web-s3-'));
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['twin/commands/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', S3_PORT: '0', S3_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'SILENT', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const printed = await waitForOutput(child, /Ctrl-C to stop/);
    const url = printed.match(/HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)/)?.[1];
    if (!url) throw new Error(`npm start printed no HTTP API address: ${printed}`);
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForOutput(child: ChildProcess, pattern: RegExp, ms = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms in: ${text}`)), ms);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (pattern.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}: ${text}`));
    });
  });
}
