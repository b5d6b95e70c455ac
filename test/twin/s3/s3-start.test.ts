import { PutObjectCommand } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { executionsDirectoryFor } from '../../../twin/stepfunctions/step-functions-server.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { EASY, EASY_SOLUTION } from '../../helpers/boards.js';
import { clientFor } from '../../helpers/local-s3.js';
import { GetObjectCommand } from '@aws-sdk/client-s3';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sudoku-start-s3-'));
let started: ChildProcess | undefined;

afterAll(async () => {
  if (started && started.exitCode === null) {
    started.kill('SIGTERM');
    await new Promise((resolve) => started!.once('exit', resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
  // Where `npm start` keeps its Step Functions executions, beside the S3 data.
  rmSync(executionsDirectoryFor(dataDir), { recursive: true, force: true });
});

function waitForOutput(child: ChildProcess, pattern: RegExp, ms = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${text}`)), ms);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (pattern.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
}

it('npm start serves a local S3 bucket whose incoming/ uploads are solved into solved/ by the handler', async () => {
  started = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['twin/commands/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      S3_PORT: '0',
      S3_DATA_DIR: dataDir,
      BUCKET: 'start-test',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const printed = await waitForOutput(started, /Ctrl-C to stop/);
  const endpoint = printed.match(/S3\s+(http:\/\/127\.0\.0\.1:\d+)\s+bucket start-test/)![1]!;
  const client = clientFor(endpoint);
  await client.send(new PutObjectCommand({ Bucket: 'start-test', Key: 'incoming/from start.txt', Body: `${EASY}\n` }));
  // The report is written after the output is complete: wait for it (s3rver, unlike S3, shows objects while they are written).
  const get = (key: string) =>
    client.send(new GetObjectCommand({ Bucket: 'start-test', Key: key })).then(
      (r) => r.Body!.transformToString(),
      () => undefined,
    );
  let report: string | undefined;
  for (let i = 0; i < 300 && report === undefined; i++) {
    report = await get('reports/from start.txt.json');
    if (report === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const solved = await get('solved/from start.txt');
  client.destroy();
  expect(solved).toBe(`${EASY_SOLUTION}\n`);
});
