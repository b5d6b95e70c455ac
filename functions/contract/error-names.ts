/**
 * The names of the errors the state machines' Retry and Catch rules match (Step Functions matches
 * a Lambda error by its `errorType`, the thrown error's `name`). The classes that carry them take
 * their `name` from here, so a renamed class cannot leave a rule matching nothing: a rule that
 * matches no error retries what it should not, or retries what never recovers. Pure data: infra/
 * imports this file.
 */
export const ERROR_NAMES = {
  /** pipeline/time-limit.ts: a file or range needs more time than one invocation has. */
  timeLimit: 'TimeLimitError',
  /** pipeline/object-versions.ts: the source was replaced while a run solved it. */
  sourceChanged: 'SourceChangedError',
  /** batch/errors.ts: some files of a batch invocation's group failed. */
  batchItemsFailed: 'BatchItemsFailedError',
} as const;

export type ErrorName = (typeof ERROR_NAMES)[keyof typeof ERROR_NAMES];
