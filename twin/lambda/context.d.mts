import type { Context } from 'aws-lambda';

export interface LambdaContextFields {
  functionName: string;
  requestId: string;
  /** When the invocation is ended (ms since the epoch). */
  deadline: number;
  accountId: string;
  region: string;
  memoryMb: number;
  logStreamName: string;
}

export function newLogStreamName(): string;
export function lambdaContext(fields: LambdaContextFields): Context;
