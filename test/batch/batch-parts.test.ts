import { describe, expect, it } from 'vitest';
import {
  forEachBounded,
  isMapEvent,
  itemError,
  itemKeysFor,
  mapBounded,
  MAX_ERROR_MESSAGE_CHARS,
} from '../../functions/batch/index.js';
import { groupItems, listingPrefix, mapItemFromListing } from '../../twin/stepfunctions/map-reader.js';
import { isRunRequest } from '../../twin/stepfunctions/run-request.js';
import { RUN_DEFAULTS } from '../../functions/contract/service-layout.js';
import { defaults } from '../../infra/settings.js';
import { parseBatchArguments } from '../../twin/commands/batch-arguments.js';
import { BatchProgress, progressLine } from '../../twin/commands/batch-progress.js';
import { batchEvent, batchItem } from './factories.js';

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

describe('defaults', () => {
  it("are the stack's map defaults, so a local run has the map run's shape", () => {
    expect(RUN_DEFAULTS.maxConcurrency).toBe(defaults.batchMaxConcurrency);
    expect(RUN_DEFAULTS.itemsPerInvocation).toBe(defaults.batchItemsPerInvocation);
  });
});

describe('keys', () => {
  it('sends batch/<path> to batch-solved/<path> and batch-reports/<path>.json, and incoming/<path> to solved/ and reports/ in sweep mode', () => {
    expect(itemKeysFor('batch/2026/a b+c.csv.gz', 'batch')).toEqual({
      ok: true,
      outputKey: 'batch-solved/2026/a b+c.csv.gz',
      reportKey: 'batch-reports/2026/a b+c.csv.gz.json',
    });
    expect(itemKeysFor('incoming/x.txt', 'sweep')).toEqual({
      ok: true,
      outputKey: 'solved/x.txt',
      reportKey: 'reports/x.txt.json',
    });
  });

  it("ignores folder markers and every key outside the mode's prefix (including outputs)", () => {
    expect(itemKeysFor('batch/dir/', 'batch')).toEqual({ ok: false, reason: 'folder' });
    for (const [key, mode] of [
      ['incoming/x.txt', 'batch'],
      ['batch/x.txt', 'sweep'],
      ['solved/x.txt', 'batch'],
      ['run-reports/x.json', 'sweep'],
      ['batch/', 'batch'],
    ] as const) {
      expect(itemKeysFor(key, mode), key).toEqual({ ok: false, reason: 'outside-prefix' });
    }
  });

  it('narrows a listing by a path under the mode prefix or a full key prefix, never outside it', () => {
    expect(listingPrefix('batch')).toBe('batch/');
    expect(listingPrefix('batch', '2026-11-29/')).toBe('batch/2026-11-29/');
    expect(listingPrefix('batch', 'batch/2026-11-29/')).toBe('batch/2026-11-29/');
    expect(listingPrefix('sweep', '/late')).toBe('incoming/late');
    expect(listingPrefix('batch', 'solved/')).toBe('batch/solved/');
  });
});

describe('recognising events', () => {
  it("takes the map's batch event by its Items array and BatchInput object", () => {
    expect(isMapEvent(batchEvent([batchItem('batch/a.txt')], { bucket: 'b' }))).toBe(true);
    expect(isMapEvent({ Items: [], BatchInput: { bucket: 'b', mode: 'batch' } })).toBe(true);
    for (const other of [
      null,
      'x',
      [],
      {},
      { Items: [] },
      { Items: {}, BatchInput: {} },
      { Items: [{ key: 'a' }], BatchInput: {} },
      { Records: [] },
    ]) {
      expect(isMapEvent(other), JSON.stringify(other)).toBe(false);
    }
  });

  it('takes a run request only with a known mode and no other fields than prefix and bucket', () => {
    expect(isRunRequest({ mode: 'batch' })).toBe(true);
    expect(isRunRequest({ mode: 'sweep', prefix: 'p/', bucket: 'b' })).toBe(true);
    for (const other of [
      {},
      { mode: 'all' },
      { mode: 'batch', extra: 1 },
      { mode: 'batch', prefix: 3 },
      { version: '2.0', mode: 'batch' },
    ]) {
      expect(isRunRequest(other), JSON.stringify(other)).toBe(false);
    }
  });
});

describe('listing, grouping, concurrency', () => {
  it('gives a listed object the item reader shape: Etag quoted, LastModified in epoch seconds', () => {
    const item = mapItemFromListing({
      Key: 'batch/a.txt',
      ETag: '"abc"',
      Size: 12,
      LastModified: new Date('2026-11-29T00:00:01.900Z'),
      StorageClass: 'STANDARD',
    });
    expect(item).toEqual({
      Key: 'batch/a.txt',
      Etag: '"abc"',
      Size: 12,
      LastModified: Date.parse('2026-11-29T00:00:01Z') / 1000,
      StorageClass: 'STANDARD',
    });
  });

  it('groups items in order into groups of at most the batch size', async () => {
    expect(await collect(groupItems([1, 2, 3, 4, 5, 6, 7], 3))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(await collect(groupItems([], 3))).toEqual([]);
    await expect(collect(groupItems([1], 0))).rejects.toThrow(RangeError);
  });

  it('never has more than the limit in flight, processes every item once, and pulls a lazy source only as lanes free up', async () => {
    let inFlight = 0;
    let most = 0;
    let pulled = 0;
    const done: number[] = [];
    async function* source() {
      for (let i = 0; i < 40; i++) {
        pulled++;
        // A lane pulls only when it is free: never more than the limit ahead of the finished ones.
        expect(pulled - done.length).toBeLessThanOrEqual(4);
        yield i;
      }
    }
    await forEachBounded(source(), 4, async (i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, (i * 7) % 5));
      inFlight--;
      done.push(i);
    });
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('keeps results in input order whatever the finishing order', async () => {
    expect(
      await mapBounded([30, 0, 20, 10], 4, async (ms, i) => new Promise<number>((r) => setTimeout(() => r(i), ms))),
    ).toEqual([0, 1, 2, 3]);
  });

  it('stops pulling after a worker error, lets the calls in flight finish, then rejects with it', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = forEachBounded(
      Array.from({ length: 100 }, (_, i) => i),
      3,
      async (i) => {
        started.push(i);
        if (i === 1) throw new Error('boom');
        await new Promise((r) => setTimeout(r, 5));
        finished.push(i);
      },
    );
    await expect(run).rejects.toThrow('boom');
    expect(started.length).toBeLessThan(10);
    expect(finished.sort()).toEqual(started.filter((i) => i !== 1).sort());
  });
});

describe('errors as values', () => {
  it("keeps an error's code (or name) and caps its message", () => {
    expect(itemError(Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' }))).toEqual({
      code: 'Z_DATA_ERROR',
      message: 'incorrect header check',
    });
    expect(itemError(Object.assign(new Error('x'), { name: 'NoSuchBucket' }))).toEqual({
      code: 'NoSuchBucket',
      message: 'x',
    });
    expect(itemError('plain').code).toBe('Error');
    expect(itemError(new Error('m'.repeat(5000))).message.length).toBe(MAX_ERROR_MESSAGE_CHARS);
  });
});

describe('npm run batch arguments', () => {
  it('reads --sweep, --prefix (both spellings), --concurrency and --batch-size', () => {
    expect(parseBatchArguments([])).toEqual({
      kind: 'run',
      mode: 'batch',
      prefix: undefined,
      maxConcurrency: undefined,
      itemsPerInvocation: undefined,
    });
    expect(parseBatchArguments(['--sweep', '--prefix', 'late/', '--concurrency=4', '--batch-size', '2'])).toEqual({
      kind: 'run',
      mode: 'sweep',
      prefix: 'late/',
      maxConcurrency: 4,
      itemsPerInvocation: 2,
    });
    expect(parseBatchArguments(['--prefix=2026/'])).toMatchObject({ prefix: '2026/' });
    expect(parseBatchArguments(['-h'])).toEqual({ kind: 'help' });
  });

  it('rejects unknown arguments, a missing prefix and a non-positive number with a message', () => {
    for (const argv of [['--sweeep'], ['--prefix'], ['--concurrency', '0'], ['--batch-size=x'], ['extra']]) {
      expect(parseBatchArguments(argv), argv.join(' ')).toMatchObject({
        kind: 'usage-error',
        message: expect.any(String),
      });
    }
  });
});

describe('progress', () => {
  it('says files done of listed with their statuses, puzzles, and both rates', () => {
    const line = progressLine({
      listed: 50,
      files: { solved: 30, skipped: 5, failed: 1, rejected: 0, ignored: 0 },
      puzzles: 1200,
      elapsedMs: 2000,
    });
    expect(line).toBe(
      'files 36/50 listed (30 solved, 5 skipped, 1 failed) | puzzles 1,200 | 18 files/s | 600 puzzles/s | 2.0 s',
    );
  });

  it('writes plain lines (no carriage returns) when not on a terminal, each failure on its own line', () => {
    const written: string[] = [];
    const progress = new BatchProgress({ write: (t: string) => written.push(t), isTTY: false }, { plainEveryMs: 0 });
    progress.listed(2);
    progress.item({
      key: 'batch/a.txt',
      status: 'solved',
      eTag: 'e',
      outputKey: 'batch-solved/a.txt',
      reportKey: 'batch-reports/a.txt.json',
      puzzles: { rows: 3, solved: 3, failed: 0 },
      durationMs: 1,
    });
    progress.item({
      key: 'batch/b.txt.gz',
      status: 'failed',
      error: { code: 'Z_DATA_ERROR', message: 'incorrect header check' },
    });
    progress.finish();
    expect(written.join('')).not.toMatch(/\r|\x1b/);
    expect(written.every((t) => t.endsWith('\n'))).toBe(true);
    expect(written).toContain('failed: batch/b.txt.gz: Z_DATA_ERROR: incorrect header check\n');
    expect(written.at(-1)).toMatch(/^files 2\/2 listed \(1 solved, 1 failed\) \| puzzles 3 \|/);
  });

  it('redraws one line in place on a terminal, fitted to its width', () => {
    const written: string[] = [];
    const progress = new BatchProgress(
      { write: (t: string) => written.push(t), isTTY: true, columns: 40 },
      { ttyEveryMs: 0 },
    );
    progress.listed(1);
    progress.finish();
    expect(written[0]).toMatch(/^\r\x1b\[K.{1,39}$/);
    expect(written.at(-1)).toBe('\n');
  });
});
