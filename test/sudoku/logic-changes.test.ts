// A technique told what changed since it last found nothing (changes.ts) skips the rest of the
// board: it must find exactly what a full scan finds, at every stall of real solves. Checked by
// replaying the logical solve of shared-set puzzles and asking every technique both ways.
import { describe, expect, it } from 'vitest';
import { countSolutions } from '../../functions/sudoku/index.js';
import { ChangeLog, EVERYTHING } from '../../functions/sudoku/logic/changes.js';
import { Grid } from '../../functions/sudoku/logic/grid.js';
import { settleSingles } from '../../functions/sudoku/logic/singles.js';
import { applyStep } from '../../functions/sudoku/logic/step.js';
import { TECHNIQUES } from '../../functions/sudoku/logic/techniques.js';
import { readPuzzleSet } from '../helpers/puzzle-sets.js';
import { cellsOf } from '../helpers/boards.js';

/** Replays the solve of one puzzle; returns how many finds were compared and how many were skipped scans. */
function replay(puzzle: string): { compared: number; narrowed: number } {
  const givens = cellsOf(puzzle);
  const solution = new Uint8Array(81);
  countSolutions(givens, 1, solution);
  const g = new Grid();
  expect(g.load(givens)).toBe(true);
  const log = new ChangeLog();
  const failedAt = new Int32Array(TECHNIQUES.length).fill(-1);
  let compared = 0;
  let narrowed = 0;
  for (let stalls = 0; stalls < 500; stalls++) {
    expect(settleSingles(g, new Int32Array(3))).toBe(true);
    if (g.empty === 0) break;
    log.nextStall();
    let applied = false;
    for (let i = 0; i < TECHNIQUES.length && !applied; i++) {
      const find = TECHNIQUES[i]!.find;
      if (!find) continue;
      const full = find(g, EVERYTHING);
      if (failedAt[i]! >= 0) {
        const changes = log.since(g, failedAt[i]!);
        if (changes.units !== EVERYTHING.units || changes.digits !== EVERYTHING.digits) narrowed++;
        expect(find(g, changes), `${TECHNIQUES[i]!.name} at stall ${stalls} of ${puzzle}`).toEqual(full);
        compared++;
      }
      if (!full) {
        failedAt[i] = log.record(g);
        continue;
      }
      failedAt[i] = -1;
      applyStep(g, full);
      applied = true;
    }
    // No technique applies: place a digit of the solution (which cell does not matter here).
    if (!applied) {
      let best = -1;
      for (let c = 0; c < 81 && best < 0; c++) if (g.cand[c]) best = c;
      g.place(best, solution[best]!);
    }
  }
  expect(g.empty).toBe(0);
  return { compared, narrowed };
}

describe('techniques told what changed since they last found nothing', () => {
  it('find at every stall what a full scan finds (17-clue, top1465 and SE 11+ samples)', () => {
    let compared = 0;
    let narrowed = 0;
    for (const p of [
      ...readPuzzleSet('puzzles2_17_clue').slice(0, 120),
      ...readPuzzleSet('puzzles3_magictour_top1465').slice(0, 40),
      ...readPuzzleSet('puzzles5_forum_hardest_1905_11+').slice(0, 8),
    ]) {
      const r = replay(p);
      compared += r.compared;
      narrowed += r.narrowed;
    }
    // The comparison is only worth something if the narrowed scans happened often.
    expect(compared).toBeGreaterThan(1000);
    expect(narrowed).toBeGreaterThan(compared / 2);
  });
});
