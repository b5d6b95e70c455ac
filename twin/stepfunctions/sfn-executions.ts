/**
 * The twin's record of its Step Functions executions, kept as AWS keeps them: a name stays taken
 * for SFN_EXECUTION_NAME_RETENTION_DAYS after its execution ends, whatever the status, and every
 * execution has a status DescribeExecution answers. With a data folder each record is also a file
 * there (written aside, then renamed over the old one, so a kill never leaves half a record), and
 * the twin started again on the same folder finds its executions, the running ones to resume.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  SFN_EXECUTION_NAME_RETENTION_DAYS,
  SFN_MAX_EXECUTION_NAME_CHARS,
} from '../../functions/contract/aws-quotas.js';

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

/** What the twin keeps of an execution (times in epoch milliseconds). */
export interface ExecutionRecord {
  name: string;
  executionArn: string;
  input: string;
  status: ExecutionStatus;
  startDate: number;
  stopDate?: number;
  error?: string;
  cause?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const RECORD_SUFFIX = '.json';

/**
 * Why AWS refuses a name, or undefined: 1-80 characters, none of whitespace, brackets, wildcards,
 * `"#%\^|~`$&,;:/` or control characters (StartExecution's `name`).
 */
export function invalidExecutionName(name: string): string | undefined {
  if (name.length < 1 || name.length > SFN_MAX_EXECUTION_NAME_CHARS)
    return `Invalid Name: '${name}' (a name has 1 to ${SFN_MAX_EXECUTION_NAME_CHARS} characters)`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: AWS refuses control characters in names.
  if (/[\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]/.test(name))
    return `Invalid Name: '${name}' (it holds a character execution names may not hold)`;
  return undefined;
}

export class ExecutionRecords {
  private readonly records = new Map<string, ExecutionRecord>();

  constructor(
    private readonly directory: string | undefined,
    private readonly now: () => number,
  ) {
    if (!directory) return;
    mkdirSync(directory, { recursive: true });
    for (const file of readdirSync(directory)) {
      if (!file.endsWith(RECORD_SUFFIX)) continue;
      try {
        const record = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as ExecutionRecord;
        this.records.set(record.name, record);
      } catch {
        // Only a record written aside and never renamed can be partial, and those end in .partial.
      }
    }
  }

  /** The execution of this name, unless it ended longer ago than AWS keeps names. */
  get(name: string): ExecutionRecord | undefined {
    const record = this.records.get(name);
    if (record?.stopDate !== undefined && this.now() - record.stopDate > SFN_EXECUTION_NAME_RETENTION_DAYS * DAY_MS) {
      this.records.delete(name);
      if (this.directory) rmSync(this.fileOf(name), { force: true });
      return undefined;
    }
    return record;
  }

  /** Executions still running (those a twin started again on the same folder resumes). */
  running(): ExecutionRecord[] {
    return [...this.records.values()].filter((record) => record.status === 'RUNNING');
  }

  put(record: ExecutionRecord): void {
    this.records.set(record.name, record);
    if (!this.directory) return;
    const file = this.fileOf(record.name);
    const aside = `${file}.${randomUUID()}.partial`;
    writeFileSync(aside, JSON.stringify(record));
    renameSync(aside, file);
  }

  private fileOf(name: string): string {
    return path.join(this.directory ?? '', `${name}${RECORD_SUFFIX}`);
  }

  /** Ends a running execution (once: a later end, e.g. the run's own after a stop, is ignored). */
  end(name: string, status: Exclude<ExecutionStatus, 'RUNNING'>, failure?: { error: string; cause: string }): boolean {
    const record = this.records.get(name);
    if (record?.status !== 'RUNNING') return false;
    this.put({ ...record, status, stopDate: this.now(), ...(failure ? failure : {}) });
    return true;
  }
}
