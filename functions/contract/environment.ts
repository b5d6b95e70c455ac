/**
 * Every environment variable the shipped code reads, and the one place it reads them: a module
 * under functions/ or cli/ asks `readEnv` instead of touching `process.env`, so the list below is
 * the whole of what a deployment can set (test/architecture.test.ts keeps it so, and checks each
 * name against the table in docs/infra.md, "Environment variables"). Defaults stay with the reader
 * that applies them; the table says what they are. infra/ imports the names (it sets most of
 * them), so this module imports nothing.
 */
export const ENV = {
  /** Powertools' service name on every log line and metric; the SudokuService sets it (SERVICE_NAME in the Sudoku stack). */
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  /** The CloudWatch namespace of the function's metrics; the stack sets it to METRICS_NAMESPACE. */
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
  /** The longest silence on an S3 connection, in ms (a test's or trial's override of S3_TIMEOUTS). */
  s3SocketTimeoutMs: 'S3_SOCKET_TIMEOUT_MS',
  /** The origins allowed to call the API, comma-separated; the stack sets it from `corsOrigins`. */
  corsOrigins: 'CORS_ALLOW_ORIGINS',
  /** On how many threads the files function solves a file; the stack sets it from the memory. */
  solverThreads: 'SOLVER_THREADS',
  /** The files function's own timeout in seconds, which a range plan is sized by (and the twin ends invocations at). */
  filesTimeoutSeconds: 'SUDOKU_FILES_TIMEOUT_SECONDS',
  /** The ARN of the large-file state machine the files function starts. */
  largeFileStateMachine: 'SUDOKU_LARGE_FILE_STATE_MACHINE',
  /** A fixed range size in bytes (tests and trials: any file over it is split). */
  rangeBytes: 'SUDOKU_RANGE_BYTES',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV];

/** Where variables are read from: the process's environment, or what a test hands a reader instead. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The variable `name`, as set (an empty string included), or undefined. */
export function readEnv(name: EnvName, env: Environment = process.env): string | undefined {
  return env[name];
}
