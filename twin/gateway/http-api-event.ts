import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface HttpApiRequest {
  method: string;
  /** Path and query as sent on the request line, e.g. `/solve?x=1`. */
  url: string;
  /** Header names in any case; repeated headers as arrays (as node:http gives them). */
  headers?: Record<string, string | string[] | undefined>;
  body?: Buffer | string;
  sourceIp?: string;
  /** Defaults to now. */
  time?: Date;
  /** The gateway's id for the request (it is also in the answer's `apigw-requestid`); a new one by default. */
  requestId?: string;
}

/**
 * Content types API Gateway passes as text; any other body (and any body that is not valid
 * UTF-8) arrives base64-encoded with `isBase64Encoded: true`.
 */
const TEXT_TYPES =
  /^(text\/[^;]+|application\/([\w.-]+\+)?(json|xml)|application\/javascript|application\/x-www-form-urlencoded)\s*(;|$)/i;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `12/Mar/2020:19:03:58 +0000`, the format of requestContext.time. */
function gatewayTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** Gateway request ids look like `JKJaXmPLvHcEJnw=`: 10 random bytes in base64. */
export function gatewayRequestId(): string {
  return randomBytes(10).toString('base64');
}

/**
 * The event API Gateway HTTP API (payload format 2.0, `$default` route and stage) sends to
 * Lambda for a request: headers lower-cased and repeated ones joined by commas, cookies moved to
 * `cookies`, query both raw and parsed, body as text or base64.
 */
export function buildHttpApiEvent(request: HttpApiRequest): APIGatewayProxyEventV2 {
  const queryAt = request.url.indexOf('?');
  const rawPath = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const rawQueryString = queryAt < 0 ? '' : request.url.slice(queryAt + 1);

  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(',') : value;
    if (key === 'cookie') {
      cookies = [...(cookies ?? []), ...joined.split(/;\s*/).filter(Boolean)];
    } else {
      headers[key] = key in headers ? `${headers[key]},${joined}` : joined;
    }
  }

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    queryStringParameters = {};
    for (const [key, value] of new URLSearchParams(rawQueryString)) {
      queryStringParameters[key] = key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
    }
  }

  const time = request.time ?? new Date();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: 'anonymous',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!.split(':')[0]!,
      http: {
        method: request.method.toUpperCase(),
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: request.requestId ?? gatewayRequestId(),
      routeKey: '$default',
      stage: '$default',
      time: gatewayTime(time),
      timeEpoch: time.getTime(),
    },
    isBase64Encoded: false,
  };

  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  if (body && body.length > 0) {
    const asText = TEXT_TYPES.test(headers['content-type'] ?? '') ? utf8OrUndefined(body) : undefined;
    if (asText === undefined) {
      event.body = body.toString('base64');
      event.isBase64Encoded = true;
    } else {
      event.body = asText;
    }
  }
  return event;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function utf8OrUndefined(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
