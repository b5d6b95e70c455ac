/**
 * A real S3-compatible HTTP server for `npm start` and the tests: s3rver in a child process on
 * 127.0.0.1:${S3_PORT:-4569} with the bucket ${BUCKET:-sudoku-local}, data under ${S3_DATA_DIR:-.local/s3},
 * access key S3RVER / secret S3RVER. Objects created under incoming/ are delivered as S3 events
 * shaped exactly as AWS sends them (URL-encoded keys, ObjectCreated:Put or
 * ObjectCreated:CompleteMultipartUpload, size, eTag, sequencer) to `onObjectCreated`.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Event } from 'aws-lambda';
import { prefixes } from '../contract/service-layout.js';
import { s3Event } from './s3-event.js';
import { S3RVER_ENV } from './s3rver-messages.js';
import type { S3rverMessage } from './s3rver-messages.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

export const DEFAULT_S3_PORT = 4569;
export const DEFAULT_BUCKET = 'sudoku-local';
export const DEFAULT_S3_DIRECTORY = path.join(repoRoot, '.local', 's3');
export const LOCAL_ACCESS_KEY = 'S3RVER';

export interface LocalS3ServerOptions {
  /** 0 picks a free port. */
  port?: number;
  address?: string;
  bucket?: string;
  directory?: string;
  /** Receives the S3 event for every object created under incoming/, as the bucket notification would. */
  onObjectCreated?: (event: S3Event) => unknown;
  /** Told when `onObjectCreated` fails; by default the error goes to stderr. */
  onDeliveryError?: (error: unknown, event: S3Event) => void;
}

export interface LocalS3Server {
  /** e.g. http://127.0.0.1:4569 */
  endpoint: string;
  port: number;
  bucket: string;
  directory: string;
  /** Resolves once every event delivered so far has been handled. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startS3Server(options: LocalS3ServerOptions = {}): Promise<LocalS3Server> {
  const address = options.address ?? '127.0.0.1';
  const bucket = options.bucket ?? process.env.BUCKET ?? DEFAULT_BUCKET;
  const directory = path.resolve(options.directory ?? process.env.S3_DATA_DIR ?? DEFAULT_S3_DIRECTORY);
  const port = options.port ?? Number(process.env.S3_PORT ?? DEFAULT_S3_PORT);

  const child = fork(path.join(here, 's3rver-process.ts'), [], {
    cwd: repoRoot,
    // tsx runs the TypeScript child; the legacy provider is for s3rver's DES continuation tokens.
    execArgv: ['--import', 'tsx', '--openssl-legacy-provider'],
    env: {
      ...process.env,
      [S3RVER_ENV.port]: String(port),
      [S3RVER_ENV.address]: address,
      [S3RVER_ENV.directory]: directory,
      [S3RVER_ENV.bucket]: bucket,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

  const pending = new Set<Promise<void>>();
  const deliver = (event: S3Event): void => {
    const handle = options.onObjectCreated;
    if (!handle) return;
    const delivery = (async () => {
      try {
        await handle(event);
      } catch (error) {
        if (options.onDeliveryError) options.onDeliveryError(error, event);
        else process.stderr.write(`S3 event handler failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      }
    })();
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
  };

  const boundPort = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`the local S3 server exited before it was ready (${signal ?? code})`)),
    );
    child.on('message', (message: S3rverMessage) => {
      switch (message.type) {
        case 'ready':
          resolve(message.port);
          break;
        case 'failed':
          reject(new Error(`the local S3 server could not start on ${address}:${port}: ${message.message}`));
          break;
        case 'object-created':
          // The bucket notification is filtered on incoming/, as in the stack.
          if (!message.key.startsWith(prefixes.incoming)) break;
          deliver(
            s3Event({
              bucket: message.bucket,
              key: message.key,
              size: message.size,
              eTag: message.eTag,
              eventName: message.copy
                ? 'ObjectCreated:Copy'
                : message.multipart
                  ? 'ObjectCreated:CompleteMultipartUpload'
                  : 'ObjectCreated:Put',
            }),
          );
          break;
      }
    });
  }).catch(async (error: unknown) => {
    child.kill();
    await exited(child);
    throw error;
  });

  return {
    endpoint: `http://${address}:${boundPort}`,
    port: boundPort,
    bucket,
    directory,
    settled: async () => {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    close: async () => {
      if (child.connected) child.disconnect();
      child.kill();
      await exited(child);
    },
  };
}
