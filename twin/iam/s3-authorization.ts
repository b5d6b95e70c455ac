/**
 * The twin's S3 authorization: a Koa middleware in front of s3rver's routes that decides every
 * request as S3 and IAM would, against the synthesized policies. The caller is known by its
 * access key; the request's IAM actions, resource ARNs and context keys come from `s3OperationOf`.
 * A denied request gets S3's own answer: 403 AccessDenied with the XML error S3 sends. A GET or
 * HEAD of a missing key answers 404 only to a caller allowed s3:ListBucket on the bucket, 403 to
 * anyone else, as S3 does (so existence cannot be probed).
 *
 * The twin's endpoint is plain HTTP on loopback standing in for S3's TLS endpoint, so requests
 * carry `aws:SecureTransport` true and TLS 1.3; the policies' refusal of plain HTTP is decided
 * in test/infra/authorization.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { Caller, DecisionDetail } from './decide.js';
import { Authorizer } from './decide.js';
import { callersByAccessKey } from './local-callers.js';
import type { PolicyModel } from './policy-model.js';
import { accessKeyOf, type S3HttpRequest, type S3Operation, s3OperationOf } from './s3-actions.js';

/** What the twin tells its parent about a refused request (and what tests assert on). */
export interface AccessDenial {
  operation: string;
  action: string;
  resource: string;
  principal: string;
  status: 403;
  code: 'AccessDenied' | 'InvalidAccessKeyId';
  message: string;
}

/** The part of a Koa context the middleware uses (s3rver is Koa). */
interface KoaContext {
  method: string;
  path: string;
  query: S3HttpRequest['query'];
  headers: S3HttpRequest['headers'];
  req: NodeJS.ReadableStream;
  status: number;
  body: unknown;
  set(name: string, value: string): void;
}

type S3ErrorClass = new (code: string, message: string, detail?: Record<string, string>) => Error;
const S3Error = createRequire(import.meta.url)('s3rver/lib/models/error.js') as S3ErrorClass;

/** S3's request context keys for a request signed with SigV4 in the Authorization header. */
const S3_REQUEST_CONTEXT = {
  's3:TlsVersion': '1.3',
  's3:signatureversion': 'AWS4-HMAC-SHA256',
  's3:authType': 'REST-HEADER',
};

function deniedMessage(principal: string, action: string, resource: string, decision: DecisionDetail): string {
  const who = principal === '*' ? 'Anonymous' : `User: ${principal}`;
  return `${who} is not authorized to perform: ${action} on resource: "${resource}" ${decision.reason ?? ''}`.trim();
}

async function readBody(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

export function s3AuthorizationMiddleware(model: PolicyModel, onDenied: (denial: AccessDenial) => void) {
  const authorizer = new Authorizer(model);
  const callers = callersByAccessKey(model);
  const requestId = (): string => randomBytes(8).toString('hex').toUpperCase();

  const deny = (
    operation: S3Operation,
    action: string,
    resource: string,
    principal: string,
    decision: DecisionDetail,
  ) => {
    const message = deniedMessage(principal, action, resource, decision);
    onDenied({
      operation: operation.operation,
      action,
      resource,
      principal,
      status: 403,
      code: 'AccessDenied',
      message,
    });
    return new S3Error('AccessDenied', message, { RequestId: requestId() });
  };

  return async function authorize(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
    const request: S3HttpRequest = { method: ctx.method, path: ctx.path, query: ctx.query, headers: ctx.headers };
    const accessKey = accessKeyOf(request);
    const caller: Caller | undefined = accessKey === undefined ? { anonymous: true } : callers.get(accessKey);
    if (!caller) {
      const message = 'The AWS Access Key Id you provided does not exist in our records.';
      onDenied({
        operation: ctx.method,
        action: '',
        resource: '',
        principal: accessKey ?? '',
        status: 403,
        code: 'InvalidAccessKeyId',
        message,
      });
      throw new S3Error('InvalidAccessKeyId', message, { AWSAccessKeyId: accessKey ?? '' });
    }
    let deletedKeys: string[] = [];
    if (ctx.method === 'POST' && ctx.query.delete !== undefined) {
      // DeleteObjects names its keys in the body: read it, decide each key, hand s3rver the same bytes.
      const body = await readBody(ctx.req);
      deletedKeys = [...body.toString('utf8').matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((m) => unescapeXml(m[1]!));
      ctx.req = Readable.from([body]);
    }
    const operation = s3OperationOf(request, deletedKeys);
    const principal = authorizer.principalOf(caller);
    for (const permission of operation.permissions) {
      const decision = await authorizer.decide({
        caller,
        action: permission.action,
        resource: permission.resource,
        context: { ...S3_REQUEST_CONTEXT, ...permission.context },
      });
      if (decision.decision !== 'Allowed')
        throw deny(operation, permission.action, permission.resource, principal, decision);
    }
    // A missing key's 404 (thrown as NoSuchKey, or set as the status of a HEAD) is for callers who may list the bucket.
    const readsObject = operation.operation === 'GetObject' || operation.operation === 'HeadObject';
    const mayKnowItIsMissing = async (): Promise<void> => {
      const bucketArn = `arn:aws:s3:::${operation.bucket}`;
      const list = await authorizer.decide({
        caller,
        action: 's3:ListBucket',
        resource: bucketArn,
        context: S3_REQUEST_CONTEXT,
      });
      if (list.decision !== 'Allowed') throw deny(operation, 's3:ListBucket', bucketArn, principal, list);
    };
    try {
      await next();
    } catch (error) {
      if (readsObject && (error as { status?: number }).status === 404) await mayKnowItIsMissing();
      throw error;
    }
    if (readsObject && ctx.status === 404) await mayKnowItIsMissing();
  };
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
