import type { RunMode } from '../contract/service-layout.js';
import type { SkipReason } from '../pipeline/process-object.js';

export type { RunMode };

/**
 * One object as the Distributed Map's S3 item reader lists it (ListObjectsV2 fields, with Step
 * Functions' own spelling: `Etag`, quoted as S3 quotes it; `LastModified` in epoch seconds).
 * `Key` is the full key, not URL-encoded.
 */
export interface MapItem {
  Key: string;
  Etag?: string;
  Size?: number;
  LastModified?: number;
  StorageClass?: string;
}

/** The item batcher's `BatchInput`, the same for every invocation of a map run. */
export interface MapInput {
  bucket: string;
  mode: RunMode;
}

/** What the Distributed Map invokes the function with: 1 to `batchItemsPerInvocation` items. */
export interface MapEvent {
  Items: MapItem[];
  BatchInput: MapInput;
}

/** Why one file failed: an error value, not a thrown one, so the other files of the group go on. */
export interface ItemError {
  /** The error's code or name (`NoSuchBucket`, `Z_DATA_ERROR`, `UNKNOWN_EXTENSION`, ...). */
  code: string;
  message: string;
}

/** Puzzles of one file, from its report. */
export interface ItemPuzzles {
  rows: number;
  solved: number;
  failed: number;
}

/**
 * What happened to one listed object. `failed` is the only status that fails the invocation:
 * a retry may cure it. `rejected` files (not puzzle files) got a report saying why, and retrying
 * cannot help; `skipped` were already solved for their current ETag (or are gone); `ignored`
 * are folder markers or keys outside the mode's prefix.
 */
export type MapItemResult =
  | {
      key: string;
      status: 'solved';
      eTag: string;
      outputKey: string;
      reportKey: string;
      puzzles: ItemPuzzles;
      durationMs: number;
    }
  | { key: string; status: 'rejected'; eTag: string; reportKey: string; error: ItemError }
  | {
      key: string;
      status: 'skipped';
      reason: SkipReason;
      eTag?: string;
    }
  | { key: string; status: 'ignored'; reason: 'folder' | 'outside-prefix' }
  | { key: string; status: 'failed'; error: ItemError };

export type MapItemStatus = MapItemResult['status'];

/** Files per status. */
export type FileCounts = Record<MapItemStatus, number>;

/** Totals over a group of files, or over a whole run. */
export interface RunTotals {
  files: FileCounts;
  puzzles: ItemPuzzles;
}

/** The function's answer to one batch event: the child execution's output in `run-reports/`. */
export interface MapResult extends RunTotals {
  mode: RunMode;
  bucket: string;
  items: MapItemResult[];
  durationMs: number;
}
