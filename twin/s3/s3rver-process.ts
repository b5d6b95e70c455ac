/**
 * The child process that runs s3rver (started by s3-server.ts, from the bundle s3rver-bundle.ts
 * builds of this file). A process of its own because
 * s3rver's paginated ListObjectsV2 needs Node's --openssl-legacy-provider (it encrypts
 * continuation tokens with DES), and so solving a big file never stalls the server it reads from.
 */
import { createRequire } from 'node:module';
import S3rver from 's3rver';
import { LOCAL_ACCESS_KEYS } from '../iam/local-account.js';
import { localPolicyModelFromFile } from '../iam/local-policies.js';
import { s3AuthorizationMiddleware } from '../iam/s3-authorization.js';
import { LongKeyStore } from './long-key-store.js';
import { s3ConsistencyMiddleware } from './s3-consistency.js';
import { S3RVER_ENV } from './s3rver-messages.js';
import type { S3rverMessage } from './s3rver-messages.js';

const send = (message: S3rverMessage): void => {
  process.send?.(message);
};

const directory = process.env[S3RVER_ENV.directory] ?? '.local/s3';
const bucket = process.env[S3RVER_ENV.bucket] ?? 'sudoku-local';
const policyTemplate = process.env[S3RVER_ENV.policyTemplate];
if (!policyTemplate)
  throw new Error(`${S3RVER_ENV.policyTemplate} is not set: the twin decides every request by the stack's policies`);
const server = new S3rver({
  address: process.env[S3RVER_ENV.address] ?? '127.0.0.1',
  port: Number(process.env[S3RVER_ENV.port] ?? 4569),
  directory,
  silent: true,
  // Path-style only (http://127.0.0.1:4569/bucket/key), as the clients are configured.
  vhostBuckets: false,
  configureBuckets: [{ name: bucket }],
});

// Keys up to S3's 1,024 bytes, whatever the length of their segments (see long-key-store.ts).
const store = new LongKeyStore(directory);
server.store = server.context.store = store;
// An object whose metadata an earlier process was killed writing never completed: it goes.
for (const key of await store.removeHalfWritten(bucket))
  process.stderr.write(`local S3: removed ${key}: its metadata was cut short by a process killed mid-write\n`);

// Every caller's key is known to s3rver (it checks only that a key exists), and every request is
// decided by the synthesized policies before s3rver's routes see it.
const account = (
  createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
  }
).DUMMY_ACCOUNT;
for (const key of Object.values(LOCAL_ACCESS_KEYS)) account.createKeyPair(key, key);
const authorize = s3AuthorizationMiddleware(localPolicyModelFromFile(policyTemplate, bucket), (denial) =>
  send({ type: 'access-denied', ...denial }),
);
// Koa composes its middleware when the server starts: these go just before s3rver's router, the
// authorization first, then what S3 answers and s3rver does not (s3-consistency.ts).
const stack = (server as unknown as { middleware: object[] }).middleware;
stack.splice(stack.length - 1, 0, authorize, s3ConsistencyMiddleware(store));
// s3rver's request log (koa-logger) formats two coloured lines per request even when `silent`
// drops them: the server is silent, so the formatting goes too.
const requestLog = stack.findIndex((middleware) => (middleware as { name?: string }).name === 'logger');
if (requestLog !== -1) stack.splice(requestLog, 1);

// Client disconnects mid-transfer are routine (and provoked by tests); they are not the server's failures.
server.on('error', () => undefined);

server.on('event', (event) => {
  for (const record of event.Records) {
    const [, kind] = record.eventName.split(':');
    if (!record.eventName.startsWith('ObjectCreated:')) continue;
    const { object, bucket } = record.s3;
    send({
      type: 'object-created',
      bucket: bucket.name,
      key: object.key,
      size: Number(object.size ?? 0),
      eTag: object.eTag ?? '',
      multipart: kind === 'Post',
      copy: kind === 'Copy',
    });
  }
});

// The parent went away: so does the server.
process.on('disconnect', () => process.exit(0));

try {
  const address = await server.run();
  send({ type: 'ready', port: address.port });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
