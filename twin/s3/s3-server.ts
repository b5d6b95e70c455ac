/**
 * A real S3-compatible HTTP server for `npm start` and the tests: s3rver in a child process (a
 * bundle of s3rver-process.ts, s3rver-bundle.ts) on 127.0.0.1:${S3_PORT:-4569} with the bucket ${BUCKET:-sudoku-local}, data under ${S3_DATA_DIR:-.local/s3},
 * access key S3RVER / secret S3RVER. Objects created under incoming/ are delivered as S3 events
 * shaped exactly as AWS sends them (URL-encoded keys, ObjectCreated:Put or
 * ObjectCreated:CompleteMultipartUpload, size, eTag, sequencer) to `onObjectCreated`. Every request
 * is decided by the policies the stack synthesizes (see iam/s3-authorization.ts): each caller signs
 * with its own key (iam/local-account.ts), and S3RVER is the account's admin.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Event } from 'aws-lambda';
import { prefixes } from '../../functions/contract/service-layout.js';
import { LOCAL_ACCESS_KEYS } from '../iam/local-account.js';
import type { AccessDenial } from '../iam/s3-authorization.js';
import { stackTemplateFile } from '../iam/stack-template.js';
import { s3Event } from './s3-event.js';
import { s3rverProcessBundle } from './s3rver-bundle.js';
import { S3RVER_ENV } from './s3rver-messages.js';
import type { S3rverMessage } from './s3rver-messages.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

export const DEFAULT_S3_PORT = 4569;
export const DEFAULT_BUCKET = 'sudoku-local';
export const DEFAULT_S3_DIRECTORY = path.join(repoRoot, '.local', 's3');
/** The admin's key, which the README's AWS CLI examples use. */
export const LOCAL_ACCESS_KEY = LOCAL_ACCESS_KEYS.admin;

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
  /**
   * Told when the s3rver process exits on its own; it is restarted on the same port and data.
   * By default the news goes to stderr: a dead S3 beside a live HTTP API must never go unnoticed.
   */
  onServerExit?: (exit: ServerExit) => void;
  /** Told when it cannot be restarted (or keeps dying); by default the error goes to stderr. */
  onServerLost?: (error: Error) => void;
  /** The synthesized template (a file) whose policies decide every request; by default the stack's, synthesized or cached. */
  policyTemplate?: string;
  /** Told of every request the policies refused (403); by default a line on stderr, as a reader of AWS's logs would see it. */
  onAccessDenied?: (denial: AccessDenial) => void;
}

/** How the s3rver process ended, and whether it is being restarted. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  restarting: boolean;
}

/** More exits than this within `RESTART_WINDOW_MS` is a crash loop: the server is given up on. */
export const MAX_RESTARTS = 5;
export const RESTART_WINDOW_MS = 60_000;

export interface LocalS3Server {
  /** e.g. http://127.0.0.1:4569 */
  endpoint: string;
  port: number;
  bucket: string;
  directory: string;
  /** The s3rver process now serving (it changes when a dead one is restarted). */
  readonly pid: number | undefined;
  /** Resolves once the server is serving again after a restart (at once if it never stopped). */
  serving(): Promise<void>;
  /** Resolves once every event delivered so far has been handled. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

export async function startS3Server(options: LocalS3ServerOptions = {}): Promise<LocalS3Server> {
  const address = options.address ?? '127.0.0.1';
  const bucket = options.bucket ?? process.env.BUCKET ?? DEFAULT_BUCKET;
  const directory = path.resolve(options.directory ?? process.env.S3_DATA_DIR ?? DEFAULT_S3_DIRECTORY);
  const requestedPort = options.port ?? Number(process.env.S3_PORT ?? DEFAULT_S3_PORT);
  const policyTemplate = options.policyTemplate ?? (await stackTemplateFile());

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

  const denied =
    options.onAccessDenied ??
    ((denial: AccessDenial) =>
      process.stderr.write(`local S3: ${denial.operation}: ${denial.code}: ${denial.message}\n`));
  const onMessage = (message: S3rverMessage): void => {
    if (message.type === 'access-denied') {
      const { type: _, ...denial } = message;
      denied(denial);
      return;
    }
    if (message.type !== 'object-created') return;
    // The bucket notification is filtered on incoming/, as in the stack.
    if (!message.key.startsWith(prefixes.incoming)) return;
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
  };

  /** Starts one s3rver process and resolves with it and its port once it serves. */
  const launch = async (port: number): Promise<{ child: ChildProcess; port: number }> => {
    const child = fork(await s3rverProcessBundle(), [], {
      cwd: repoRoot,
      // The legacy provider is for s3rver's DES continuation tokens.
      execArgv: ['--enable-source-maps', '--openssl-legacy-provider'],
      env: {
        ...process.env,
        [S3RVER_ENV.port]: String(port),
        [S3RVER_ENV.address]: address,
        [S3RVER_ENV.directory]: directory,
        [S3RVER_ENV.bucket]: bucket,
        [S3RVER_ENV.policyTemplate]: policyTemplate,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', onMessage);
    const boundPort = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code, signal) =>
        reject(new Error(`the local S3 server exited before it was ready (${signal ?? code})`)),
      );
      child.on('message', (message: S3rverMessage) => {
        if (message.type === 'ready') resolve(message.port);
        else if (message.type === 'failed')
          reject(new Error(`the local S3 server could not start on ${address}:${port}: ${message.message}`));
      });
    }).catch(async (error: unknown) => {
      child.kill();
      await exited(child);
      throw error;
    });
    return { child, port: boundPort };
  };

  let { child, port: boundPort } = await launch(requestedPort);
  let closing = false;
  let restarting: Promise<void> = Promise.resolve();
  const exits: number[] = [];
  const report =
    options.onServerExit ??
    ((exit: ServerExit) =>
      process.stderr.write(
        `local S3: the s3rver process (${address}:${boundPort}) ${describeExit(exit.code, exit.signal)}; ${exit.restarting ? 'restarting it' : 'not restarting it'}\n`,
      ));
  const lost =
    options.onServerLost ??
    ((error: Error) => process.stderr.write(`local S3: ${error.message}; S3 requests will fail\n`));

  // Watches the current process: if it dies on its own, says so and starts another on the same port and data.
  const supervise = (current: ChildProcess): void => {
    current.once('exit', (code, signal) => {
      if (closing) return;
      const now = Date.now();
      exits.push(now);
      while (exits.length && exits[0]! < now - RESTART_WINDOW_MS) exits.shift();
      const again = exits.length <= MAX_RESTARTS;
      report({ code, signal, restarting: again });
      if (!again) {
        lost(new Error(`the s3rver process exited ${exits.length} times within ${RESTART_WINDOW_MS / 1000} s`));
        return;
      }
      restarting = launch(boundPort).then(
        (started) => {
          child = started.child;
          if (closing) {
            child.kill();
            return;
          }
          supervise(child);
          if (!options.onServerExit) process.stderr.write(`local S3: s3rver restarted on ${address}:${boundPort}\n`);
        },
        (error: unknown) => lost(error instanceof Error ? error : new Error(String(error))),
      );
    });
  };
  supervise(child);

  return {
    endpoint: `http://${address}:${boundPort}`,
    port: boundPort,
    bucket,
    directory,
    get pid() {
      return child.pid;
    },
    serving: () => restarting,
    settled: async () => {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    close: async () => {
      closing = true;
      await restarting;
      if (child.connected) child.disconnect();
      child.kill();
      await exited(child);
    },
  };
}
