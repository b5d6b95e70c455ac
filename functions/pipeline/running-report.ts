/**
 * Where a file solved in ranges stands while its ranges run, in the object its user already
 * watches: its report key holds a report with outcome `running` (ranges and rows done so far),
 * replaced by the final report at the end.
 *
 * Who writes it, and why it cannot overwrite a final report or go backwards:
 * - only range children write it, while the solve map runs; the finisher (or the fail step) writes
 *   the final report after the map ends, over whatever running report it finds (job-writes.ts);
 * - each range, once its answers and tally are staged, leaves a done marker whose name carries what
 *   it did (`done/<start>-<end>-<index>-<rows>`), then counts every marker with one LIST. Markers are
 *   never removed while the job runs and a retried range writes the same name again, so each count
 *   covers every range that finished before it: counts from the markers never double a retry and
 *   only grow. (Keeping the totals in the report itself, read-modify-write, would count a range
 *   twice when it is retried after its update landed, and conflict on every concurrent finish.)
 * - the report is written only over what may be replaced: nothing, the report the job started over
 *   (an older version's, or an earlier failed run's), or this job's own running report when this
 *   count is ahead of it (and an earlier attempt's of the same version), as its metadata says; each
 *   PUT conditional on the ETag just read (If-Match, or If-None-Match when there was none), so a
 *   final report landing between the HEAD and the PUT makes the PUT fail with 412, and a late
 *   range (a retry still running as the map ends) then sees the final report and leaves it.
 * - and only while the source is still the job's version: a superseded job's ranges must not write
 *   over the report the new version's run writes.
 *
 * Cost per range: one PUT (its marker) and one HEAD (the report), or the PUT alone when its execution
 * environment saw the report brought up to date less than the interval ago; then, at most every
 * RUNNING_REPORT_EVERY_MS (and by every range finishing while the report is older than that), one
 * LIST per 1,000 markers, a HEAD of the source and a PUT of the report. A 5-request update against
 * the range's own GET, multipart upload and tally; measured in test/pipeline/running-report.test.ts.
 * A redo range adds nothing (every range was counted by
 * then). Any error here is logged and never fails the range: progress is not worth a retry of the work.
 */
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { LargeFileJob } from '../contract/large-files.js';
import { REPORT_OUTCOME_METADATA, answerMetadata, SOURCE_ETAG_METADATA } from '../contract/service-layout.js';
import type { FileKind } from '../formats/index.js';
import { logger } from '../observability/powertools.js';
import {
  bareETag,
  checkSourceUnchanged,
  type Head,
  headOrUndefined,
  isNotFound,
  isPreconditionFailed,
  writeCondition,
} from './object-versions.js';
import type { S3RetrySettings } from './s3-retry.js';
import { listAll } from './staged-output.js';

/** `reports/<path>.json` while a file solved in ranges runs (docs/files.md, "While it runs"). */
export interface RunningReport {
  /** `size` as the final report says it (absent for a .gz, whose ranges read its inflated copy: `progress.bytes`). */
  source: { bucket: string; key: string; eTag: string; size?: number };
  outcome: 'running';
  output: { key: string; written: false };
  format: FileKind;
  /**
   * Ranges whose every line is solved and staged, of `ranges`; rows (blank lines excluded) and
   * bytes of the file they hold. The total of rows is known only at the end (the final report's
   * `counts.rows`); `bytes` is the whole file's (the inflated size of a .gz).
   */
  progress: { ranges: number; rangesDone: number; rowsDone: number; bytes: number; bytesDone: number };
  startedAt: string;
  updatedAt: string;
}

/** Metadata of a running report: which run wrote it and how far it had counted, so one HEAD compares. */
export const RUNNING_METADATA = {
  attempt: 'attempt',
  rangesDone: 'ranges-done',
  rowsDone: 'rows-done',
  /** ms since the epoch (a HEAD's Last-Modified has whole seconds only). */
  updatedAt: 'updated-at',
} as const;

/** A piece of a range that is done: the bytes it covered, its range, the rows it answered. */
export interface DonePiece {
  index: number;
  start: number;
  end: number;
  rows: number;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const markerPrefix = (job: LargeFileJob) => `${job.stagingPrefix}done/`;

/** The marker's key: its name is its content, so one LIST reads them all. */
export function doneMarkerKey(job: LargeFileJob, piece: DonePiece): string {
  return `${markerPrefix(job)}${pad(piece.start, 15)}-${pad(piece.end, 15)}-${pad(piece.index, 6)}-${piece.rows}`;
}

function parseMarker(key: string): DonePiece | undefined {
  const m = /(\d{15})-(\d{15})-(\d{6})-(\d+)$/.exec(key);
  return m ? { start: Number(m[1]), end: Number(m[2]), index: Number(m[3]), rows: Number(m[4]) } : undefined;
}

/**
 * The job's progress from its markers. One piece per start offset (a range solved again from the
 * same start writes the same bytes once); a range is done when a piece ends where the range does,
 * its pieces being solved one after the other.
 */
export function progressOf(job: LargeFileJob, pieces: readonly DonePiece[]): RunningReport['progress'] {
  const byStart = new Map<number, DonePiece>();
  for (const piece of pieces) byStart.set(piece.start, piece);
  const rangesDone = new Set<number>();
  let rowsDone = 0;
  let bytesDone = 0;
  for (const piece of byStart.values()) {
    rowsDone += piece.rows;
    bytesDone += piece.end - piece.start;
    if (piece.end === Math.min(job.size, (piece.index + 1) * job.rangeBytes)) rangesDone.add(piece.index);
  }
  return {
    ranges: job.ranges,
    rangesDone: rangesDone.size,
    rowsDone,
    bytes: job.size,
    bytesDone: Math.min(bytesDone, job.size),
  };
}

const MARKER_LIST_ONCE: S3RetrySettings = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

/**
 * Every marker of the job. One attempt, as any other call of the running report: it fails quietly
 * (the range goes on), and the next range's count covers what this one missed.
 */
async function listMarkers(client: S3Client, job: LargeFileJob): Promise<DonePiece[]> {
  const objects = await listAll(client, job.bucket, markerPrefix(job), MARKER_LIST_ONCE);
  return objects.map(({ key }) => parseMarker(key)).filter((piece): piece is DonePiece => piece !== undefined);
}

/**
 * Whether the report found at the key may be replaced (see the file's header): by `progress`, or,
 * without one, by some progress of this job (the check before counting the markers).
 */
export function mayReplace(job: LargeFileJob, found: Head, progress: RunningReport['progress'] | undefined): boolean {
  if (!found) return true;
  if (found.ETag !== undefined && found.ETag === job.reportETag) return true;
  if (!isRunningReportOf(found, job.eTag)) return false;
  const metadata = found.Metadata ?? {};
  const attempt = Number(metadata[RUNNING_METADATA.attempt] ?? 0);
  if (attempt !== (job.attempt ?? 1)) return attempt < (job.attempt ?? 1);
  if (!progress) return true;
  const ranges = Number(metadata[RUNNING_METADATA.rangesDone] ?? 0);
  const rows = Number(metadata[RUNNING_METADATA.rowsDone] ?? 0);
  return (
    progress.rangesDone >= ranges &&
    progress.rowsDone >= rows &&
    (progress.rangesDone > ranges || progress.rowsDone > rows)
  );
}

/** Conflicts one range rides out (a concurrent range's report landing between its HEAD and PUT). */
const CONFLICTS = 3;

/**
 * How often the running report is brought up to date, at most (give or take the ranges that finish
 * at once): a person watching needs no more, and a range that finds it fresher than this stops after
 * its marker and one HEAD, so a file of thousands of small ranges does not LIST its markers
 * thousands of times (a LIST per range made 2,000 ranges take minutes longer on the twin).
 */
export const RUNNING_REPORT_EVERY_MS = 5_000;

/** Whether `found` is a running report of the source's version `eTag` (any run's of it). */
export function isRunningReportOf(found: Head, eTag: string): boolean {
  const metadata = found?.Metadata ?? {};
  return metadata[REPORT_OUTCOME_METADATA] === 'running' && bareETag(metadata[SOURCE_ETAG_METADATA]) === eTag;
}

/** This job's own running report, and when it was written (ms since the epoch), if that is what `found` is. */
function ownRunningReport(job: LargeFileJob, found: Head): { updatedAt: number } | undefined {
  const metadata = found?.Metadata ?? {};
  if (!isRunningReportOf(found, job.eTag)) return undefined;
  if (Number(metadata[RUNNING_METADATA.attempt] ?? 0) !== (job.attempt ?? 1)) return undefined;
  return { updatedAt: Number(metadata[RUNNING_METADATA.updatedAt] ?? 0) };
}

/**
 * When this execution environment last saw each run's running report brought up to date (ms since
 * the epoch), by its own PUT or by a HEAD. A range that finds that under the interval ago skips its
 * HEAD too: any update since is fresher still. In a warm environment solving range after range of a
 * file, that leaves one request per range (its marker) between updates instead of two. Bounded: a
 * run's entry is worth nothing once its interval has passed.
 */
const seenUpdates = new Map<string, number>();
const SEEN_UPDATES_KEPT = 1_000;

const runOf = (job: LargeFileJob) => `${job.reportKey}\n${job.eTag}\n${job.attempt ?? 1}`;

function sawUpdate(job: LargeFileJob, updatedAt: number): void {
  const run = runOf(job);
  if (updatedAt <= (seenUpdates.get(run) ?? Number.NEGATIVE_INFINITY)) return;
  seenUpdates.delete(run);
  if (seenUpdates.size >= SEEN_UPDATES_KEPT) seenUpdates.delete(seenUpdates.keys().next().value!);
  seenUpdates.set(run, updatedAt);
}

/**
 * Called by a range once its piece is staged: leaves its done marker and, unless the running report
 * was brought up to date less than `everyMs` ago, brings it up to what every marker says, if that
 * is ahead of it. Returns the progress written, or undefined when nothing was (fresh enough,
 * already as far, or a final report is there). Never throws.
 */
export async function recordRangeProgress(
  client: S3Client,
  job: LargeFileJob,
  piece: DonePiece,
  everyMs = RUNNING_REPORT_EVERY_MS,
): Promise<RunningReport['progress'] | undefined> {
  try {
    await client.send(
      new PutObjectCommand({ Bucket: job.bucket, Key: doneMarkerKey(job, piece), Body: new Uint8Array(0) }),
    );
    const seen = seenUpdates.get(runOf(job));
    if (seen !== undefined && Date.now() - seen < everyMs) return undefined;
    let found = await headOrUndefined(client, job.bucket, job.reportKey);
    const own = ownRunningReport(job, found);
    if (own) sawUpdate(job, own.updatedAt);
    if (own && Date.now() - own.updatedAt < everyMs) return undefined;
    if (!mayReplace(job, found, undefined)) return undefined;
    const progress = progressOf(job, await listMarkers(client, job));
    await checkSourceUnchanged(client, job.bucket, job.sourceKey, job.eTag);
    for (let conflicts = 0; conflicts <= CONFLICTS; conflicts++) {
      if (!mayReplace(job, found, progress)) return undefined;
      try {
        const updatedAt = Date.now();
        await client.send(
          new PutObjectCommand({
            Bucket: job.bucket,
            Key: job.reportKey,
            Body: `${JSON.stringify(runningReport(job, progress, updatedAt), null, 2)}\n`,
            ContentType: 'application/json',
            Metadata: {
              ...answerMetadata(job.sourceKey, job.eTag),
              [REPORT_OUTCOME_METADATA]: 'running',
              [RUNNING_METADATA.attempt]: String(job.attempt ?? 1),
              [RUNNING_METADATA.rangesDone]: String(progress.rangesDone),
              [RUNNING_METADATA.rowsDone]: String(progress.rowsDone),
              [RUNNING_METADATA.updatedAt]: String(updatedAt),
            },
            ...writeCondition(found?.ETag),
          }),
        );
        sawUpdate(job, updatedAt);
        return progress;
      } catch (error) {
        if (!isPreconditionFailed(error)) throw error;
        found = await headOrUndefined(client, job.bucket, job.reportKey);
      }
    }
    return undefined;
  } catch (error) {
    logger.warn("Could not update the file's running report; its ranges go on", {
      sourceKey: job.sourceKey,
      reportKey: job.reportKey,
      range: piece.index,
      error: error as Error,
    });
    return undefined;
  }
}

function runningReport(job: LargeFileJob, progress: RunningReport['progress'], updatedAt: number): RunningReport {
  return {
    source: { bucket: job.bucket, key: job.sourceKey, eTag: job.eTag, ...(job.kind.gzip ? {} : { size: job.size }) },
    outcome: 'running',
    output: { key: job.outputKey, written: false },
    format: { format: job.kind.format, gzip: job.kind.gzip },
    progress,
    startedAt: job.startedAt,
    updatedAt: new Date(updatedAt).toISOString(),
  };
}

/**
 * A superseded job (its source replaced or removed) takes its own running report back, so the key
 * never says `running` for a version no run is solving: a delete conditional on the ETag read
 * (a final report, or a newer run's, landed meanwhile stays). The new version's run writes its
 * own report anyway; this matters when the source was removed. Never throws.
 */
export async function withdrawRunningReport(client: S3Client, job: LargeFileJob): Promise<void> {
  try {
    const found = await headOrUndefined(client, job.bucket, job.reportKey);
    if (!found?.ETag || !ownRunningReport(job, found)) return;
    await client.send(new DeleteObjectCommand({ Bucket: job.bucket, Key: job.reportKey, IfMatch: found.ETag }));
  } catch (error) {
    if (isPreconditionFailed(error) || isNotFound(error)) return;
    logger.warn('Could not remove the running report of a superseded job; the new version overwrites it', {
      reportKey: job.reportKey,
      error: error as Error,
    });
  }
}
