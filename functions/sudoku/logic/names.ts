// The words the logical solver answers in: its difficulty levels and its techniques. Plain lists with
// no import, so what only names them (the OpenAPI document, a query's check, a report's level
// histogram) does not load the solver: the HTTP function's cold start reads this, not the rest.

/**
 * Every technique the logical solver knows, easiest first as the grade's table (techniques.ts) lists
 * them (test/sudoku/logic-levels.test.ts holds the two alike): the names a grade, a hint and the
 * OpenAPI document use.
 */
export const TECHNIQUE_NAMES = [
  'hidden-single',
  'naked-single',
  'pointing',
  'claiming',
  'naked-pair',
  'hidden-pair',
  'naked-triple',
  'hidden-triple',
  'x-wing',
  'swordfish',
  'xy-wing',
  'xyz-wing',
  'w-wing',
  'naked-quad',
  'jellyfish',
  'hidden-quad',
  'simple-coloring',
  'x-chain',
  'aic',
  'guess',
] as const;

export type TechniqueName = (typeof TECHNIQUE_NAMES)[number];

/** The difficulty levels, easiest first: a level's rank is its index here. */
export const LEVELS = ['easy', 'medium', 'hard', 'expert', 'extreme'] as const;

export type Level = (typeof LEVELS)[number];
