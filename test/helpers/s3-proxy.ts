import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  url: string;
}

export interface S3Proxy {
  endpoint: string;
  /** Every request that went through, in order: how tests see multipart uploads and aborts happen. */
  requests: ProxiedRequest[];
  /** From now on, the response to a GET whose path contains `pathPart` is cut off after `bytes` bytes. */
  cutGetAfter(pathPart: string, bytes: number): void;
  /** From now on, answer requests matching `matches` with 500 InternalError instead of forwarding them. */
  failWhere(matches: ((request: ProxiedRequest) => boolean) | undefined): void;
  close(): Promise<void>;
}

/**
 * A transparent HTTP proxy in front of the real local S3 server that can make it fail mid-file:
 * the connection drops in the middle of a response body, as when a server dies or the network
 * breaks. Signatures still verify (the Host header is passed through unchanged).
 */
export async function startS3Proxy(target: string): Promise<S3Proxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  let cut: { pathPart: string; bytes: number } | undefined;
  let failing: ((request: ProxiedRequest) => boolean) | undefined;
  const server = http.createServer((req, res) => {
    const request = { method: req.method ?? '', url: req.url ?? '' };
    requests.push(request);
    if (failing?.(request)) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>',
      );
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const rule = cut;
        if (!rule || req.method !== 'GET' || !decodeURIComponent(req.url ?? '').includes(rule.pathPart)) {
          answer.pipe(res);
          return;
        }
        let sent = 0;
        answer.on('data', (chunk: Buffer) => {
          if (sent + chunk.length >= rule.bytes) {
            answer.destroy();
            // Dropped only once the bytes before the cut have really left, as when a server dies mid-response.
            res.write(chunk.subarray(0, rule.bytes - sent), () => res.destroy());
            return;
          }
          sent += chunk.length;
          // Honour backpressure, so the cut happens where the reader is, not where the proxy's buffer is.
          if (!res.write(chunk)) {
            answer.pause();
            res.once('drain', () => answer.resume());
          }
        });
        answer.on('end', () => res.end());
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    cutGetAfter: (pathPart, bytes) => {
      cut = { pathPart, bytes };
    },
    failWhere: (matches) => {
      failing = matches;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
