// The independent rules check is the benchmark's too (it verifies every answer it times).
export { isSolutionOf, isValidSolution } from '../../bench/sudoku-rules.js';
