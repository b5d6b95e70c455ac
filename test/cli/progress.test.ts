// The progress line's formatter and ticker, on a hand-stepped clock: no wall time is waited for.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatProgress,
  type ProgressClock,
  type ProgressSample,
  ProgressTicker,
  progressFigures,
  progressOn,
} from '../../cli/progress.js';

/** A clock whose time moves only by `advance`, firing the ticks that fall due on the way. */
function steppedClock(): ProgressClock & { advance(ms: number): void; timers: number } {
  let now = 1_000;
  const timers = new Map<number, { every: number; next: number; tick: () => void }>();
  let ids = 0;
  return {
    now: () => now,
    every(ms, tick) {
      const id = ids++;
      timers.set(id, { every: ms, next: now + ms, tick });
      return () => timers.delete(id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.every;
        due.tick();
      }
      now = end;
    },
    get timers() {
      return timers.size;
    },
  };
}

describe('the progress line', () => {
  it('says rows, rate, share done and time left, numbers grouped by thousands', () => {
    expect(formatProgress({ rows: 412_000, rowsPerSecond: 339_512.4, fraction: 0.415, secondsLeft: 2.4 })).toBe(
      'sudoku: 412,000 rows, 339,512 rows/s, 41%, 0:02 left',
    );
  });

  it('says only rows and rate when the size is not known (standard input)', () => {
    expect(formatProgress({ rows: 5, rowsPerSecond: 2.5 })).toBe('sudoku: 5 rows, 3 rows/s');
  });

  it('writes time left as m:ss under an hour and h:mm:ss from an hour on', () => {
    expect(formatDuration(59.4)).toBe('0:59');
    expect(formatDuration(61)).toBe('1:01');
    expect(formatDuration(3 * 3600 + 5 * 60 + 7)).toBe('3:05:07');
    expect(formatDuration(-3)).toBe('0:00');
  });

  it('takes the rate over the whole run and the time left from the share done so far', () => {
    // 300,000 rows in 2 s, a quarter of the file read: 6 s to go at that pace.
    expect(progressFigures({ rows: 300_000, done: 25, total: 100 }, 2_000)).toEqual({
      rows: 300_000,
      rowsPerSecond: 150_000,
      fraction: 0.25,
      secondsLeft: 6,
    });
    expect(progressFigures({ rows: 0, done: 0, total: 100 }, 0)).toEqual({ rows: 0, rowsPerSecond: 0, fraction: 0 });
    expect(progressFigures({ rows: 10 }, 1_000)).toEqual({ rows: 10, rowsPerSecond: 10 });
  });
});

describe('the progress ticker', () => {
  it('redraws the line in place a few times a second, not per row, and ends it with a newline', () => {
    const clock = steppedClock();
    const written: string[] = [];
    let sample: ProgressSample = { rows: 0, done: 0, total: 1_000 };
    const ticker = new ProgressTicker(
      (text) => written.push(text),
      () => sample,
      clock,
      250,
    );
    ticker.start();
    clock.advance(100);
    expect(written).toEqual([]);
    sample = { rows: 250, done: 250, total: 1_000 };
    clock.advance(150);
    expect(written).toEqual(['\r\u001b[Ksudoku: 250 rows, 1,000 rows/s, 25%, 0:01 left']);
    sample = { rows: 1_000, done: 1_000, total: 1_000 };
    clock.advance(750);
    expect(written).toHaveLength(4);
    ticker.stop();
    expect(written.slice(-2)).toEqual(['\r\u001b[Ksudoku: 1,000 rows, 1,000 rows/s, 100%, 0:00 left', '\n']);
    expect(clock.timers).toBe(0);
    ticker.stop();
    expect(written).toHaveLength(6);
  });

  it('wipes the line before a message of the run, and draws it again at the next tick', () => {
    const clock = steppedClock();
    const written: string[] = [];
    const ticker = new ProgressTicker(
      (text) => written.push(text),
      () => ({ rows: 1 }),
      clock,
      250,
    );
    ticker.clear();
    expect(written).toEqual([]);
    ticker.start();
    clock.advance(250);
    ticker.clear();
    expect(written.at(-1)).toBe('\r\u001b[K');
    ticker.clear();
    expect(written).toHaveLength(2);
    clock.advance(250);
    expect(written.at(-1)).toMatch(/^\r\u001b\[Ksudoku: 1 rows/);
    ticker.stop();
  });

  it('is made only for a terminal: a pipe or a file gets no ticker at all', () => {
    const pipe = new PassThrough();
    expect(progressOn(pipe, () => ({ rows: 0 }))).toBeUndefined();
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    expect(progressOn(terminal, () => ({ rows: 0 }))).toBeInstanceOf(ProgressTicker);
  });
});
