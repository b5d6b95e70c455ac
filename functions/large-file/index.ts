/**
 * The large-file state machine's steps (functions/contract/large-files.ts): a range solved, the
 * finish, the failure report. The state machine itself is infra's; locally twin/ runs it.
 */
export { isLargeFileEvent, largeFileEventKind } from './event-kind.js';
export { handleLargeFileEvent } from './handle-event.js';
export type { HandleLargeFileEventOptions } from './handle-event.js';
