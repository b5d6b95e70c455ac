/**
 * The base of the service's own errors. Each carries a `code` that says what went wrong (a
 * caller branches on it; logs and reports show it) and a class `name` (what Lambda reports as
 * the error type, and what a Step Functions Retry rule matches).
 */
export class ServiceError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
