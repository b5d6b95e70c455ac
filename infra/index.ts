// The construct library's public face, `sudoku-serverless/construct`: the service to put in a stack
// of one's own, and the types of its settings.
export { SudokuService, type SudokuServiceProps } from './sudoku-service.js';
export { type ApiAuth, defaults, type S3EventRoute, type Settings } from './settings.js';
