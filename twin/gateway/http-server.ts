import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Context } from 'aws-lambda';
import { type GatewayAuthorization, refusedUnsigned } from './gateway-authorization.js';
import { buildHttpApiEvent, gatewayRequestId } from './http-api-event.js';
import { LAMBDA_MAX_SYNC_RESULT_BYTES } from '../../functions/contract/aws-quotas.js';
import { FUNCTION_TIMEOUT_DEFAULTS } from '../../functions/contract/service-layout.js';
import { createLambdaContext } from '../lambda/lambda-context.js';
import { throttledInvocation } from '../lambda/runtime.js';
import {
  ExecutionPool,
  type GatewayLimits,
  type Invoker,
  requestLineAndHeaderBytes,
  StageThrottle,
} from './gateway-limits.js';
import {
  GATEWAY_ANSWERS,
  GATEWAY_MAX_BODY_BYTES,
  GATEWAY_MAX_REQUEST_LINE_AND_HEADER_BYTES,
  type GatewayAnswerName,
} from '../../functions/http/gateway-answers.js';

export type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface HttpServerOptions {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
  /**
   * The API function: a handler run in this process, or an Invoker that runs it elsewhere (worker
   * threads: twin/lambda/handler-threads.ts), so this thread stays free to take requests.
   */
  handler: LambdaHandler | Invoker;
  /** Called with what went wrong when the handler throws (API Gateway answers 500 then). */
  onHandlerError?: (error: unknown) => void;
  /**
   * The stage's route throttles and the API function's pool (`npm start` passes the stack's:
   * twin/stack-limits.ts); without them every request reaches the handler.
   */
  limits?: GatewayLimits;
  /**
   * Each route's authorization as the stack declares it (twin/gateway/gateway-authorization.ts):
   * an unsigned request to an AWS_IAM route is answered 403. Without it every route is open, as in
   * the stack's default `apiAuth=none`.
   */
  authorization?: GatewayAuthorization;
}

/** What the gateway and the pool did since the server started. */
export interface GatewayStats {
  /** Requests answered 429 by a route's token bucket. */
  throttled: number;
  /** Invocations refused because the API function's pool was full (answered 500). */
  poolFull: number;
  /** Most executions of the API function in flight at once (see ExecutionPool). */
  peakExecutions: number;
  /** Seconds from the first request's arrival to the last's. */
  arrivalSeconds: number;
}

export interface RunningHttpServer {
  /** e.g. `http://127.0.0.1:3000` (no trailing slash). */
  url: string;
  close(): Promise<void>;
  stats(): GatewayStats;
}

/**
 * Lambda fails a synchronous invocation whose result, serialized as JSON, is over 6 MB: exactly
 * this many bytes (the number in its Function.ResponseSizeTooLarge error). API Gateway then
 * answers the client 500 `{"message":"Internal Server Error"}`, as for any failed invocation.
 */
export const LAMBDA_MAX_RESULT_BYTES = LAMBDA_MAX_SYNC_RESULT_BYTES;

/**
 * Node reads this much of a request's head before it gives up (its own default is 16 KiB). It is
 * far above API Gateway's quota, which the server applies itself as AWS counts it (request line and
 * header values, not names): a request AWS would take always gets that far.
 */
const NODE_MAX_HEADER_BYTES = 64 * 1024;

/**
 * A local stand-in for API Gateway HTTP API: each request becomes a payload 2.0 event for the
 * handler, and the handler's result becomes the response, with the gateway's own answers for
 * what never reaches Lambda (oversized headers or body, throttle, handler crash). Every answer,
 * the gateway's and the function's, carries the request's `apigw-requestid`, as AWS's do.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const gate: Gate = {
    throttle: options.limits ? new StageThrottle(options.limits.routeThrottles) : undefined,
    pool: new ExecutionPool(options.limits?.reservedConcurrency ?? 0),
    throttled: 0,
    firstAt: undefined,
    lastAt: 0,
    invoker: typeof options.handler === 'function' ? inProcess(options.handler) : options.handler,
  };
  const server = createServer({ maxHeaderSize: NODE_MAX_HEADER_BYTES }, (req, res) => {
    serve(req, res, options, gate).catch((error: unknown) => {
      options.onHandlerError?.(error);
      if (!res.headersSent) sendGatewayError(res, 'functionFailed');
      else res.destroy();
    });
  });
  // HTTP that is not one readable request never reaches the function: the gateway answers it.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerMalformed(error, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    stats: () => ({
      throttled: gate.throttled,
      poolFull: gate.pool.throttled,
      peakExecutions: gate.pool.peak,
      arrivalSeconds: gate.firstAt === undefined ? 0 : (gate.lastAt - gate.firstAt) / 1000,
    }),
  };
}

interface Gate {
  throttle: StageThrottle | undefined;
  pool: ExecutionPool;
  throttled: number;
  invoker: Invoker;
  firstAt: number | undefined;
  lastAt: number;
}

/** The API function's timeout, as deployed: the solving budget shrinks to fit it, as in AWS. */
const API_TIMEOUT_MS = FUNCTION_TIMEOUT_DEFAULTS.api * 1000;

/**
 * The handler run in this process. Invocations start after the current turn of the event loop, so
 * every request read in the same turn is stamped with its arrival before any of them runs.
 */
function inProcess(handler: LambdaHandler): Invoker {
  return {
    async invoke(event, admittedAt, pool) {
      await new Promise((resolve) => setImmediate(resolve));
      const release = pool.acquire(admittedAt);
      const context = createLambdaContext({ timeoutMs: API_TIMEOUT_MS });
      if (!release)
        return throttledInvocation(context.awsRequestId, "the API function's reserved concurrency is in use");
      try {
        return { ok: true, requestId: context.awsRequestId, result: await handler(event, context) };
      } finally {
        release();
      }
    },
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions, gate: Gate): Promise<void> {
  // One id from arrival: the event's requestContext.requestId and every answer's header.
  const requestId = gatewayRequestId();
  res.setHeader('apigw-requestid', requestId);
  const method = req.method ?? 'GET';
  // Headers over the quota are refused before the throttle counts the request; as for every
  // answer before the function's, the body is still read (and dropped), so the client reads the
  // answer instead of a reset connection.
  const head = { method, url: req.url ?? '/', httpVersion: req.httpVersion, rawHeaders: req.rawHeaders };
  if (requestLineAndHeaderBytes(head) > GATEWAY_MAX_REQUEST_LINE_AND_HEADER_BYTES) {
    await readBody(req);
    sendGatewayError(res, 'headersTooLarge');
    return;
  }
  // IAM authorization: an unsigned request to an AWS_IAM route never reaches the function.
  if (
    options.authorization &&
    refusedUnsigned(options.authorization, method, (req.url ?? '/').split('?')[0]!, req.headers)
  ) {
    await readBody(req);
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Forbidden' }));
    return;
  }
  // The stage throttle decides on arrival, by the route's bucket.
  gate.lastAt = performance.now();
  gate.firstAt ??= gate.lastAt;
  const admitted = gate.throttle?.admit(method, (req.url ?? '/').split('?')[0]!) ?? true;
  const body = await readBody(req);
  if (!admitted) {
    gate.throttled++;
    sendGatewayError(res, 'throttled');
    return;
  }
  if (body === undefined) {
    sendGatewayError(res, 'bodyTooLarge');
    return;
  }
  const admittedAt = performance.now();
  const event = buildHttpApiEvent({
    method,
    url: req.url ?? '/',
    headers: req.headers,
    body,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    requestId,
  });
  // The gateway invokes the function now. A full pool is Lambda's throttle, which API Gateway
  // answers with a 500 (the function never runs).
  const invocation = await gate.invoker.invoke(event, admittedAt, gate.pool);
  if (!invocation.ok) {
    options.onHandlerError?.(new Error("TooManyRequestsException: the API function's reserved concurrency is in use"));
    sendGatewayError(res, 'functionFailed');
    return;
  }
  const { result } = invocation;
  const resultBytes = Buffer.byteLength(JSON.stringify(result ?? null), 'utf8');
  if (resultBytes > LAMBDA_MAX_RESULT_BYTES) {
    options.onHandlerError?.(
      new Error(
        `Function.ResponseSizeTooLarge: the result is ${resultBytes} bytes, over Lambda's ${LAMBDA_MAX_RESULT_BYTES}`,
      ),
    );
    sendGatewayError(res, 'functionFailed');
    return;
  }
  sendResult(res, result);
}

/**
 * The whole body, or undefined if it passes the gateway's limit. An oversized body is still
 * read to its end (and dropped): destroying the request would reset the connection before the
 * client could read the 413.
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.once('end', () => resolve(size > GATEWAY_MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** API Gateway's own error bodies, e.g. `{"message":"Internal Server Error"}` (functions/http/gateway-answers.ts). */
function sendGatewayError(res: ServerResponse, name: GatewayAnswerName): void {
  const { status, message } = GATEWAY_ANSWERS[name];
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message }));
}

/**
 * The gateway's answer to bytes Node's parser refuses (two Content-Lengths, Content-Length with
 * Transfer-Encoding, a NUL in a header, a bare LF, a head over NODE_MAX_HEADER_BYTES), in place of
 * Node's bare 400: the same `{"message"}` JSON and `apigw-requestid` as its other answers, and the
 * connection closed (it cannot be trusted to frame another request).
 */
function answerMalformed(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } =
    error.code === 'HPE_HEADER_OVERFLOW' ? GATEWAY_ANSWERS.headersTooLarge : GATEWAY_ANSWERS.malformedRequest;
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
      `apigw-requestid: ${gatewayRequestId()}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

interface StructuredResult {
  statusCode: number;
  headers?: Record<string, string | number | boolean>;
  multiValueHeaders?: Record<string, Array<string | number | boolean>>;
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
}

function isStructuredResult(result: unknown): result is StructuredResult {
  return (
    typeof result === 'object' && result !== null && typeof (result as { statusCode?: unknown }).statusCode === 'number'
  );
}

/**
 * Payload 2.0 response mapping: a result with `statusCode` is used as given; anything else is
 * a 200 whose body is the result as JSON (a string as is), as API Gateway infers it.
 */
function sendResult(res: ServerResponse, result: unknown): void {
  if (!isStructuredResult(result)) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(typeof result === 'string' ? result : JSON.stringify(result ?? null));
    return;
  }
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) res.setHeader(name, values.map(String));
  if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
  res.statusCode = result.statusCode;
  const body = result.body ?? '';
  res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}
