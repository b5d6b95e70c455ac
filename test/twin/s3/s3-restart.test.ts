import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Event } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_RESTARTS } from '../../../twin/s3/s3-server.js';
import type { ServerExit } from '../../../twin/s3/s3-server.js';
import { EASY, EASY_SOLUTION } from '../../helpers/boards.js';
import { clientFor, startTestS3 } from '../../helpers/local-s3.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the local S3 server process dying', () => {
  it('is reported and restarted on the same port and data: objects survive and uploads are delivered again', async () => {
    const exits: ServerExit[] = [];
    const delivered: S3Event[] = [];
    const s3 = await startTestS3({
      onServerExit: (exit) => exits.push(exit),
      onObjectCreated: (e) => delivered.push(e),
    });
    try {
      await s3.put('kept/before.txt', 'written before the crash');
      const first = s3.server.pid!;
      process.kill(first, 'SIGKILL');
      await until('a new s3rver process', () => s3.server.pid !== first);
      await s3.server.serving();
      expect(exits).toEqual([{ code: null, signal: 'SIGKILL', restarting: true }]);
      expect(await s3.text('kept/before.txt')).toBe('written before the crash');
      await s3.put('incoming/after.txt', `${EASY}\n`);
      await until('the event of an upload after the restart', () =>
        delivered.some((e) => e.Records[0]!.s3.object.key === 'incoming/after.txt'),
      );
    } finally {
      await s3.close();
    }
  });

  it(`is given up on, and said so, when it dies more than ${MAX_RESTARTS} times in a row`, async () => {
    const exits: ServerExit[] = [];
    const lost: Error[] = [];
    const s3 = await startTestS3({
      onServerExit: (exit) => exits.push(exit),
      onServerLost: (error) => lost.push(error),
    });
    try {
      for (let i = 0; i <= MAX_RESTARTS; i++) {
        const pid = s3.server.pid!;
        process.kill(pid, 'SIGKILL');
        await until(`exit ${i + 1}`, () => exits.length === i + 1);
        await s3.server.serving();
      }
      expect(exits.map((e) => e.restarting)).toEqual([...Array<boolean>(MAX_RESTARTS).fill(true), false]);
      expect(lost[0]?.message).toMatch(/exited 6 times within 60 s/);
    } finally {
      await s3.close();
    }
  }, 120_000);
});

/** Every process below `pid`, read from /proc (npm start runs tsx, which runs node, which forks s3rver). */
function descendants(pid: number): { pid: number; command: string }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const below = (p: number): number[] =>
    [...parents].filter(([, parent]) => parent === p).flatMap(([child]) => [child, ...below(child)]);
  return below(pid).map((p) => {
    let command = '';
    try {
      command = readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {}
    return { pid: p, command };
  });
}

describe('npm start when its S3 process dies', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-start-restart-'));
  let started: ChildProcess | undefined;
  afterAll(async () => {
    if (started && started.exitCode === null) {
      started.kill('SIGTERM');
      await new Promise((resolve) => started!.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says so on stderr, restarts it, and uploads are solved again', async () => {
    started = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['twin/commands/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        S3_PORT: '0',
        S3_DATA_DIR: dataDir,
        BUCKET: 'restart-test',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let spawnError: Error | undefined;
    started.once('error', (error) => {
      spawnError = error;
    });
    let stdout = '';
    let stderr = '';
    started.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    started.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    // Under a loaded suite the start can take a while; one that ends before its banner says why here.
    await until(
      'the banner',
      () => {
        if (spawnError) throw new Error(`npm start could not be started: ${spawnError.message}`);
        if (started!.exitCode !== null || started!.signalCode !== null)
          throw new Error(`npm start ended (${started!.exitCode ?? started!.signalCode}) before its banner`);
        return stdout.includes('Ctrl-C to stop');
      },
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nnpm start's stderr so far:\n${stderr}\nstdout:\n${stdout}`);
    });
    const endpoint = stdout.match(/S3\s+(http:\/\/127\.0\.0\.1:\d+)\s+bucket restart-test/)![1]!;
    const s3rver = descendants(started.pid!).find((p) => p.command.includes('s3rver-process'));
    expect(s3rver, 'the s3rver child of npm start').toBeDefined();
    process.kill(s3rver!.pid, 'SIGKILL');
    await until('the restart on stderr', () => /s3rver restarted/.test(stderr));
    expect(stderr).toMatch(/local S3: the s3rver process \(127\.0\.0\.1:\d+\) killed by SIGKILL; restarting it/);
    expect(started.exitCode).toBeNull();

    const client = clientFor(endpoint);
    try {
      await client.send(
        new PutObjectCommand({ Bucket: 'restart-test', Key: 'incoming/after restart.txt', Body: `${EASY}\n` }),
      );
      const solved = await until('the solved output', () =>
        client.send(new GetObjectCommand({ Bucket: 'restart-test', Key: 'reports/after restart.txt.json' })).then(
          () =>
            client
              .send(new GetObjectCommand({ Bucket: 'restart-test', Key: 'solved/after restart.txt' }))
              .then((r) => r.Body!.transformToString()),
          () => undefined,
        ),
      );
      expect(solved).toBe(`${EASY_SOLUTION}\n`);
    } finally {
      client.destroy();
    }
  }, 120_000);

  it('exits non-zero, saying why, when the S3 process keeps dying (never serves half a system)', async () => {
    const exited = new Promise<number | null>((resolve) => started!.once('exit', (code) => resolve(code)));
    let stderr = '';
    started!.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    // One exit so far (the test above); MAX_RESTARTS more within the minute is a crash loop.
    for (let i = 0; i < MAX_RESTARTS; i++) {
      // Each kill waits for the previous restart to be serving (a process killed while starting is a failed restart).
      await until('the previous restart', () => (stderr.match(/s3rver restarted/g)?.length ?? 0) >= i);
      const s3rver = await until('an s3rver child', () =>
        descendants(started!.pid!).find((p) => p.command.includes('s3rver-process')),
      );
      process.kill(s3rver.pid, 'SIGKILL');
    }
    expect(await exited).toBe(1);
    expect(stderr).toMatch(
      /npm start: the local S3 server is lost: the s3rver process exited 6 times within 60 s; stopping/,
    );
  }, 90_000);
});
