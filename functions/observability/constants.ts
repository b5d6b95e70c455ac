/** Used when POWERTOOLS_SERVICE_NAME is not set (locally, in tests); the stack sets it in AWS. */
export const DEFAULT_SERVICE_NAME = 'sudoku';

/** Used when POWERTOOLS_METRICS_NAMESPACE is not set. */
export const DEFAULT_METRICS_NAMESPACE = 'Sudoku';

/** Metric names, so dashboards and alarms in the stack can import the same strings. */
export const METRIC = {
  boardsSolved: 'BoardsSolved',
  boardsFailed: 'BoardsFailed',
  solveTime: 'SolveTime',
} as const;
