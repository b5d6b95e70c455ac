import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { ServiceError } from '../functions/contract/service-error.js';

/**
 * Where `-o OUT` is written, so that nothing the user owns is destroyed:
 *
 * - a regular file (existing or not) is written to a temporary file in the same folder and renamed
 *   over OUT only when the whole run succeeded (`commit`); on failure the temporary file is removed
 *   and an existing OUT is untouched (`discard`). A link to a regular file is followed: the file it
 *   names is replaced and the link stays a link;
 * - anything else (a pipe, a terminal, `/dev/stdout`, `/dev/full`, a socket) is written directly
 *   and never removed: it is not the CLI's to delete.
 */
export interface OutputTarget {
  stream: Writable;
  /** Whether the stream's file system object is replaced on commit (a regular file) or written in place. */
  atomic: boolean;
  /** Makes the output visible: flushes and renames the temporary file over the target. */
  commit(): Promise<void>;
  /** Drops the output: removes the temporary file; a direct output is left as it is. */
  discard(): Promise<void>;
}

/** Why the output cannot be opened, as the CLI reports it. */
export class OutputError extends ServiceError<'OUTPUT_IS_INPUT' | 'OUTPUT_IS_DIRECTORY' | 'OUTPUT_NOT_WRITABLE'> {
  override readonly name = 'OutputError';
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

async function statOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await stat(file);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The path the temporary file is renamed over: OUT itself, or the file a link at OUT names (so
 * the link is kept). A dangling link has no file to replace; undefined then (written directly).
 */
async function replacedPath(given: string): Promise<string | undefined> {
  const link = await lstat(given).catch(() => undefined);
  if (!link?.isSymbolicLink()) return path.resolve(given);
  return realpath(given).catch(() => undefined);
}

/** `/dev/...` and `/proc/...` name streams and devices even when they resolve to a file (`/dev/stdout` > out.txt). */
function isSpecialName(file: string): boolean {
  return /^\/(dev|proc)\//.test(path.resolve(file));
}

/** Same file by identity (device and inode, links followed), never by the path's spelling. */
export function isSameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

const removeOnExit = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const onSignal = (signal: NodeJS.Signals): void => {
  for (const file of removeOnExit) {
    try {
      unlinkSync(file);
    } catch {}
  }
  process.exit(128 + (constants.signals[signal] ?? 0));
};

/** A temporary file interrupted by Ctrl-C is removed too, not left beside the output. */
function removeIfInterrupted(file: string): () => void {
  if (removeOnExit.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  removeOnExit.add(file);
  return () => {
    removeOnExit.delete(file);
    if (removeOnExit.size === 0) for (const s of SIGNALS) process.off(s, onSignal);
  };
}

/**
 * Opens `given` for writing as described on `OutputTarget`. `input` is the input file's identity
 * (undefined for standard input): an output that is the same regular file is refused.
 */
export async function openOutput(given: string, input: Stats | undefined): Promise<OutputTarget> {
  const target = await replacedPath(given);
  const existing = target === undefined ? undefined : await statOrUndefined(target);
  if (existing?.isDirectory()) throw new OutputError('OUTPUT_IS_DIRECTORY', `the output '${given}' is a directory`);
  if (input?.isFile() && existing?.isFile() && isSameFile(input, existing)) {
    throw new OutputError(
      'OUTPUT_IS_INPUT',
      `the output '${given}' is the input file (the same file through a link or another name); writing it would destroy the puzzles`,
    );
  }

  if (target === undefined || isSpecialName(given) || (existing && !existing.isFile())) {
    let handle: FileHandle;
    try {
      handle = await open(given, 'w');
    } catch (error) {
      throw new OutputError('OUTPUT_NOT_WRITABLE', `cannot write '${given}': ${errnoOf(error) ?? String(error)}`);
    }
    const stream = handle.createWriteStream({ highWaterMark: 1 << 16 });
    return {
      stream,
      atomic: false,
      commit: async () => undefined,
      discard: async () => {
        stream.destroy();
      },
    };
  }

  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.sudoku-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  // Armed before the file exists: a signal between its creation and the open's callback would
  // otherwise end the process the default way and leave the file behind: a Ctrl-C sent as soon
  // as the file appeared did so in 166 of 200 runs.
  const forget = removeIfInterrupted(temporary);
  let handle: FileHandle;
  try {
    // The replaced file keeps its permissions; a new one gets the usual 0666 less the umask.
    handle = await open(temporary, 'wx', existing ? existing.mode & 0o7777 : 0o666);
  } catch (error) {
    forget();
    throw new OutputError('OUTPUT_NOT_WRITABLE', `cannot write '${given}': ${errnoOf(error) ?? String(error)}`);
  }
  if (existing) await handle.chmod(existing.mode & 0o7777).catch(() => undefined);
  const stream = handle.createWriteStream({ highWaterMark: 1 << 16 });
  const closeQuietly = () => handle.close().catch(() => undefined);
  return {
    stream,
    atomic: true,
    commit: async () => {
      try {
        // On disk before the rename, so a crash right after cannot leave an empty OUT in place of
        // the old one. The stream has closed its descriptor; fsync works on any descriptor of the file.
        const flush = await open(temporary, 'r');
        try {
          await flush.sync();
        } finally {
          await flush.close();
        }
        await rename(temporary, target);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw new OutputError('OUTPUT_NOT_WRITABLE', `cannot write '${given}': ${errnoOf(error) ?? String(error)}`);
      } finally {
        forget();
      }
    },
    discard: async () => {
      stream.destroy();
      await closeQuietly();
      await unlink(temporary).catch(() => undefined);
      forget();
    },
  };
}
