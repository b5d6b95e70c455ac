import { Transform } from 'node:stream';
import { ERROR_NAMES } from '../contract/error-names.js';
import { ServiceError } from '../contract/service-error.js';

/**
 * What a run keeps for the end when it stops for time: the batches in flight to finish, the upload
 * to abort and the report to write. That takes well under a second (0.2-0.4 s against the local S3
 * on a loaded 2-core machine), so 10 s is ample in AWS; a short invocation keeps a quarter of it.
 */
export function timeMarginMs(timeLeftMs: number): number {
  return Math.min(10_000, timeLeftMs / 4);
}

/** Solving stopped for time: the file (or range) needs more than one invocation of this function can give. */
export class TimeLimitError extends ServiceError<'TIME_LIMIT'> {
  override readonly name = ERROR_NAMES.timeLimit;
  constructor(
    readonly rowsRead: number,
    readonly seconds: number,
    what = 'the file needs more than one invocation can give. Split it into smaller files, or give the files function ' +
      'more time (filesTimeoutSeconds, at most 900) or memory (vCPUs: filesMemoryMb), then upload it again.',
  ) {
    super(
      'TIME_LIMIT',
      `solving stopped after ${seconds.toFixed(1)} s and ${rowsRead} rows, before the function's timeout: ${what}`,
    );
  }
}

/** A stop timer: `stopped` rejects with its TimeLimitError when it fires (and never settles else). */
export interface TimeLimit {
  /**
   * Race the run against this: when it fires, the run ends at once, without waiting for work in
   * flight whose answers would be thrown away (worker threads' batches: one batch of the hardest
   * rows can take longer than the margin, and the invocation would die at its timeout instead).
   */
  readonly stopped: Promise<never>;
  cancel(): void;
}

/**
 * Fails `input` with TimeLimitError `timeMarginMs` before the invocation's time runs out, and
 * rejects `stopped` with it, so the run can abort its upload and say so while there is time.
 */
export function stopBeforeTimeout(
  timeLeftMs: (() => number) | undefined,
  input: { destroy(error: Error): void },
  rowsRead: () => number,
  what?: string,
): TimeLimit {
  let stop: (error: Error) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  // Nobody need listen: a run that ended on its own cancels the timer, and one that raced it has seen it.
  stopped.catch(() => undefined);
  const timeLeft = timeLeftMs?.();
  if (timeLeft === undefined) return { stopped, cancel: () => undefined };
  const started = performance.now();
  const timer = setTimeout(
    () => {
      const error = new TimeLimitError(rowsRead(), (performance.now() - started) / 1000, what);
      input.destroy(error);
      stop(error);
    },
    Math.max(0, timeLeft - timeMarginMs(timeLeft)),
  );
  timer.unref();
  return { stopped, cancel: () => clearTimeout(timer) };
}

/** A pass-through that tells how many bytes went by (a staged object's size, known before S3 is asked). */
export function byteCounter(count: (bytes: number, chunk: Buffer) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      count(chunk.length, chunk);
      done(null, chunk);
    },
  });
}
