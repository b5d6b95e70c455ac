// The twin keeps its Step Functions executions across a restart (issue 36 item 5): killed mid-run,
// `npm start`'s S3 service started again on the same data folder resumes the executions it left
// running, so a file split into ranges still ends solved and reported, and the bucket still lists.
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { executionsDirectoryFor } from '../../twin/stepfunctions/step-functions-server.js';
import { RANGE_BYTES_ENV } from '../../functions/pipeline/range-plan.js';
import { HARD } from '../helpers/boards.js';
import { clientFor } from '../helpers/local-s3.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUCKET = 'restart-bucket';
const KEY = 'incoming/restart/hard.txt';
/** About 82 KB in ranges of 4,000 bytes: 21 ranges, two at a time here (killed after 3, 18 left to resume). */
const LINES = Array.from({ length: 1000 }, () => HARD);
const directory = mkdtempSync(path.join(os.tmpdir(), 'sudoku-twin-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
  rmSync(executionsDirectoryFor(directory), { recursive: true, force: true });
});

/** The twin's S3 service in a child process on the data folder; resolves with its S3 endpoint. */
async function startTwin(): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/helpers/twin-process.ts')], {
    cwd: root,
    env: {
      ...process.env,
      S3_DATA_DIR: directory,
      S3_PORT: '0',
      BUCKET,
      [RANGE_BYTES_ENV]: '4000',
      POWERTOOLS_METRICS_DISABLED: 'true',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.push(child);
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const ready = /TWIN-READY (\S+)/.exec(seen);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', (code, signal) => reject(new Error(`the twin exited before it served (${signal ?? code})`)));
  });
  return { child, endpoint };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function keysUnder(client: S3Client, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
    );
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

async function text(client: S3Client, key: string): Promise<string> {
  const { GetObjectCommand } = await import('@aws-sdk/client-s3');
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return got.Body!.transformToString();
}

describe('`npm start` killed while a file is solved in ranges, then started again on the same data', () => {
  it('resumes the execution it left running: the file ends solved and reported, and the bucket lists', async () => {
    const first = await startTwin();
    const before = clientFor(first.endpoint);
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await before.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: `${LINES.join('\n')}\n` }));
    // Mid-run: some ranges answered, the file not yet.
    await until('a few ranges solved', async () =>
      (await keysUnder(before, 'staging/')).filter((key) => key.includes('/tally/')).length >= 3 ? true : undefined,
    );
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    before.destroy();

    const second = await startTwin();
    const after = clientFor(second.endpoint);
    try {
      // The report key shows the run while it runs (outcome `running`); the final report replaces it.
      const report = await until('the final report', async () => {
        const found = JSON.parse(await text(after, 'reports/restart/hard.txt.json')) as { outcome: string };
        return found.outcome === 'running' ? undefined : found;
      });
      expect(report).toMatchObject({ outcome: 'solved', counts: { rows: LINES.length, solved: LINES.length } });
      const output = (await text(after, 'solved/restart/hard.txt')).trimEnd().split('\n');
      expect(output.length).toBe(LINES.length);
      LINES.forEach((puzzle, i) => {
        if (!isSolutionOf(puzzle, output[i]!)) throw new Error(`line ${i + 1}: ${output[i]} does not solve ${puzzle}`);
      });
      // Every listing answers; the run's staging objects are gone.
      expect(await keysUnder(after, '')).toContain(KEY);
      await until('staging emptied', async () =>
        (await keysUnder(after, 'staging/')).length === 0 ? true : undefined,
      );
      // The file's execution, as kept in the data folder: ended, as succeeded (the samples `npm start` seeds have their own).
      // The record is written once the finish's Lambda has returned, which is after it emptied staging: wait for it.
      const folder = executionsDirectoryFor(directory);
      const statuses = await until(
        'the execution recorded as ended',
        async () => {
          const found = readdirSync(folder)
            .filter((file) => file.endsWith('.json'))
            .map(
              (file) => JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as { input: string; status: string },
            )
            .filter((record) => record.input.includes(KEY))
            .map((record) => record.status);
          return found.includes('RUNNING') ? undefined : found;
        },
        30_000,
      );
      expect(statuses).toEqual(['SUCCEEDED']);
    } finally {
      after.destroy();
      second.child.kill('SIGTERM');
    }
  }, 300_000);
});
