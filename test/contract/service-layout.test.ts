import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_KEY_BYTES, outputKeysFor, prefixes } from '../../functions/contract/service-layout.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('outputKeysFor', () => {
  it('answers <prefix><path> at solved/<path> and reports/<path>.json, from any trigger prefix', () => {
    expect(outputKeysFor('incoming/a/b c.txt', prefixes.incoming)).toEqual({
      outputKey: 'solved/a/b c.txt',
      reportKey: 'reports/a/b c.txt.json',
    });
    expect(outputKeysFor('batch/2026/x.csv', prefixes.batch)).toEqual({
      outputKey: 'solved/2026/x.csv',
      reportKey: 'reports/2026/x.csv.json',
    });
    expect(outputKeysFor('solved/x.txt', prefixes.incoming)).toBeUndefined();
    expect(outputKeysFor('incoming/', prefixes.incoming)).toBeUndefined();
  });

  it('keeps a report key of exactly 1,024 bytes, and puts a longer one under reports/long-keys/<sha256>.json', () => {
    // incoming/ + path is 4 bytes shorter than reports/ + path + .json; é is 2 bytes in UTF-8.
    const fits = `incoming/${'é'.repeat(505)}x`;
    expect(bytes(outputKeysFor(fits, prefixes.incoming)!.reportKey)).toBe(MAX_KEY_BYTES);
    const long = `incoming/${'é'.repeat(505)}xy`;
    const keys = outputKeysFor(long, prefixes.incoming)!;
    const path = long.slice(prefixes.incoming.length);
    expect(keys.outputKey).toBe(`solved/${path}`);
    expect(keys.reportKey).toBe(`reports/long-keys/${createHash('sha256').update(path).digest('hex')}.json`);
    expect(bytes(keys.reportKey)).toBeLessThanOrEqual(MAX_KEY_BYTES);
  });
});
