// Pins the grades of a sample of the shared sets (level, score, hardest technique and the count
// per technique) as one checksum, computed before the logical solver was made faster: a change
// of representation or search order that changes any grade shows here. The sample spans every
// level (17-clue puzzles are mostly easy to expert, the SE 11+ list is expert or extreme).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gradePuzzle } from '../../functions/sudoku/logic/index.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';

const SAMPLE: [string, number, string][] = [
  ['puzzles2_17_clue', 400, 'adf503b0b497b6ea'],
  ['puzzles3_magictour_top1465', 100, '434aa959d77f73da'],
  ['puzzles5_forum_hardest_1905_11+', 60, 'd28e9926ec5ccfac'],
];

function digest(puzzles: string[]): string {
  const hash = createHash('sha256');
  for (const p of puzzles) {
    const r = gradePuzzle(p);
    if (!r.ok) throw new Error(`not a proper puzzle: ${p}`);
    hash.update(`${JSON.stringify(r.grade)} ${Array.from(r.solution).join('')}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

describe('grades of a shared-set sample', () => {
  it.each(SAMPLE)('%s, first %i: unchanged', (name, count, expected) => {
    expect(digest(readPuzzleSet(name).slice(0, count))).toBe(expected);
  });
});
