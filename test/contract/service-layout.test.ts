import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { S3_MAX_KEY_BYTES } from '../../functions/contract/aws-quotas.js';
import {
  acceptSourceKey,
  OUTPUT_PREFIXES,
  outputKeysFor,
  prefixes,
  RUN_REPORTS_PREFIX,
  type SourcePrefix,
} from '../../functions/contract/service-layout.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('outputKeysFor', () => {
  it('answers incoming/<path> at solved/<path> and reports/<path>.json', () => {
    expect(outputKeysFor('incoming/a/b c.txt', prefixes.incoming)).toEqual({
      outputKey: 'solved/a/b c.txt',
      reportKey: 'reports/a/b c.txt.json',
    });
    expect(outputKeysFor('solved/x.txt', prefixes.incoming)).toBeUndefined();
    expect(outputKeysFor('incoming/', prefixes.incoming)).toBeUndefined();
  });

  it('answers batch/<path> at batch-solved/<path> and batch-reports/<path>.json, never where incoming/<path> answers', () => {
    expect(outputKeysFor('batch/2026/x.csv', prefixes.batch)).toEqual({
      outputKey: 'batch-solved/2026/x.csv',
      reportKey: 'batch-reports/2026/x.csv.json',
    });
    expect(outputKeysFor('incoming/2026/x.csv', prefixes.incoming)).toEqual({
      outputKey: 'solved/2026/x.csv',
      reportKey: 'reports/2026/x.csv.json',
    });
  });

  it('answers incoming/runs/<path> under reports/, which no batch run writes (its results go to run-reports/)', () => {
    expect(outputKeysFor('incoming/runs/x.txt', prefixes.incoming)?.reportKey).toBe('reports/runs/x.txt.json');
    expect(RUN_REPORTS_PREFIX).toBe('run-reports/');
    expect(OUTPUT_PREFIXES.some((prefix) => RUN_REPORTS_PREFIX.startsWith(prefix))).toBe(false);
  });

  it('keeps a report key of exactly 1,024 bytes, and puts a longer one under long-keys/<sha256 of the source key>.json', () => {
    // incoming/ + path is 4 bytes shorter than reports/ + path + .json; é is 2 bytes in UTF-8.
    const fits = `incoming/${'é'.repeat(505)}x`;
    expect(bytes(outputKeysFor(fits, prefixes.incoming)!.reportKey)).toBe(S3_MAX_KEY_BYTES);
    const long = `incoming/${'é'.repeat(505)}xy`;
    const keys = outputKeysFor(long, prefixes.incoming)!;
    expect(keys.outputKey).toBe(`solved/${long.slice(prefixes.incoming.length)}`);
    expect(keys.reportKey).toBe(`long-keys/${sha256(long)}.json`);
  });

  it('puts a batch answer whose key would pass 1,024 bytes under long-keys/<sha256>.solved<ext>, keeping its extensions', () => {
    const long = `batch/${'a'.repeat(1010)}.txt.gz`;
    expect(bytes(long)).toBeLessThanOrEqual(S3_MAX_KEY_BYTES);
    expect(outputKeysFor(long, prefixes.batch)).toEqual({
      outputKey: `long-keys/${sha256(long)}.solved.txt.gz`,
      reportKey: `long-keys/${sha256(long)}.json`,
    });
  });

  it('reaches no long key report from an upload named like one: incoming/long-keys/<sha256> answers under reports/', () => {
    const long = `incoming/${'é'.repeat(505)}xy`;
    const hashed = outputKeysFor(long, prefixes.incoming)!.reportKey;
    const lookalike = `incoming/${hashed.slice(0, -'.json'.length)}`;
    expect(outputKeysFor(lookalike, prefixes.incoming)?.reportKey).toBe(
      `reports/${hashed.slice(0, -'.json'.length)}.json`,
    );
  });
});

/** Paths as uploads name them: short and long (up to S3's key limit), ASCII and multi-byte, with the service's own prefixes inside. */
const pathSegment = fc.oneof(
  fc.constantFrom('runs', 'long-keys', 'solved', 'reports', 'batch', 'incoming', 'batch-solved', 'x.txt', 'a.csv.gz'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('/')),
  fc.string({ unit: fc.constantFrom('a', 'é', '字', '.'), minLength: 200, maxLength: 520 }),
);
const sourceKey = fc
  .tuple(
    fc.constantFrom<SourcePrefix>(prefixes.incoming, prefixes.batch),
    fc.array(pathSegment, { minLength: 1, maxLength: 4 }),
  )
  .map(([prefix, segments]) => ({ prefix, key: `${prefix}${segments.join('/')}` }))
  .filter(({ key }) => bytes(key) <= S3_MAX_KEY_BYTES);

describe('the key mapping is injective', () => {
  it('no two distinct accepted source keys, from either trigger prefix, share an output or report key, and every key fits S3', () => {
    fc.assert(
      fc.property(sourceKey, sourceKey, (a, b) => {
        const ka = acceptSourceKey(a.key, a.prefix);
        const kb = acceptSourceKey(b.key, b.prefix);
        if (!ka.ok || !kb.ok) return;
        for (const key of [ka.outputKey, ka.reportKey, kb.outputKey, kb.reportKey]) {
          expect(bytes(key)).toBeLessThanOrEqual(S3_MAX_KEY_BYTES);
        }
        // An output and a report never meet, whatever their sources.
        expect(ka.outputKey).not.toBe(kb.reportKey);
        expect(kb.outputKey).not.toBe(ka.reportKey);
        expect(ka.outputKey).not.toBe(ka.reportKey);
        if (a.key === b.key) return;
        expect(ka.outputKey).not.toBe(kb.outputKey);
        expect(ka.reportKey).not.toBe(kb.reportKey);
      }),
      { numRuns: 2000 },
    );
  });

  it('every answer lands under its own source prefix kind, or under long-keys/ only when its own key would be too long', () => {
    fc.assert(
      fc.property(sourceKey, ({ key, prefix }) => {
        const keys = acceptSourceKey(key, prefix);
        if (!keys.ok) return;
        const path = key.slice(prefix.length);
        const own =
          prefix === prefixes.incoming
            ? [prefixes.solved, prefixes.reports]
            : [prefixes.batchSolved, prefixes.batchReports];
        const natural = [`${own[0]}${path}`, `${own[1]}${path}.json`];
        [keys.outputKey, keys.reportKey].forEach((answer, i) => {
          expect(answer.startsWith(RUN_REPORTS_PREFIX)).toBe(false);
          expect(answer.startsWith(prefixes.staging)).toBe(false);
          if (answer.startsWith(prefixes.longKeys)) {
            expect(bytes(natural[i]!)).toBeGreaterThan(S3_MAX_KEY_BYTES);
            expect(answer.slice(prefixes.longKeys.length, prefixes.longKeys.length + 64)).toBe(sha256(key));
          } else {
            expect(answer).toBe(natural[i]);
          }
        });
      }),
      { numRuns: 2000 },
    );
  });
});
