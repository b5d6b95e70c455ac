// The techniques beyond singles in the order the solver tries them: by level first, so a puzzle
// that medium techniques finish is never credited with a harder one that happened to be cheaper
// on Sudoku Explainer's scale (an X-wing rates 3.2, under a hidden pair's 3.4), then by that scale
// within a level. Singles are not here: they are always tried first (singles.ts).
import { findAIC, findXChain } from './chains.js';
import { findSimpleColoring } from './coloring.js';
import { findFish } from './fish.js';
import type { Grid } from './grid.js';
import { findClaiming, findPointing } from './locked.js';
import type { Level, Step, TechniqueName } from './step.js';
import { findHiddenSubset, findNakedSubset } from './subsets.js';
import { findWWing, findXYWing, findXYZWing } from './wings.js';

export interface Technique {
  name: TechniqueName;
  level: Level;
  /** Base difficulty (chains add for their length). */
  score: number;
  /** The first instance on the grid that removes something, or null; never changes the grid. */
  find: ((g: Grid) => Step | null) | null;
}

export const TECHNIQUES: readonly Technique[] = [
  { name: 'hidden-single', level: 'easy', score: 1.2, find: null },
  { name: 'naked-single', level: 'easy', score: 2.3, find: null },
  { name: 'pointing', level: 'medium', score: 2.6, find: findPointing },
  { name: 'claiming', level: 'medium', score: 2.8, find: findClaiming },
  { name: 'naked-pair', level: 'medium', score: 3.0, find: (g) => findNakedSubset(g, 2) },
  { name: 'hidden-pair', level: 'medium', score: 3.4, find: (g) => findHiddenSubset(g, 2) },
  { name: 'naked-triple', level: 'medium', score: 3.6, find: (g) => findNakedSubset(g, 3) },
  { name: 'hidden-triple', level: 'medium', score: 4.0, find: (g) => findHiddenSubset(g, 3) },
  { name: 'x-wing', level: 'hard', score: 3.2, find: (g) => findFish(g, 2) },
  { name: 'swordfish', level: 'hard', score: 3.8, find: (g) => findFish(g, 3) },
  { name: 'xy-wing', level: 'hard', score: 4.2, find: findXYWing },
  { name: 'xyz-wing', level: 'hard', score: 4.4, find: findXYZWing },
  { name: 'w-wing', level: 'hard', score: 4.4, find: findWWing },
  { name: 'naked-quad', level: 'hard', score: 5.0, find: (g) => findNakedSubset(g, 4) },
  { name: 'jellyfish', level: 'hard', score: 5.2, find: (g) => findFish(g, 4) },
  { name: 'hidden-quad', level: 'hard', score: 5.4, find: (g) => findHiddenSubset(g, 4) },
  { name: 'simple-coloring', level: 'expert', score: 6.5, find: findSimpleColoring },
  { name: 'x-chain', level: 'expert', score: 6.6, find: findXChain },
  { name: 'aic', level: 'expert', score: 7.0, find: findAIC },
  { name: 'guess', level: 'extreme', score: 10.0, find: null },
];

export const TECHNIQUE_INDEX: Readonly<Record<TechniqueName, number>> = Object.fromEntries(
  TECHNIQUES.map((t, i) => [t.name, i]),
) as Record<TechniqueName, number>;

export const LEVEL_RANK: Readonly<Record<Level, number>> = { easy: 0, medium: 1, hard: 2, expert: 3, extreme: 4 };
