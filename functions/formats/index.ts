/** Puzzle file formats as streaming readers/writers. Pure: no AWS; used by the S3 adapter, the batch and the CLI. */
export type * from './types.js';
export { FormatError, fileFault, isFormatError } from './errors.js';
export type { FormatErrorCode } from './errors.js';
export { detectFileKind, isFileFormat } from './file-kind.js';
export type { FileKindResult } from './file-kind.js';
export { FileTally, DEFAULT_FAILURE_CAP, emptyRowCounts } from './tally.js';
export type { FileTallyOptions } from './tally.js';
export { solvePuzzleStream } from './solve-stream.js';
export { codecFor, contentTypeFor } from './codecs.js';
export type { LineFormat } from './codecs.js';
export { createTxtCodec, MAX_PROBLEMS_PER_BOARD } from './txt-codec.js';
export type { TxtCodecOptions } from './txt-codec.js';
export type { SolvePuzzleStreamOptions, StreamStart } from './solve-stream.js';
export { MAX_JSON_CHARS } from './json-document.js';
export { describeProblem } from './row-json.js';
export { levelHistogram } from './row-grade.js';
export type { RowJson } from './row-json.js';
export { answerBatch } from './row-batch.js';
export { countLines } from './row-batches.js';
export type { BatchAnswer, BatchFormat, RowBatch } from './row-batch.js';
export {
  answerBatchInTurns,
  answerInThread,
  IN_THREAD_SOLVER,
  isBatchFormat,
  solveRowBatches,
} from './batched-solve.js';
export type { BatchSolver } from './batched-solve.js';
export { readCsvHeaderLines } from './csv-codec.js';
export { openLineRange } from './line-range.js';
export type { LineRangeCut, OpenedLineRange, RangeWindow } from './line-range.js';
export { decodeUtf8, splitLines } from './line-splitting.js';
