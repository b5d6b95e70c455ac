// gradePuzzle: the level is the hardest technique's level, the score the hardest step's, and a
// board that is not a proper puzzle gets the same problems as solving it.
import { describe, expect, it } from 'vitest';
import { solveBoard } from '../../functions/sudoku/index.js';
import { gradePuzzle, LEVELS, TECHNIQUES } from '../../functions/sudoku/logic/index.js';
import { DUPLICATE, EASY, EASY_SOLUTION, MULTIPLE, NO_SOLUTION_DEEP, toChars, toNumbers } from '../helpers/boards.js';
import { readPuzzleSet, readTdokuVectors } from '../helpers/puzzle-sets.js';

const levelOf = Object.fromEntries(TECHNIQUES.map((t) => [t.name, t.level]));

describe('gradePuzzle', () => {
  it('grades a singles-only puzzle easy, with the solution, in any board shape', () => {
    for (const board of [EASY, toChars(EASY), toNumbers(EASY)]) {
      const r = gradePuzzle(board);
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      expect(r.grade.level).toBe('easy');
      expect(['hidden-single', 'naked-single']).toContain(r.grade.hardest);
      expect(r.unique).toBe(true);
      expect([...r.solution].join('')).toBe(EASY_SOLUTION);
    }
  });

  it('grades a board given full as easy with score 0, no technique and no hardest one', () => {
    for (const board of [EASY_SOLUTION, toNumbers(EASY_SOLUTION)]) {
      const r = gradePuzzle(board);
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      expect(r.grade).toEqual({ level: 'easy', score: 0, hardest: null, techniques: {} });
      expect([...r.solution].join('')).toBe(EASY_SOLUTION);
    }
  });

  it.each([
    [MULTIPLE, 'MULTIPLE_SOLUTIONS'],
    [NO_SOLUTION_DEEP, 'NO_SOLUTION'],
    [DUPLICATE, 'DUPLICATE_IN_ROW'],
    ['12345', 'WRONG_LENGTH'],
  ])('reports a board that is not a proper puzzle with the problems solving reports (%#: %s)', (board, code) => {
    const r = gradePuzzle(board);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.code)).toContain(code);
  });

  it('level is the hardest level among the techniques used, score that of the hardest one', () => {
    for (const p of readPuzzleSet('puzzles2_17_clue').slice(0, 300)) {
      const r = gradePuzzle(p);
      if (!r.ok) throw new Error(p);
      const used = Object.keys(r.grade.techniques);
      const top = Math.max(...used.map((t) => LEVELS.indexOf(levelOf[t]!)));
      expect(r.grade.level).toBe(LEVELS[top]);
      expect(used).toContain(r.grade.hardest);
      expect(r.grade.score).toBeGreaterThanOrEqual(TECHNIQUES.find((t) => t.name === r.grade.hardest)!.score);
      // every empty cell is filled by a single or a guess
      const placed = (r.grade.techniques['hidden-single'] ?? 0) + (r.grade.techniques['naked-single'] ?? 0);
      expect(placed + (r.grade.techniques.guess ?? 0)).toBe(p.split('').filter((c) => c === '.').length);
    }
  });

  it('grades every puzzle of a sample of the SE 11+ list expert or extreme', () => {
    const set = readPuzzleSet('puzzles5_forum_hardest_1905_11+');
    const step = Math.floor(set.length / 40);
    for (let i = 0; i < set.length; i += step) {
      const r = gradePuzzle(set[i]!);
      if (!r.ok) throw new Error(set[i]);
      expect(['expert', 'extreme'], `line ${i}`).toContain(r.grade.level);
    }
  });

  // The grade skips the search when the techniques finish the grid (they keep every solution, so
  // a full grid is the only one): its answer must still be the search's, puzzle for puzzle.
  it('answers as the search does (solution, unique, or the same problems), on samples of every shared set', () => {
    const boards = [
      ...readPuzzleSet('puzzles2_17_clue').slice(0, 300),
      ...readPuzzleSet('puzzles3_magictour_top1465').slice(0, 100),
      ...readPuzzleSet('puzzles5_forum_hardest_1905_11+').slice(0, 30),
      // serg's benchmark is mostly boards with several solutions; tdoku's vectors have all three kinds
      ...readPuzzleSet('puzzles7_serg_benchmark').slice(0, 300),
      ...readTdokuVectors().map((v) => v.puzzle),
    ];
    for (const board of boards) {
      for (const shape of [board, toNumbers(board)]) {
        const graded = gradePuzzle(shape);
        const solved = solveBoard(board, { rejectMultiple: true });
        expect(graded.ok, board).toBe(solved.ok);
        if (graded.ok && solved.ok) {
          expect([...graded.solution].join('')).toBe([...solved.cells].join(''));
          expect(graded.unique).toBe(true);
        } else if (!graded.ok && !solved.ok) {
          expect(graded.problems, board).toEqual(solved.problems);
        }
      }
    }
  });
});
