/** The typed client of the Sudoku API, as the package exports it (`sudoku-serverless/client`). */
export {
  type BatchOptions,
  type CallOptions,
  type RetryEvent,
  SudokuClient,
  type SudokuClientOptions,
} from './sudoku-client.js';
export {
  SudokuClientError,
  SudokuHttpError,
  SudokuNetworkError,
  SudokuProblemError,
  SudokuUsageError,
} from './errors.js';
export { type Clock, DEFAULT_MAX_RETRY_AFTER_SECONDS, DEFAULT_RETRY, type RetryPolicy } from './retry-policy.js';
export { API_REQUEST_LIMITS } from './request-cutting.js';
export type * from './api-types.js';
export type { components, operations, paths } from './openapi-types.js';
