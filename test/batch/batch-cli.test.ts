import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../twin/stepfunctions/batch-run.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { startS3Proxy } from '../helpers/s3-proxy.js';
import { mixedPuzzleFiles, putAll, readJson, solvedCorrectly } from './puzzle-files.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run batch -- ARGS` as a child process (stdout and stderr are pipes, not a terminal). */
function batch(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['twin/commands/batch.ts', ...args], {
      cwd: root,
      env: { ...process.env, S3_ENDPOINT: s3.server.endpoint, BUCKET: s3.bucket, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run batch (twin/commands/batch.ts)', () => {
  it('solves every file under the prefix, prints plain progress lines and the summary off a terminal, exits 0', async () => {
    const files = mixedPuzzleFiles('batch/', 'cli', 12, 2);
    await putAll(s3, files);
    const ran = await batch(['--prefix', 'cli/']);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).not.toMatch(/\r|\x1b\[/);
    expect(ran.stderr).toMatch(
      /^files 12\/12 listed \(12 solved\) \| puzzles 24 \| [\d.,]+ files\/s \| [\d.,]+ puzzles\/s \| [\d.]+ s$/m,
    );
    expect(ran.stdout).toMatch(/^batch run (local-\S+) of s3:\/\/test-bucket\/batch\/cli\/: 12 object\(s\) in/);
    expect(ran.stdout).toMatch(/files: +12 solved, 0 skipped .* 0 failed/);
    expect(ran.stdout).toMatch(/rate: +[\d.]+ files\/s, \d+ puzzles\/s/);
    expect((await Promise.all(files.map((f) => solvedCorrectly(s3, f)))).every(Boolean)).toBe(true);
    const runId = ran.stdout.match(/^batch run (local-\S+)/)![1]!;
    expect(await readJson<RunSummary>(s3, `run-reports/${runId}/summary.json`)).toMatchObject({
      listed: 12,
      files: { solved: 12 },
    });
  });

  it('exits 1 and names the file when a file failed, having solved the others', async () => {
    await s3.put('batch/cli-bad/ok.txt', `${EASY}\n`);
    await s3.put('batch/cli-bad/broken.jsonl.gz', gzipSync(`${JSON.stringify(EASY)}\n`.repeat(50)));
    // The connection drops in the middle of that file, as when S3 or the network fails.
    const proxy = await startS3Proxy(s3.server.endpoint);
    proxy.cutGetAfter('broken.jsonl.gz', 20);
    // The map's retries after 10 s and 20 s, shortened.
    const ran = await batch(['--prefix=batch/cli-bad/'], {
      S3_ENDPOINT: proxy.endpoint,
      SUDOKU_BATCH_RETRY_SECONDS: '0.2',
    }).finally(() => proxy.close());
    expect(ran.status).toBe(1);
    expect(ran.stderr).toMatch(/^failed: batch\/cli-bad\/broken\.jsonl\.gz: /m);
    expect(ran.stdout).toMatch(/files: +1 solved, .* 1 failed/);
    expect(ran.stdout).toMatch(/failed: +batch\/cli-bad\/broken\.jsonl\.gz: /);
    expect(await s3.text('batch-solved/cli-bad/ok.txt')).toBe(`${EASY_SOLUTION}\n`);
  });

  it("ends an invocation at the files function's timeout as Lambda does; the other groups are solved", async () => {
    await s3.put('batch/cli-timeout/a-ok.txt', `${EASY}\n`);
    await s3.put('batch/cli-timeout/b-stuck.txt', `${EASY}\n`);
    // S3 never answers the read of one file: the invocation cannot finish, and nothing inside it
    // can stop the wait; only the end of its execution at the timeout does.
    const proxy = await startS3Proxy(s3.server.endpoint);
    proxy.stallWhere((r) => r.method === 'GET' && r.url.includes('b-stuck.txt'));
    const ran = await batch(['--prefix=batch/cli-timeout/', '--batch-size', '1'], {
      S3_ENDPOINT: proxy.endpoint,
      SUDOKU_FILES_TIMEOUT_SECONDS: '4',
      SUDOKU_BATCH_RETRY_SECONDS: '0.2',
    }).finally(() => proxy.close());
    expect(ran.status, ran.stderr).toBe(1);
    expect(ran.stdout).toMatch(/files: +1 solved, .* 1 failed/);
    expect(ran.stdout).toMatch(
      /failed: +batch\/cli-timeout\/b-stuck\.txt: Sandbox\.Timedout: Task timed out after 4\.00 seconds/,
    );
    expect(await s3.text('batch-solved/cli-timeout/a-ok.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await s3.exists('batch-solved/cli-timeout/b-stuck.txt')).toBe(false);
  });

  it('--sweep solves the incoming/ files that have no output', async () => {
    await s3.put('incoming/cli-sweep/missed.txt', `${EASY}\n`);
    const ran = await batch(['--sweep', '--prefix', 'cli-sweep/']);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^sweep run .* of s3:\/\/test-bucket\/incoming\/cli-sweep\/: 1 object\(s\)/);
    expect(await s3.text('solved/cli-sweep/missed.txt')).toBe(`${EASY_SOLUTION}\n`);
  });

  it('exits 2 with a hint to start the local S3 when nothing answers at the endpoint, and 2 on a usage error', async () => {
    const down = await batch([], { S3_ENDPOINT: 'http://127.0.0.1:9' });
    expect(down.status).toBe(2);
    expect(down.stderr).toMatch(
      /could not run against s3:\/\/test-bucket at http:\/\/127\.0\.0\.1:9: .*is `npm start` running\?/,
    );
    const usage = await batch(['--nope']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/unknown argument '--nope'/);
  });
});
