import { FormatError } from './errors.js';
import type { FileFormat, FileKind } from './types.js';

const FORMATS: readonly FileFormat[] = ['txt', 'csv', 'jsonl', 'json'];

export type FileKindResult = { ok: true; kind: FileKind } | { ok: false; error: FormatError };

/** The format of a file from its name: `.txt`, `.csv`, `.jsonl`, `.json`, each optionally `.gz`. Case-insensitive. */
export function detectFileKind(name: string): FileKindResult {
  const lower = name.toLowerCase();
  const gzip = lower.endsWith('.gz');
  const base = gzip ? lower.slice(0, -3) : lower;
  const dot = base.lastIndexOf('.');
  const ext = dot >= 0 && !base.slice(dot).includes('/') ? base.slice(dot + 1) : '';
  const format = FORMATS.find((f) => f === ext);
  if (format) return { ok: true, kind: { format, gzip } };
  const shown = ext ? `'.${ext}${gzip ? '.gz' : ''}'` : 'no extension';
  return {
    ok: false,
    error: new FormatError(
      'UNKNOWN_EXTENSION',
      `Cannot tell the format of '${name}' (${shown}); name it .txt, .csv, .jsonl or .json, optionally followed by .gz.`,
    ),
  };
}

export function isFileFormat(value: string): value is FileFormat {
  return (FORMATS as readonly string[]).includes(value);
}
