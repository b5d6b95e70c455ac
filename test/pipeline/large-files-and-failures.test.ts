import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { build, type BuildOptions } from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleS3Event, S3RecordsFailedError } from '../../functions/s3/index.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { isSolutionOf } from '../helpers/sudoku-rules.js';
import { clientFor, startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { startS3Proxy } from '../helpers/s3-proxy.js';
import type { S3Proxy } from '../helpers/s3-proxy.js';
import { functionEnvironment } from '../../twin/lambda/function-environment.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundleOptionsFor = (entry: string): BuildOptions => ({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'error',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const MIB = 1024 * 1024;
const PART = 5 * MIB;

let s3: TestS3;
let proxy: S3Proxy;
/** A 20 MB puzzle file: the first 2,000 17-clue puzzles, over and over (about 256,000 lines). */
let big: { body: string; puzzles: string[] };

beforeAll(async () => {
  s3 = await startTestS3();
  proxy = await startS3Proxy(s3.server.endpoint);
  const puzzles = readPuzzleSet('puzzles2_17_clue').slice(0, 2000);
  const block = `${puzzles.join('\n')}\n`;
  const lines = Math.ceil((20 * 1000 * 1000) / block.length) * puzzles.length;
  big = { body: block.repeat(lines / puzzles.length), puzzles };
});
afterAll(async () => {
  await proxy?.close();
  await s3?.close();
});

/** The upload-related requests seen by the proxy since `from`. */
function uploadCalls(from: number, key: string): string[] {
  return proxy.requests
    .slice(from)
    .filter((r) => decodeURIComponent(r.url).includes(key))
    .map((r) => {
      const url = new URL(r.url, 'http://x');
      if (url.searchParams.has('uploads')) return 'create';
      if (url.searchParams.has('partNumber')) return 'part';
      if (r.method === 'POST' && url.searchParams.has('uploadId')) return 'complete';
      if (r.method === 'DELETE' && url.searchParams.has('uploadId')) return 'abort';
      return r.method === 'PUT' ? 'put' : 'other';
    })
    .filter((kind) => kind !== 'other');
}

describe('a 20 MB file', () => {
  it('is written as a multipart upload and every one of its rows is answered in order', async () => {
    const key = 'incoming/big/twenty.txt';
    expect(big.body.length).toBeGreaterThan(20_000_000);
    await s3.put(key, big.body);
    const client = clientFor(proxy.endpoint, 'files');
    const from = proxy.requests.length;
    const results = await handleS3Event(await s3.eventFor(key), { client, partSize: PART });
    client.destroy();
    expect(results[0]).toMatchObject({ status: 'processed' });

    const calls = uploadCalls(from, 'solved/big/twenty.txt');
    expect(calls[0]).toBe('create');
    expect(calls.filter((c) => c === 'part').length).toBe(Math.ceil(big.body.length / PART));
    expect(calls.at(-1)).toBe('complete');

    const out = (await s3.text('solved/big/twenty.txt'))!;
    expect(out.length).toBe(big.body.length);
    const lines = out.split('\n');
    const n = big.body.length / 82;
    expect(lines).toHaveLength(n + 1);
    // Every answer verified would double the test's time; a stride through the whole file covers every part.
    for (let i = 0; i < n; i += 997) expect(isSolutionOf(big.puzzles[i % big.puzzles.length]!, lines[i]!)).toBe(true);
    expect((await s3.report(key)).counts).toMatchObject({ rows: n, solved: n });
  });
});

describe('memory', () => {
  it('processes a 32 MB file in a process whose heap is capped at 24 MB (streams, never holds the file)', async () => {
    // 24 MB leaves the loaded SDK and GC headroom room to breathe, yet could not hold the file.
    const body = big.body + big.body.slice(0, 12 * 1000 * 1000 - ((12 * 1000 * 1000) % 82));
    const key = 'incoming/big/capped.txt';
    await s3.put(key, body);
    const runner = `
      const { createS3Client, processObject } = await import(process.argv[1]);
      const client = createS3Client();
      const result = await processObject({ client, bucket: process.argv[3], sourceKey: process.argv[4], outputKey: 'solved/big/capped.txt', reportKey: 'reports/big/capped.txt.json', force: true, partSize: ${PART} });
      process.stdout.write(JSON.stringify(result.report.counts));
    `;
    // The pipeline is bundled first, as it ships, so the capped heap holds the pipeline at work
    // rather than a TypeScript loader transpiling the AWS SDK.
    const bundle = path.join(mkdtempSync(path.join(tmpdir(), 's3-capped-')), 's3.mjs');
    await build({ ...bundleOptionsFor(path.join(repoRoot, 'functions', 'pipeline', 'index.ts')), outfile: bundle });
    const child = spawn(
      process.execPath,
      [
        '--max-old-space-size=24',
        '--input-type=module',
        '-e',
        runner,
        pathToFileURL(bundle).href,
        s3.server.endpoint,
        s3.bucket,
        key,
      ],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...functionEnvironment(s3.server.endpoint, 'admin'),
          POWERTOOLS_LOG_LEVEL: 'SILENT',
          POWERTOOLS_METRICS_DISABLED: 'true',
          NODE_NO_WARNINGS: '1',
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code, stderr).toBe(0);
    const n = body.length / 82;
    expect(JSON.parse(stdout)).toMatchObject({ rows: n, solved: n });
    expect((await s3.text('solved/big/capped.txt'))!.length).toBe(body.length);
  });
});

describe('the S3 server failing mid-file', () => {
  it('raises the error and leaves no output object when the source stream breaks before any part was sent', async () => {
    const key = 'incoming/broken/early.txt';
    await s3.put(key, big.body.slice(0, 3 * MIB - ((3 * MIB) % 82)));
    proxy.cutGetAfter(key, 1 * MIB);
    const client = clientFor(proxy.endpoint, 'files');
    const failure = await handleS3Event(await s3.eventFor(key), { client, partSize: PART }).catch((e: unknown) => e);
    client.destroy();
    expect(failure).toBeInstanceOf(S3RecordsFailedError);
    expect((failure as S3RecordsFailedError).failedKeys).toEqual([key]);
    expect(await s3.exists('solved/broken/early.txt')).toBe(false);
    expect(await s3.exists('reports/broken/early.txt.json')).toBe(false);
  });

  it('aborts the multipart upload, raises the error and leaves no output when it breaks after parts were uploaded', async () => {
    const key = 'incoming/broken/late.txt';
    await s3.put(key, big.body);
    proxy.cutGetAfter(key, 15 * MIB);
    const client = clientFor(proxy.endpoint, 'files');
    const from = proxy.requests.length;
    await expect(handleS3Event(await s3.eventFor(key), { client, partSize: PART })).rejects.toBeInstanceOf(
      S3RecordsFailedError,
    );
    client.destroy();
    const calls = uploadCalls(from, 'solved/broken/late.txt');
    expect(calls[0]).toBe('create');
    expect(calls).toContain('part');
    expect(calls).toContain('abort');
    expect(calls).not.toContain('complete');
    const listed = await s3.admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'solved/broken/' }));
    expect(listed.Contents ?? []).toEqual([]);
  });

  it('aborts the upload, raises the error and leaves no output when the server keeps failing to store a part', async () => {
    const key = 'incoming/broken/parts.txt';
    await s3.put(key, big.body.slice(0, 12 * MIB - ((12 * MIB) % 82)));
    proxy.cutGetAfter('nothing-matches-this', 0);
    proxy.failWhere((r) => r.method === 'PUT' && r.url.includes('partNumber=2'));
    const client = clientFor(proxy.endpoint, 'files');
    const from = proxy.requests.length;
    const failure = await handleS3Event(await s3.eventFor(key), { client, partSize: PART }).catch((e: unknown) => e);
    proxy.failWhere(undefined);
    client.destroy();
    expect(failure).toBeInstanceOf(S3RecordsFailedError);
    const calls = uploadCalls(from, 'solved/broken/parts.txt');
    expect(calls).toContain('abort');
    expect(calls).not.toContain('complete');
    expect(await s3.exists('solved/broken/parts.txt')).toBe(false);
    expect(await s3.exists('reports/broken/parts.txt.json')).toBe(false);
  });

  it('succeeds on the retry once the server is healthy again', async () => {
    const key = 'incoming/broken/early.txt';
    proxy.cutGetAfter('nothing-matches-this', 0);
    const results = await handleS3Event(await s3.eventFor(key), { client: s3.client });
    expect(results[0]).toMatchObject({ status: 'processed' });
    expect(await s3.exists('solved/broken/early.txt')).toBe(true);
  });
});
