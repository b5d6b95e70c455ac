import { addLevelCounts, countLevel, emptyLevelCounts } from './level-counts.js';
import type { RowResult } from './row-result.js';
import type { RowCounts, RowFailure } from './types.js';

/** Failed rows kept in memory for a report; beyond this only the count grows, so memory stays flat. */
export const DEFAULT_FAILURE_CAP = 100;

export interface FileTallyOptions {
  /** How many failed rows to keep for the report (the total is always counted). */
  failureCap?: number;
  /** Called for every failed row as it happens (the CLI prints them to stderr). */
  onFailure?: (failure: RowFailure) => void;
}

/** Counts of a file none of whose rows was answered. */
export function emptyRowCounts(): RowCounts {
  return { rows: 0, blank: 0, solved: 0, unique: 0, multiple: 0, noSolution: 0, contradictory: 0, malformed: 0 };
}

/** Counts the outcomes of a file's rows as they stream past. */
export class FileTally {
  readonly counts: RowCounts = emptyRowCounts();
  readonly failures: RowFailure[] = [];
  failuresTotal = 0;
  /** Graded rows per level (as LEVELS), when the rows are graded. */
  readonly levels = emptyLevelCounts();
  private readonly cap: number;
  private readonly onFailure: ((failure: RowFailure) => void) | undefined;

  constructor(options: FileTallyOptions = {}) {
    this.cap = options.failureCap ?? DEFAULT_FAILURE_CAP;
    this.onFailure = options.onFailure;
  }

  blank(): void {
    this.counts.blank++;
  }

  record(result: RowResult): void {
    const c = this.counts;
    c.rows++;
    switch (result.status) {
      case 'unique':
        c.solved++;
        c.unique++;
        if (result.grade) countLevel(this.levels, result.grade.level);
        return;
      case 'multiple':
        c.solved++;
        c.multiple++;
        return;
      case 'no-solution':
        c.noSolution++;
        break;
      case 'contradictory':
        c.contradictory++;
        break;
      case 'malformed':
        c.malformed++;
        break;
    }
    const failure: RowFailure = {
      status: result.status,
      problem: result.problems[0]!,
      more: result.problemsTotal - 1,
    };
    this.failuresTotal++;
    if (this.failures.length < this.cap) this.failures.push(failure);
    this.onFailure?.(failure);
  }

  /** Lines of batches read but not answered yet (merged later), counted in `rowsRead`. */
  private linesReadAhead = 0;

  /** Lines read ahead of their answers (negative once they are merged). */
  readAhead(lines: number): void {
    this.linesReadAhead += lines;
  }

  /** Rows read so far: those answered, and the lines of batches still being answered. */
  get rowsRead(): number {
    return this.counts.rows + this.linesReadAhead;
  }

  /**
   * Adds what a batch of rows counted on its own (in input order), as if each row had been recorded
   * here; `levels`, its graded rows per level, when the rows were graded.
   */
  merge(counts: Readonly<RowCounts>, failures: readonly RowFailure[], levels?: readonly number[]): void {
    if (levels) addLevelCounts(this.levels, levels);
    const c = this.counts;
    c.rows += counts.rows;
    c.blank += counts.blank;
    c.solved += counts.solved;
    c.unique += counts.unique;
    c.multiple += counts.multiple;
    c.noSolution += counts.noSolution;
    c.contradictory += counts.contradictory;
    c.malformed += counts.malformed;
    for (const failure of failures) {
      this.failuresTotal++;
      if (this.failures.length < this.cap) this.failures.push(failure);
      this.onFailure?.(failure);
    }
  }

  /** Rows that were not solved (blank lines are not rows). */
  get failed(): number {
    return this.counts.rows - this.counts.solved;
  }
}
