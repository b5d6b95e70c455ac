/**
 * Thrown for an event no kind recognises. Throwing (not returning) makes Lambda count the
 * invocation as failed, so asynchronous sources retry it and then send it to the dead-letter queue.
 */
export class UnrecognisedEventError extends Error {
  override readonly name = 'UnrecognisedEventError';
  constructor(readonly summary: string) {
    super(`The function does not handle this kind of event: ${summary}`);
  }
}
