// The logical solve the grade and the generator share: singles until stuck, then the easiest
// technique that removes anything, then singles again; a guess (the solution's digit in the
// cell with the fewest candidates) only when no technique applies. Tallies go into a reused
// Int32Array, so a solve that only needs singles allocates nothing.
import { ChangeLog, EVERYTHING } from './changes.js';
import { POPCOUNT } from './geometry.js';
import type { Grid } from './grid.js';
import { HIDDEN_SINGLE_BOX, HIDDEN_SINGLE_LINE, NAKED_SINGLE, settleSingles } from './singles.js';
import { type Level, LEVELS } from './names.js';
import { applyStep, type Step } from './step.js';
import { LEVEL_RANK, TECHNIQUE_INDEX, TECHNIQUES } from './techniques.js';

export interface RunResult {
  /** Uses per technique, indexed like TECHNIQUES. */
  counts: Int32Array;
  /** The hardest step's difficulty, and its technique's index. */
  score: number;
  hardest: number;
  /** The level of the hardest technique used; above `maxLevel` means the run stopped there. */
  level: Level;
  /**
   * The run gave up without a level: the grid broke (no candidate left in a cell) or a guess was
   * needed and `solution` had none to give, so the givens have no solution or more than one.
   */
  aborted: boolean;
}

/**
 * Where guesses come from: the solution, or a function that finds it the first time a guess is
 * needed or an expert technique is about to be tried (null when the givens do not have exactly
 * one solution). Lazily, because a grid the techniques finish needs no search: each technique
 * keeps every solution, so a full grid is the only one (docs/grading.md).
 */
export type SolutionSource = ArrayLike<number> | (() => ArrayLike<number> | null);

const singles = new Int32Array(3);
/** Per technique, the state (in `log`) at which it last found nothing, or -1. */
const failedAt = new Int32Array(TECHNIQUES.length);
const log = new ChangeLog();
const HIDDEN = TECHNIQUE_INDEX['hidden-single'];
const NAKED = TECHNIQUE_INDEX['naked-single'];
const GUESS = TECHNIQUE_INDEX.guess;
const EXPERT = LEVEL_RANK.expert;
const RANK_OF = Int8Array.from(TECHNIQUES, (t) => LEVEL_RANK[t.level]);

/**
 * Solve `g` logically in place. `source` supplies guesses. With `maxLevel`, stops as soon
 * as a technique above it would be needed (the generator's early reject); the result's level
 * then says so. `onStep` sees every non-single step (tests check each one).
 */
export function runLogic(
  g: Grid,
  source: SolutionSource,
  maxLevel: Level = 'extreme',
  onStep?: (step: Step) => void,
): RunResult {
  const counts = new Int32Array(TECHNIQUES.length);
  const cap = LEVEL_RANK[maxLevel];
  let score = 0;
  let hardest = -1;
  let rank = 0;
  let solution = typeof source === 'function' ? null : source;
  failedAt.fill(-1);
  log.reset();
  const credit = (index: number, value: number) => {
    if (value > score) {
      score = value;
      hardest = index;
    }
    const r = RANK_OF[index]!;
    if (r > rank) rank = r;
  };
  outer: for (;;) {
    singles.fill(0);
    if (!settleSingles(g, singles)) return { counts, score, hardest, level: 'extreme', aborted: true };
    counts[HIDDEN]! += singles[0]! + singles[1]!;
    counts[NAKED]! += singles[2]!;
    if (singles[0]) credit(HIDDEN, HIDDEN_SINGLE_BOX);
    if (singles[1]) credit(HIDDEN, HIDDEN_SINGLE_LINE);
    if (singles[2]) credit(NAKED, NAKED_SINGLE);
    if (g.empty === 0) break;
    log.nextStall();
    for (let i = 0; i < TECHNIQUES.length; i++) {
      const t = TECHNIQUES[i]!;
      if (!t.find) continue;
      if (LEVEL_RANK[t.level] > cap) break;
      // Before the costly techniques, a search (microseconds) settles whether there is one
      // solution: a board with several would otherwise grind through every chain search.
      if (!solution && LEVEL_RANK[t.level] >= EXPERT) {
        solution = (source as () => ArrayLike<number> | null)();
        if (!solution) return { counts, score, hardest, level: 'extreme', aborted: true };
      }
      const since = failedAt[i]!;
      const step = t.find(g, since < 0 ? EVERYTHING : log.since(g, since));
      if (!step) {
        failedAt[i] = log.record(g);
        continue;
      }
      failedAt[i] = -1;
      onStep?.(step);
      applyStep(g, step);
      counts[i]!++;
      credit(i, step.score);
      continue outer;
    }
    if (cap < LEVEL_RANK.extreme) {
      rank = cap + 1;
      break;
    }
    // The guess goes where a person would try one: the cell with the fewest candidates.
    let best = -1;
    for (let c = 0; c < 81; c++) {
      const m = g.cand[c]!;
      if (m && (best < 0 || POPCOUNT[m]! < POPCOUNT[g.cand[best]!]!)) best = c;
    }
    if (best < 0) break;
    solution ??= (source as () => ArrayLike<number> | null)();
    if (!solution) return { counts, score, hardest, level: 'extreme', aborted: true };
    g.place(best, solution[best]!);
    counts[GUESS]!++;
    credit(GUESS, TECHNIQUES[GUESS]!.score);
  }
  return { counts, score, hardest, level: LEVELS[rank]!, aborted: false };
}
