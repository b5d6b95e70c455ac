/**
 * Solving by human techniques: grade a puzzle, hint the next step, generate puzzles at a level.
 * Pure like the rest of the core; the fast search (../solve-board.ts) decides uniqueness for all three.
 */
export type { Grade, GradeOutcome } from './grade.js';
export { gradeCells, gradePuzzle } from './grade.js';
export type { Hint, HintOutcome, HintRequest, HintStep, Placement } from './hint.js';
export { hint, nextSteps } from './hint.js';
export type { GenerateOptions, GenerateOutcome } from './generate.js';
export { generatePuzzle } from './generate.js';
export type { GenerateOption } from './generate-options.js';
export { GenerateOptionError } from './generate-options.js';
export type { Level, TechniqueName } from './names.js';
export { LEVELS, TECHNIQUE_NAMES } from './names.js';
export { TECHNIQUES } from './techniques.js';
