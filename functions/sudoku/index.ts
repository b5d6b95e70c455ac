/** The solver core: pure, synchronous, no I/O. Everything an adapter may use is exported here. */
export type * from './types.js';
export { PROBLEM_CLASS, PROBLEM_CODE, PROBLEM_CODES } from './types.js';
export { parseBoard, parseBoardString } from './parse.js';
export { formatBoard, formatBoardString } from './format.js';
export { findConflicts } from './validate.js';
export { MAX_LISTED_PROBLEMS } from './problems.js';
export { solveBoard, solveParsed } from './solve-board.js';
export { countSolutions, MAX_GUESSES, type SearchResult } from './wasm-search.js';
