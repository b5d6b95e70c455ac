// The techniques beyond singles in the order the solver tries them: by level first, so a puzzle
// that medium techniques finish is never credited with a harder one that happened to be cheaper
// on Sudoku Explainer's scale (an X-wing rates 3.2, under a hidden pair's 3.4), then by that scale
// within a level. Singles are not here: they are always tried first (singles.ts).
import type { Changes } from './changes.js';
import { findAIC, findXChain } from './chains.js';
import { findSimpleColoring } from './coloring.js';
import { findFish } from './fish.js';
import type { Grid } from './grid.js';
import { findClaiming, findPointing } from './locked.js';
import { type Level, LEVELS, type TechniqueName } from './names.js';
import type { Step } from './step.js';
import { findHiddenSubset, findNakedSubset } from './subsets.js';
import { findWWing, findXYWing, findXYZWing } from './wings.js';

export interface Technique {
  name: TechniqueName;
  level: Level;
  /** Base difficulty (chains add for their length). */
  score: number;
  /**
   * The first instance on the grid that removes something, or null; never changes the grid.
   * `changes` (default: everything) is what changed since it last found nothing on this grid
   * (changes.ts): it may skip what a change did not touch, and finds what a full scan finds.
   */
  find: ((g: Grid, changes?: Readonly<Changes>) => Step | null) | null;
}

export const TECHNIQUES: readonly Technique[] = [
  { name: 'hidden-single', level: 'easy', score: 1.2, find: null },
  { name: 'naked-single', level: 'easy', score: 2.3, find: null },
  { name: 'pointing', level: 'medium', score: 2.6, find: findPointing },
  { name: 'claiming', level: 'medium', score: 2.8, find: findClaiming },
  { name: 'naked-pair', level: 'medium', score: 3.0, find: (g, changes) => findNakedSubset(g, 2, changes) },
  { name: 'hidden-pair', level: 'medium', score: 3.4, find: (g, changes) => findHiddenSubset(g, 2, changes) },
  { name: 'naked-triple', level: 'medium', score: 3.6, find: (g, changes) => findNakedSubset(g, 3, changes) },
  { name: 'hidden-triple', level: 'medium', score: 4.0, find: (g, changes) => findHiddenSubset(g, 3, changes) },
  { name: 'x-wing', level: 'hard', score: 3.2, find: (g, changes) => findFish(g, 2, changes) },
  { name: 'swordfish', level: 'hard', score: 3.8, find: (g, changes) => findFish(g, 3, changes) },
  { name: 'xy-wing', level: 'hard', score: 4.2, find: findXYWing },
  { name: 'xyz-wing', level: 'hard', score: 4.4, find: findXYZWing },
  { name: 'w-wing', level: 'hard', score: 4.4, find: findWWing },
  { name: 'naked-quad', level: 'hard', score: 5.0, find: (g, changes) => findNakedSubset(g, 4, changes) },
  { name: 'jellyfish', level: 'hard', score: 5.2, find: (g, changes) => findFish(g, 4, changes) },
  { name: 'hidden-quad', level: 'hard', score: 5.4, find: (g, changes) => findHiddenSubset(g, 4, changes) },
  { name: 'simple-coloring', level: 'expert', score: 6.5, find: findSimpleColoring },
  { name: 'x-chain', level: 'expert', score: 6.6, find: findXChain },
  { name: 'aic', level: 'expert', score: 7.0, find: findAIC },
  { name: 'guess', level: 'extreme', score: 10.0, find: null },
];

export const TECHNIQUE_INDEX: Readonly<Record<TechniqueName, number>> = Object.fromEntries(
  TECHNIQUES.map((t, i) => [t.name, i]),
) as Record<TechniqueName, number>;

export const LEVEL_RANK: Readonly<Record<Level, number>> = Object.fromEntries(
  LEVELS.map((level, rank) => [level, rank]),
) as Record<Level, number>;
