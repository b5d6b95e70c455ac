import type { MapItemResult, MapItemStatus, FileCounts } from '../../functions/batch/types.js';

export interface ProgressState {
  listed: number;
  files: FileCounts;
  puzzles: number;
  elapsedMs: number;
}

const format = (n: number): string => n.toLocaleString('en-US');
const rate = (count: number, ms: number): string => (ms > 0 ? format(Math.round((count * 10_000) / ms) / 10) : '0');

/** One progress line: `files 37/50 listed (35 solved, 2 skipped) | puzzles 1,234 | 12.3 files/s | 456 puzzles/s | 3.2 s`. */
export function progressLine(state: ProgressState): string {
  const done = Object.values(state.files).reduce((a, b) => a + b, 0);
  const parts = (Object.entries(state.files) as [MapItemStatus, number][])
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${format(n)} ${status}`);
  return [
    `files ${format(done)}/${format(state.listed)} listed${parts.length ? ` (${parts.join(', ')})` : ''}`,
    `puzzles ${format(state.puzzles)}`,
    `${rate(done, state.elapsedMs)} files/s`,
    `${rate(state.puzzles, state.elapsedMs)} puzzles/s`,
    `${(state.elapsedMs / 1000).toFixed(1)} s`,
  ].join(' | ');
}

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Shows a run's progress. On a terminal one line is redrawn in place (at most every `ttyEveryMs`);
 * otherwise (a pipe, a CI log) a plain line is written at most every `plainEveryMs`, so a log
 * stays readable, and a last line when done.
 */
export class BatchProgress {
  private readonly state: ProgressState = {
    listed: 0,
    files: { solved: 0, rejected: 0, skipped: 0, ignored: 0, failed: 0 },
    puzzles: 0,
    elapsedMs: 0,
  };
  private readonly started = performance.now();
  private lastShown = -Infinity;
  private readonly everyMs: number;

  constructor(
    private readonly out: ProgressOutput,
    options: { ttyEveryMs?: number; plainEveryMs?: number } = {},
  ) {
    this.everyMs = out.isTTY ? (options.ttyEveryMs ?? 100) : (options.plainEveryMs ?? 2000);
  }

  listed(count: number): void {
    this.state.listed = count;
    this.maybeShow();
  }

  item(result: MapItemResult): void {
    this.state.files[result.status]++;
    if (result.status === 'solved') this.state.puzzles += result.puzzles.rows;
    // A failure is worth its own line at once, above the progress line.
    if (result.status === 'failed') this.print(`failed: ${result.key}: ${result.error.code}: ${result.error.message}`);
    this.maybeShow();
  }

  /** Writes a message on its own line without garbling the progress line. */
  print(message: string): void {
    this.out.write(this.out.isTTY ? `\r\x1b[K${message}\n` : `${message}\n`);
    if (this.out.isTTY) this.show();
  }

  /** The last progress line, then a newline on a terminal. */
  finish(): void {
    this.show();
    if (this.out.isTTY) this.out.write('\n');
  }

  private maybeShow(): void {
    if (performance.now() - this.lastShown >= this.everyMs) this.show();
  }

  private show(): void {
    this.lastShown = performance.now();
    this.state.elapsedMs = this.lastShown - this.started;
    const line = progressLine(this.state);
    // A line wider than the terminal would wrap, and \r would then redraw only its last part.
    const fitted = this.out.columns && line.length >= this.out.columns ? line.slice(0, this.out.columns - 1) : line;
    this.out.write(this.out.isTTY ? `\r\x1b[K${fitted}` : `${line}\n`);
  }
}
