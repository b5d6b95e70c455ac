// A file's failed rows are located by their line (by their index in a .json file), whatever the
// problem: the place a report reader or a program goes to, as HTTP answers give a pointer (issue 26).
import { describe, expect, it } from 'vitest';
import type { FileFormat } from '../../functions/formats/index.js';
import { DUPLICATE, EASY, NO_SOLUTION, toNumbers } from '../helpers/boards.js';
import { linesOf, runFormat } from './run-format.js';

/** Bad rows of every kind a board string can have, after one good row. */
const BAD_STRINGS = ['x', '12345678.........9', `${'.'.repeat(81)}x`, DUPLICATE, NO_SOLUTION];

/** Rows only JSON rows can have: the wrong type, the wrong shape, a line that is not JSON. */
const BAD_JSON_ROWS = ['42', JSON.stringify([[1, 2]]), '{'];

const files: Record<FileFormat, string> = {
  txt: [EASY, ...BAD_STRINGS].join('\n'),
  csv: ['id,puzzle', `1,${EASY}`, ...BAD_STRINGS.map((s, i) => `${i + 2},${s}`), '9'].join('\n'),
  jsonl: [JSON.stringify(EASY), ...BAD_STRINGS.map((s) => JSON.stringify(s)), ...BAD_JSON_ROWS].join('\n'),
  json: JSON.stringify([EASY, ...BAD_STRINGS, 42, [[1, 2]], toNumbers(EASY).slice(1)]),
};

describe('every failed row of a file has its place', () => {
  it.each(Object.keys(files) as FileFormat[])('%s: each failure names its line (index in .json)', async (format) => {
    const { text, tally } = await runFormat(format, files[format]);
    expect(tally.failures.length).toBe(tally.counts.rows - tally.counts.solved);
    expect(tally.failures.length).toBeGreaterThanOrEqual(BAD_STRINGS.length);
    const places = tally.failures.map((f) => (format === 'json' ? f.problem.index : f.problem.line));
    // After the good row (and the .csv header): index 1 of a .json array, line 2 or 3 otherwise.
    const first = { txt: 2, csv: 3, jsonl: 2, json: 1 }[format];
    expect(places).toEqual(places.map((_, i) => first + i));
    // The problems written into a .jsonl or .json output carry the same place.
    if (format === 'jsonl' || format === 'json') {
      const rows =
        format === 'jsonl'
          ? linesOf(text).map((line) => JSON.parse(line) as { problems?: { line?: number }[] })
          : (JSON.parse(text) as { problems?: { index?: number }[] }[]);
      const written = rows.flatMap((row, i) => (row.problems ?? []).map((p) => [i, p]));
      expect(written.length).toBeGreaterThanOrEqual(tally.failures.length);
      for (const [i, problem] of written)
        expect(problem).toMatchObject(format === 'json' ? { index: i } : { line: (i as number) + 1 });
    }
  });
});
