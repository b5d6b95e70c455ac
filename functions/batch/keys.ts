import { INCOMING_PREFIX } from '../s3/constants.js';
import { outputKeysFor } from '../s3/keys.js';
import type { OutputKeys } from '../s3/keys.js';
import { MODE_PREFIX } from './mode.js';
import type { BatchMode } from './types.js';

export type ItemKeys = ({ ok: true } & OutputKeys) | { ok: false; reason: 'folder' | 'outside-prefix' };

/**
 * Where the answer and report of a listed key go: `batch/<path>` -> `solved/<path>` and
 * `reports/<path>.json`; in sweep mode `incoming/<path>` exactly as its S3 event would. A key
 * outside the mode's prefix is never processed (outputs must never land where they are read
 * from); folder markers (`dir/`, zero bytes) are not files.
 */
export function itemKeysFor(key: string, mode: BatchMode): ItemKeys {
  const prefix = MODE_PREFIX[mode];
  if (!key.startsWith(prefix) || key.length === prefix.length) return { ok: false, reason: 'outside-prefix' };
  if (key.endsWith('/')) return { ok: false, reason: 'folder' };
  if (mode === 'sweep') {
    const keys = outputKeysFor(key);
    return keys ? { ok: true, ...keys } : { ok: false, reason: 'outside-prefix' };
  }
  // The same layout as the S3 pipeline's, from batch/ instead of incoming/.
  const asIncoming = outputKeysFor(INCOMING_PREFIX + key.slice(prefix.length));
  return asIncoming ? { ok: true, ...asIncoming } : { ok: false, reason: 'outside-prefix' };
}

/**
 * The key prefix a run lists: the mode's prefix, narrowed by `prefix` given either as a full key
 * prefix (`batch/2026-11-29/`) or as a path under the mode's prefix (`2026-11-29/`).
 */
export function listingPrefix(mode: BatchMode, prefix?: string): string {
  const base = MODE_PREFIX[mode];
  if (!prefix) return base;
  // Always inside the mode's prefix: a run can never list (and solve) its own outputs.
  return prefix.startsWith(base) ? prefix : base + prefix.replace(/^\/+/, '');
}
