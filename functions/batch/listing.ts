import { acceptSourceKey, RUN_MODE_PREFIX, type RunMode, type SourceKeyVerdict } from '../contract/service-layout.js';

/**
 * Where the answer and report of a listed key go: `batch/<path>` -> `solved/<path>` and
 * `reports/<path>.json`; in sweep mode `incoming/<path>` exactly as its S3 event would. The keys
 * a run accepts are those an S3 event would be (`acceptSourceKey`), under the mode's prefix.
 */
export function itemKeysFor(key: string, mode: RunMode): SourceKeyVerdict {
  return acceptSourceKey(key, RUN_MODE_PREFIX[mode]);
}
