// Entry of a solver thread (bundled as batch-worker.mjs next to each bundle's index.mjs): answers
// batches of rows, one message each, in the order they come. Pure Node: no AWS, no logger.
import { parentPort, workerData } from 'node:worker_threads';
import { answerBatch } from '../formats/index.js';
import type { RowBatch } from '../formats/index.js';
import type { WorkerData, WorkerReply } from './worker-pool.js';

const port = parentPort;
if (!port) throw new Error('batch-worker runs as a worker thread, started by the worker pool');
const replies = (workerData as WorkerData | null)?.replies ?? port;

port.on('message', (batch: RowBatch) => {
  let reply: WorkerReply;
  try {
    reply = { ok: true, answer: answerBatch(batch) };
  } catch (error) {
    // answerBatch never throws on any input; this is a bug, reported rather than crashing the thread.
    reply = { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  const text = reply.ok ? reply.answer.text : undefined;
  const whole = text && text.byteOffset === 0 && text.byteLength === text.buffer.byteLength;
  replies.postMessage(reply, whole ? [text.buffer as ArrayBuffer] : []);
});
