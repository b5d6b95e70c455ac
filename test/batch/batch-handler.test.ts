import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchInputError, BatchItemsFailedError, isMapEvent } from '../../functions/batch/index.js';
import type { MapEvent, MapResult } from '../../functions/batch/index.js';
import type { RunSummary } from '../../twin/stepfunctions/batch-run.js';
import { handleRunRequest, isRunRequest } from '../../twin/stepfunctions/run-request.js';
import { handler } from '../../functions/handler/index.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { EASY, EASY_SOLUTION } from '../helpers/boards.js';
import { clientFor, startTestS3 } from '../helpers/local-s3.js';
import type { TestS3 } from '../helpers/local-s3.js';
import { startS3Proxy } from '../helpers/s3-proxy.js';
import type { S3Proxy } from '../helpers/s3-proxy.js';
import { batchEvent, batchEventFor, batchItem } from './factories.js';
import { useFunctionEnvironment } from '../../twin/lambda/function-environment.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const eventsDir = path.join(root, 'events');
const sampleEvents = readdirSync(eventsDir).filter((name) => name.startsWith('batch-'));
const readEvent = (name: string): unknown => JSON.parse(readFileSync(path.join(eventsDir, name), 'utf8'));

let s3: TestS3;
/** Between the handler and the server: can drop the connection in the middle of one file. */
let proxy: S3Proxy;
beforeAll(async () => {
  // The bucket the sample events name, so they run as they are.
  s3 = await startTestS3({ bucket: 'sudoku-local' });
  proxy = await startS3Proxy(s3.server.endpoint);
  // The handler's shared S3 client reads these on first use, as it does under `npm start`.
  useFunctionEnvironment(process.env, proxy.endpoint, 'admin');
  process.env.BUCKET = s3.bucket;
});
afterAll(async () => {
  await proxy?.close();
  await s3?.close();
});

const invoke = (event: unknown) => handler(event, createLambdaContext());

describe('the entry point given the map batch event', () => {
  it('solves every listed key through the S3 pipeline and returns a result per item, folder markers ignored', async () => {
    await s3.put('batch/handler/a.txt', `${EASY}\n`);
    await s3.put('batch/handler/b.jsonl', `${JSON.stringify(EASY)}\n`);
    const event = await batchEventFor(s3, ['batch/handler/a.txt', 'batch/handler/b.jsonl']);
    event.Items.push(batchItem('batch/handler/', { Size: 0 }));

    const result = (await invoke(event)) as MapResult;

    expect(result).toMatchObject({
      mode: 'batch',
      bucket: s3.bucket,
      files: { solved: 2, ignored: 1, failed: 0 },
      puzzles: { rows: 2, solved: 2, failed: 0 },
    });
    expect(result.items).toEqual([
      expect.objectContaining({
        key: 'batch/handler/a.txt',
        status: 'solved',
        outputKey: 'batch-solved/handler/a.txt',
        reportKey: 'batch-reports/handler/a.txt.json',
      }),
      expect.objectContaining({
        key: 'batch/handler/b.jsonl',
        status: 'solved',
        outputKey: 'batch-solved/handler/b.jsonl',
      }),
      { key: 'batch/handler/', status: 'ignored', reason: 'folder' },
    ]);
    expect(await s3.text('batch-solved/handler/a.txt')).toBe(`${EASY_SOLUTION}\n`);
    // Small enough for a child execution's output (Step Functions' limit is 256 KiB).
    expect(JSON.stringify(result).length).toBeLessThan(4096);
  });

  it('throws BatchItemsFailedError naming only the bad file, after solving the other files of the group', async () => {
    await s3.put('batch/handler-bad/good.txt', `${EASY}\n`);
    await s3.put('batch/handler-bad/broken.csv.gz', gzipSync(`quizzes\n${EASY}\n`.repeat(50)));
    proxy.cutGetAfter('broken.csv.gz', 20);
    await s3.put('batch/handler-bad/good2.txt', `${EASY}\n`);
    const event = await batchEventFor(s3, [
      'batch/handler-bad/good.txt',
      'batch/handler-bad/broken.csv.gz',
      'batch/handler-bad/good2.txt',
    ]);

    const error = await invoke(event).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(BatchItemsFailedError);
    const failed = error as BatchItemsFailedError;
    expect(failed.code).toBe('ITEMS_FAILED');
    expect(failed.failed.map((f) => f.key)).toEqual(['batch/handler-bad/broken.csv.gz']);
    expect(failed.message).toMatch(/^1 of 3 file\(s\) failed: batch\/handler-bad\/broken\.csv\.gz \(/);
    expect(failed.result.files).toMatchObject({ solved: 2, failed: 1 });
    expect(await s3.text('batch-solved/handler-bad/good.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await s3.text('batch-solved/handler-bad/good2.txt')).toBe(`${EASY_SOLUTION}\n`);
    expect(await s3.exists('batch-solved/handler-bad/broken.csv.gz')).toBe(false);
  });

  it('in sweep mode solves an incoming/ key exactly as its S3 event would have, into solved/<path>', async () => {
    await s3.put('incoming/handler-sweep/lost.txt', `${EASY}\n`);
    const result = (await invoke(await batchEventFor(s3, ['incoming/handler-sweep/lost.txt'], 'sweep'))) as MapResult;
    expect(result.items).toEqual([
      expect.objectContaining({ status: 'solved', outputKey: 'solved/handler-sweep/lost.txt' }),
    ]);
    expect((await s3.report('incoming/handler-sweep/lost.txt')).source.key).toBe('incoming/handler-sweep/lost.txt');
  });

  it("never processes a key outside the mode's prefix: outputs must not land where inputs are read", async () => {
    await s3.put('solved/elsewhere/x.txt', `${EASY}\n`);
    const result = (await invoke(
      batchEvent([batchItem('solved/elsewhere/x.txt')], { bucket: s3.bucket }),
    )) as MapResult;
    expect(result.items).toEqual([{ key: 'solved/elsewhere/x.txt', status: 'ignored', reason: 'outside-prefix' }]);
    expect(await s3.exists('reports/elsewhere/x.txt.json')).toBe(false);
  });

  it('skips a listed key whose object is gone by the time its batch runs', async () => {
    const result = (await invoke(
      batchEvent([batchItem('batch/handler/deleted.txt')], { bucket: s3.bucket }),
    )) as MapResult;
    expect(result.items).toEqual([{ key: 'batch/handler/deleted.txt', status: 'skipped', reason: 'source-missing' }]);
  });

  it('fails the whole invocation with a typed error (code, location) for an unknown mode, processing nothing', async () => {
    const event = { Items: [batchItem('batch/handler/a.txt')], BatchInput: { bucket: s3.bucket, mode: 'everything' } };
    const error = await invoke(event).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchInputError);
    expect(error).toMatchObject({ code: 'INVALID_BATCH_INPUT', location: 'BatchInput.mode' });
  });
});

describe('the entry point given the schedule input', () => {
  it('does not take it: in AWS it starts the state machine, so the deployed function has no such event', async () => {
    await s3.put('batch/scheduled/one.txt', `${EASY}\n${EASY}\n`);
    await expect(invoke({ mode: 'batch', prefix: 'scheduled/' })).rejects.toMatchObject({
      name: 'UnrecognisedEventError',
    });
    expect(await s3.exists('batch-solved/scheduled/one.txt')).toBe(false);
  });

  it('given to `npm run invoke`, is run whole by the local runner (list, group, solve), which returns the run summary', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sudoku-schedule-'));
    const eventFile = path.join(dir, 'schedule.json');
    writeFileSync(eventFile, JSON.stringify({ mode: 'batch', prefix: 'scheduled/' }));
    const run = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['twin/commands/invoke.ts', eventFile], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, S3_ENDPOINT: s3.server.endpoint, BUCKET: s3.bucket, POWERTOOLS_LOG_LEVEL: 'SILENT' },
    });
    rmSync(dir, { recursive: true, force: true });
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as RunSummary;
    expect(summary).toMatchObject({
      mode: 'batch',
      bucket: s3.bucket,
      listed: 1,
      files: { solved: 1 },
      puzzles: { rows: 2 },
    });
    // With the state machine's credentials, as `npm run batch` has them, it writes its run report.
    expect(summary.reportPrefix).toMatch(/^run-reports\/local-/);
  });
});

describe('the sample events in events/batch-*.json', () => {
  it('are the map batch event (batch and sweep) and the schedule input (batch and sweep)', () => {
    expect(sampleEvents.sort()).toEqual([
      'batch-map-batch.json',
      'batch-map-sweep.json',
      'batch-schedule-batch.json',
      'batch-schedule-sweep.json',
    ]);
    for (const name of sampleEvents) {
      const event = readEvent(name);
      if (name.startsWith('batch-map-')) {
        expect(isMapEvent(event), name).toBe(true);
        const { BatchInput, Items } = event as MapEvent;
        expect(BatchInput.mode).toBe(name.includes('sweep') ? 'sweep' : 'batch');
        // Step Functions' own spelling and value types.
        for (const item of Items)
          expect(item).toEqual({
            Etag: expect.stringMatching(/^".+"$/),
            Key: expect.any(String),
            LastModified: expect.any(Number),
            Size: expect.any(Number),
            StorageClass: 'STANDARD',
          });
      } else {
        expect(isRunRequest(event), name).toBe(true);
        expect(isMapEvent(event), name).toBe(false);
      }
    }
  });

  it('run with `npm run invoke` against the local S3: the map event solves its files', async () => {
    await s3.put('batch/samples/puzzles.txt', `${EASY}\n`);
    await s3.put('batch/samples/kaggle.csv', `quizzes,solutions\n${EASY},\n`);
    const run = spawnSync(
      path.join(root, 'node_modules', '.bin', 'tsx'),
      ['twin/commands/invoke.ts', 'events/batch-map-batch.json'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, S3_ENDPOINT: s3.server.endpoint, POWERTOOLS_LOG_LEVEL: 'SILENT' },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as MapResult;
    expect(result.files).toMatchObject({ solved: 2, ignored: 1, failed: 0 });
    expect(await s3.text('batch-solved/samples/puzzles.txt')).toBe(`${EASY_SOLUTION}\n`);
  });
});

describe('a run request given to the local runner', () => {
  it("solves the files but writes no run report with the function's role: run-reports/ belongs to Step Functions", async () => {
    await s3.put('batch/run-request/a.txt', `${EASY}\n`);
    const deployed = await handleRunRequest(
      { mode: 'batch', prefix: 'run-request/' },
      { client: s3.client, env: { BUCKET: s3.bucket } },
    );
    expect(deployed).toMatchObject({ files: { solved: 1, failed: 0 } });
    expect(deployed.reportPrefix).toBeUndefined();
    expect(await s3.text('batch-solved/run-request/a.txt')).toBe(`${EASY_SOLUTION}\n`);

    // Given the state machine's credentials, as `npm run batch` has them, it writes its run report.
    await s3.put('batch/run-request/b.txt', `${EASY}\n`);
    const local = await handleRunRequest(
      { mode: 'batch', prefix: 'run-request/' },
      { client: s3.client, runClient: clientFor(s3.server.endpoint, 'run'), env: { BUCKET: s3.bucket } },
    );
    expect(local.reportPrefix).toMatch(/^run-reports\/local-/);
    expect(await s3.exists(`${local.reportPrefix}summary.json`)).toBe(true);
  });
});
