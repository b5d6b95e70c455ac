import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { MAP_STATE_NAMES, RUN_REPORTS_PREFIX } from '../../functions/contract/service-layout.js';
import type { RunMode } from '../../functions/contract/service-layout.js';
import type { ItemError, RunTotals } from '../../functions/batch/types.js';

/**
 * A local run writes its report in the format Step Functions' result writer gives a map run
 * (`run-reports/<id>/manifest.json`, `SUCCEEDED_n.json`, `FAILED_n.json`: one entry per child
 * execution, i.e. per invocation, with its input and output or error), so the same tools read
 * both; plus `summary.json`, the run's totals, which AWS has no counterpart for.
 */
export interface ChildExecution {
  ExecutionArn: string;
  Name: string;
  StateMachineArn: string;
  Status: 'SUCCEEDED' | 'FAILED';
  StartDate: string;
  StopDate: string;
  /** The invocation's event, as a JSON string. */
  Input: string;
  InputDetails: { Included: true };
  /** The function's result, as a JSON string (succeeded executions). */
  Output?: string;
  OutputDetails?: { Included: true };
  /** The error name and Lambda's `{errorType, errorMessage}` as a JSON string (failed executions). */
  Error?: string;
  Cause?: string;
  RedriveCount: number;
  RedriveStatus: 'NOT_REDRIVABLE';
  RedriveStatusReason: string;
}

export interface RunManifest {
  DestinationBucket: string;
  MapRunArn: string;
  ResultFiles: Record<'FAILED' | 'PENDING' | 'SUCCEEDED', { Key: string; Size: number }[]>;
}

const LOCAL_STATE_MACHINE = 'arn:aws:states:local:000000000000:stateMachine:sudoku-local-batch';

/** What a whole run did (`npm run batch`): its `summary.json`. */
export interface RunSummary extends RunTotals {
  runId: string;
  mode: RunMode;
  bucket: string;
  /** The key prefix listed. */
  prefix: string;
  /** Where the run report was written (`run-reports/<runId>/`), when it was. */
  reportPrefix?: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Objects listed (every status counts one). */
  listed: number;
  /** Groups of keys handed to one invocation each, by how the invocation ended. */
  /** Invocations (map items); `retried` counts the extra attempts of groups whose files partly failed. */
  invocations: { succeeded: number; failed: number; retried: number };
  /** Listed objects per second of the whole run, whatever their status. */
  filesPerSecond: number;
  /** Puzzles (rows) solved by this run per second. */
  puzzlesPerSecond: number;
  /** The failed files (the first ones, capped), with why. */
  failures: { key: string; error: ItemError }[];
}

/** Entries per result file: written as they fill, so a run's memory stays flat however many invocations it makes. */
export const ENTRIES_PER_RESULT_FILE = 1000;

/** A new run id that sorts by start time: `local-20261129T153000Z-1a2b3c`. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `local-${stamp}-${Math.random().toString(16).slice(2, 8)}`;
}

/** Collects the child executions of a local run and writes them under `run-reports/<runId>/`. */
export class RunReportWriter {
  readonly prefix: string;
  private readonly pending: Record<'SUCCEEDED' | 'FAILED', ChildExecution[]> = { SUCCEEDED: [], FAILED: [] };
  private readonly written: RunManifest['ResultFiles'] = { FAILED: [], PENDING: [], SUCCEEDED: [] };
  private readonly writes: Promise<void>[] = [];
  private executions = 0;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    readonly runId: string,
    private readonly mode: RunMode,
  ) {
    this.prefix = `${RUN_REPORTS_PREFIX}${runId}/`;
  }

  /** Records one invocation (its event, and its result or error). */
  add(execution: { input: unknown; output?: unknown; error?: Error; startDate: Date; stopDate: Date }): void {
    const name = `${this.runId}-${String(++this.executions).padStart(6, '0')}`;
    const status = execution.error ? 'FAILED' : 'SUCCEEDED';
    const entry: ChildExecution = {
      ExecutionArn: `${LOCAL_STATE_MACHINE.replace(':stateMachine:', ':execution:')}/${MAP_STATE_NAMES[this.mode]}:${name}`,
      Name: name,
      StateMachineArn: LOCAL_STATE_MACHINE,
      Status: status,
      StartDate: execution.startDate.toISOString(),
      StopDate: execution.stopDate.toISOString(),
      Input: JSON.stringify(execution.input),
      InputDetails: { Included: true },
      ...(execution.error
        ? {
            Error: execution.error.name,
            Cause: JSON.stringify({ errorType: execution.error.name, errorMessage: execution.error.message }),
          }
        : { Output: JSON.stringify(execution.output), OutputDetails: { Included: true } }),
      RedriveCount: 0,
      RedriveStatus: 'NOT_REDRIVABLE',
      RedriveStatusReason: 'A local run is not redrivable; run it again (solved files are skipped)',
    };
    const list = this.pending[status];
    list.push(entry);
    if (list.length >= ENTRIES_PER_RESULT_FILE) this.flush(status);
  }

  private flush(status: 'SUCCEEDED' | 'FAILED'): void {
    const entries = this.pending[status].splice(0);
    if (!entries.length) return;
    const key = `${this.prefix}${status}_${this.written[status].length}.json`;
    const body = JSON.stringify(entries);
    this.written[status].push({ Key: key, Size: Buffer.byteLength(body) });
    const write = this.put(key, body);
    // Awaited in finish(); marked handled now so a failure before then is not an unhandled rejection.
    write.catch(() => undefined);
    this.writes.push(write);
  }

  private async put(key: string, body: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: 'application/json' }),
    );
  }

  /** Writes what is left, then `manifest.json` and `summary.json`. */
  async finish(summary: RunSummary): Promise<void> {
    this.flush('SUCCEEDED');
    this.flush('FAILED');
    await Promise.all(this.writes);
    const manifest: RunManifest = {
      DestinationBucket: this.bucket,
      MapRunArn: `${LOCAL_STATE_MACHINE.replace(':stateMachine:', ':mapRun:')}/${MAP_STATE_NAMES[this.mode]}:${this.runId}`,
      ResultFiles: this.written,
    };
    await this.put(`${this.prefix}manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
    await this.put(`${this.prefix}summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
  }
}
