import type { BatchAnswer } from '../formats/index.js';

/** What a solver thread sends back for each batch it was handed, in the order it was handed them. */
export type WorkerReply = { ok: true; answer: BatchAnswer } | { ok: false; message: string };
