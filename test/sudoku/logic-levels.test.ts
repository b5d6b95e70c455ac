// The difficulty levels are one list (logic/names.ts): the type, the ranks the grader compares and
// the names a grade reports all derive from it, so a level added or reordered cannot reach one alone.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gradePuzzle, LEVELS, TECHNIQUES } from '../../functions/sudoku/logic/index.js';
import { TECHNIQUE_NAMES } from '../../functions/sudoku/logic/names.js';
import { LEVEL_RANK } from '../../functions/sudoku/logic/techniques.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('difficulty levels', () => {
  it('are written once in the shipped TypeScript: only logic/names.ts lists them', () => {
    const files = readdirSync(path.join(root, 'functions'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join('functions', f));
    const naming = files.filter((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      // A list or a rank table: the first level, then (after its rank, if any) the second.
      return /\beasy['"]?\s*[:,]\s*(\d+\s*,\s*)?['"]?medium\b/.test(text);
    });
    expect(naming).toEqual([path.join('functions', 'sudoku', 'logic', 'names.ts')]);
  });

  it("rank a level by its place in LEVELS, and a grade's level is its hardest technique's", () => {
    expect(LEVELS.map((level) => LEVEL_RANK[level])).toEqual(LEVELS.map((_, rank) => rank));
    const levelOf = Object.fromEntries(TECHNIQUES.map((t) => [t.name, t.level]));
    for (const puzzle of readPuzzleSet('puzzles2_17_clue').slice(0, 20)) {
      const r = gradePuzzle(puzzle);
      if (r.ok) expect(r.grade.level).toBe(r.grade.hardest === null ? LEVELS[0] : levelOf[r.grade.hardest]);
    }
  });

  it("the technique names names.ts lists for the HTTP function are the grade table's, in its order", () => {
    // /grade's and /hint's answers name techniques from TECHNIQUES; the OpenAPI document lists
    // TECHNIQUE_NAMES without loading the solver, so the two must be the same list.
    expect(TECHNIQUES.map((t) => t.name)).toEqual([...TECHNIQUE_NAMES]);
  });
});
