// A test's title names the behaviour it proves: an issue number says where the work came from,
// which a reader of a failure cannot act on (the commit log keeps it).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const testDir = path.dirname(fileURLToPath(import.meta.url));

/** The titles given to describe/it/test (with .each, .skipIf(...), ...) in a test file's source. */
function titles(source: string): string[] {
  const call =
    /\b(?:describe|it|test)(?:\.\w+(?:\([^()]*(?:\([^()]*\))?[^()]*\))?)*\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g;
  return [...source.matchAll(call)].map((m) => m[2] as string);
}

describe('test titles', () => {
  it('find the titles of describe, it and test, also behind .each and .skipIf', () => {
    expect(titles("describe.skipIf(!x)('a b', () => {}); it.each([1])('c %s', () => {}); test(`d`, f)")).toEqual([
      'a b',
      'c %s',
      'd',
    ]);
  });

  it('name behaviours, never an issue number', () => {
    const naming: string[] = [];
    for (const file of readdirSync(testDir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.test.ts')) continue;
      for (const title of titles(readFileSync(path.join(testDir, file), 'utf8')))
        if (/\bissues? #?\d|#\d/i.test(title)) naming.push(`${file}: ${title}`);
    }
    expect(naming).toEqual([]);
  });
});
