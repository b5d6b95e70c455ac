import { describe, expect, it } from 'vitest';
import { detectFileKind, FormatError } from '../../functions/formats/index.js';

describe('detectFileKind', () => {
  it.each([
    ['incoming/a.txt', 'txt', false],
    ['x/y/Puzzles.CSV', 'csv', false],
    ['b.jsonl', 'jsonl', false],
    ['c.json', 'json', false],
    ['d.txt.gz', 'txt', true],
    ['e.csv.GZ', 'csv', true],
    ['f.jsonl.gz', 'jsonl', true],
    ['g.json.gz', 'json', true],
  ])('reads %s as %s (gzip %s)', (name, format, gzip) => {
    expect(detectFileKind(name)).toEqual({ ok: true, kind: { format, gzip } });
  });

  it.each(['a.xlsx', 'noext', 'dir.txt/file', 'a.gz', 'a.tar.gz'])(
    'returns a typed UNKNOWN_EXTENSION error for %s',
    (name) => {
      const result = detectFileKind(name);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toBeInstanceOf(FormatError);
      expect(result.error.code).toBe('UNKNOWN_EXTENSION');
      expect(result.error.message).toContain(name);
      expect(result.error.message).toMatch(/\.txt, \.csv, \.jsonl or \.json/);
    },
  );
});
