import { PassThrough, Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { solvePuzzleStream } from '../../functions/formats/index.js';
import type { FileFormat, FileTally } from '../../functions/formats/index.js';

export interface FormatRun {
  text: string;
  tally: FileTally;
}

/** Splits `bytes` into chunks of `chunkSize` so tests cross every boundary a real stream has. */
export function chunked(bytes: Buffer, chunkSize: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return chunks;
}

/** Runs the streaming solver over `input` as `format` (optionally gzipped both ways) and returns the output text. */
export async function runFormat(
  format: FileFormat,
  input: string | Buffer,
  options: { gzip?: boolean; chunkSize?: number } = {},
): Promise<FormatRun> {
  let bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (options.gzip) bytes = gzipSync(bytes);
  const output = new PassThrough();
  const parts: Buffer[] = [];
  output.on('data', (chunk: Buffer) => parts.push(chunk));
  const tally = await solvePuzzleStream({
    input: Readable.from(chunked(bytes, options.chunkSize ?? 1 << 16)),
    output,
    format,
    gunzip: options.gzip ?? false,
    gzip: options.gzip ?? false,
  });
  const out = Buffer.concat(parts);
  return { text: (options.gzip ? gunzipSync(out) : out).toString('utf8'), tally };
}

/** Output lines, without the empty string after the final newline. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
