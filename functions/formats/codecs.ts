import { createCsvCodec } from './csv-codec.js';
import { createJsonlCodec } from './jsonl-codec.js';
import type { LineCodec } from './line-codec.js';
import { createTxtCodec } from './txt-codec.js';
import { gradeRow } from './row-grade.js';
import type { FileFormat, FileKind } from './types.js';

/** The formats answered line by line (`.json` is one document, answered whole: json-document.ts). */
export type LineFormat = Exclude<FileFormat, 'json'>;

/**
 * What each format is: its codec (line formats) and the content type its output is written with.
 * The one table: the stream, the row batches and the pipeline all read it.
 */
const FORMATS: Readonly<Record<FileFormat, { contentType: string; codec?: (grade: boolean) => LineCodec }>> = {
  txt: {
    contentType: 'text/plain; charset=utf-8',
    codec: (grade) => createTxtCodec({ grade: grade ? gradeRow : undefined }),
  },
  csv: { contentType: 'text/csv; charset=utf-8', codec: createCsvCodec },
  jsonl: { contentType: 'application/x-ndjson', codec: createJsonlCodec },
  json: { contentType: 'application/json' },
};

/**
 * A fresh codec for one file of a line format (codecs are stateful: a CSV header, an open quote);
 * `grade` also grades each solved row (opt-in: it costs 8-12x the solving).
 */
export function codecFor(format: LineFormat, grade = false): LineCodec {
  return FORMATS[format].codec!(grade);
}

/** The content type an answer in this kind of file is written with (gzipped: `application/gzip`). */
export function contentTypeFor(kind: FileKind): string {
  return kind.gzip ? 'application/gzip' : FORMATS[kind.format].contentType;
}
