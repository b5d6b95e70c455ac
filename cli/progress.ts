// The one progress line `sudoku solve`, `grade` and `generate` draw on a terminal's stderr. The
// formatter is pure; the ticker reads the run's counters a few times a second through an injected
// clock, so the solving loop pays nothing per row (it only counts, as it already did) and the
// tests step time by hand.
import type { Writable } from 'node:stream';

/** Where a run stands, as the ticker samples it. */
export interface ProgressSample {
  /** Rows answered so far (blank lines excluded). */
  rows: number;
  /**
   * How much of the known whole is done, in any unit (bytes of the input file read, puzzles of
   * `generate --count`), with that whole; absent when the size is not known (standard input).
   */
  done?: number;
  total?: number;
}

/** What the line says: rows, their rate, and the share done and time left when the size is known. */
export interface ProgressFigures {
  rows: number;
  rowsPerSecond: number;
  /** 0..1, when the size is known. */
  fraction?: number;
  secondsLeft?: number;
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `h:mm:ss` or `m:ss`. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The progress line, e.g. `sudoku: 412,000 rows, 339,512 rows/s, 41%, 0:02 left`. */
export function formatProgress(figures: ProgressFigures): string {
  const parts = [`${grouped.format(figures.rows)} rows`, `${grouped.format(figures.rowsPerSecond)} rows/s`];
  if (figures.fraction !== undefined) parts.push(`${Math.floor(figures.fraction * 100)}%`);
  if (figures.secondsLeft !== undefined) parts.push(`${formatDuration(figures.secondsLeft)} left`);
  return `sudoku: ${parts.join(', ')}`;
}

/**
 * The figures of a sample taken `elapsedMs` after the start: the rate is the whole run's average
 * (steady at a few redraws a second), the time left the elapsed time scaled by what is not done.
 * Nothing is said of time left before any of it is done.
 */
export function progressFigures(sample: ProgressSample, elapsedMs: number): ProgressFigures {
  const seconds = elapsedMs / 1000;
  const figures: ProgressFigures = {
    rows: sample.rows,
    rowsPerSecond: seconds > 0 ? sample.rows / seconds : 0,
  };
  if (sample.total === undefined || sample.done === undefined || sample.total <= 0) return figures;
  const fraction = Math.min(1, Math.max(0, sample.done / sample.total));
  figures.fraction = fraction;
  if (fraction > 0) figures.secondsLeft = (seconds * (1 - fraction)) / fraction;
  return figures;
}

/** Time as the ticker sees it: real timers in the CLI, a hand-stepped one in tests. */
export interface ProgressClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** Wall time; the timer never keeps the process alive. */
export const SYSTEM_CLOCK: ProgressClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** Redraws a second: often enough to look alive, rare enough to cost nothing and not flicker. */
export const PROGRESS_INTERVAL_MS = 250;

/** Carriage return and erase to the end of the line: the line is redrawn in place. */
const REDRAW = '\r\u001b[K';

/**
 * Draws the progress line on `write` every `intervalMs` from `start()`, in place; `stop()` draws
 * it a last time and ends it with a newline. `clear()` wipes it before the run writes a message of
 * its own (a failed row), and the next tick draws it again below.
 */
export class ProgressTicker {
  private started = 0;
  private cancel: (() => void) | undefined;
  private drawn = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly sample: () => ProgressSample,
    private readonly clock: ProgressClock = SYSTEM_CLOCK,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  start(): void {
    this.started = this.clock.now();
    this.cancel = this.clock.every(this.intervalMs, () => this.draw());
  }

  /** The line as it stands now. */
  line(): string {
    return formatProgress(progressFigures(this.sample(), this.clock.now() - this.started));
  }

  private draw(): void {
    this.write(`${REDRAW}${this.line()}`);
    this.drawn = true;
  }

  clear(): void {
    if (!this.drawn) return;
    this.write(REDRAW);
    this.drawn = false;
  }

  /** Stops the ticks; the last state stays on the terminal, ended with a newline. */
  stop(): void {
    if (!this.cancel) return;
    this.cancel();
    this.cancel = undefined;
    this.draw();
    this.write('\n');
    this.drawn = false;
  }
}

/** Whether `stream` is a terminal: only then is the line drawn (a pipe or a file gets nothing). */
export function isTerminal(stream: Writable): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/**
 * The ticker for a run that writes to `stderr`, or undefined when stderr is not a terminal (a log
 * file, a pipe, CI): there, the run writes exactly what it did before.
 */
export function progressOn(
  stderr: Writable,
  sample: () => ProgressSample,
  clock?: ProgressClock,
): ProgressTicker | undefined {
  if (!isTerminal(stderr)) return undefined;
  return new ProgressTicker((text) => stderr.write(text), sample, clock);
}
