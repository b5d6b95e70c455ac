import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** An S3 error answer: its status and XML error code and message. */
export interface FaultAnswer {
  status: number;
  code: string;
  message: string;
}

/** A request held at the proxy until released. */
export interface HeldRequest {
  /** Resolves when the first matching request arrives (and is held). */
  arrived: Promise<void>;
  /** Sends it on (and any later one is not held). */
  release(): void;
}

export interface S3Proxy {
  endpoint: string;
  /** Every request that went through, in order: how tests see multipart uploads and aborts happen. */
  requests: ProxiedRequest[];
  /** From now on, the response to a GET whose path contains `pathPart` is cut off after `bytes` bytes. */
  cutGetAfter(pathPart: string, bytes: number): void;
  /** From now on, answer requests matching `matches` with 500 InternalError (or `answer`) instead of forwarding them. */
  failWhere(matches: ((request: ProxiedRequest) => boolean | FaultAnswer) | undefined, answer?: FaultAnswer): void;
  /** From now on, a GET whose path contains `pathPart` sends `bytes` bytes of its body, then nothing more, the connection left open. */
  stallGetAfter(pathPart: string, bytes: number): void;
  /** From now on, requests matching `matches` are never answered (the connection stays open). */
  stallWhere(matches: ((request: ProxiedRequest) => boolean) | undefined): void;
  /**
   * From now on, a request for which `decide` answers `true` has its connection reset before any
   * answer, and one it answers a number n is forwarded and its connection reset after n bytes of
   * the response body (fewer bytes than that in the body: sent whole).
   */
  resetWhere(decide: ((request: ProxiedRequest) => boolean | number) | undefined): void;
  /** Holds the first request matching `matches` until `release()`. */
  hold(matches: (request: ProxiedRequest) => boolean): HeldRequest;
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
  let failing: ((request: ProxiedRequest) => boolean | FaultAnswer) | undefined;
  let failure = { status: 500, code: 'InternalError', message: 'We encountered an internal error. Please try again.' };
  let stall: { pathPart: string; bytes: number } | undefined;
  let stalling: ((request: ProxiedRequest) => boolean) | undefined;
  let resetting: ((request: ProxiedRequest) => boolean | number) | undefined;
  const holds: { matches: (request: ProxiedRequest) => boolean; arrived: () => void; released: Promise<void> }[] = [];
  const server = http.createServer(async (req, res) => {
    const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    requests.push(request);
    if (stalling?.(request)) return;
    const held = holds.findIndex((h) => h.matches(request));
    if (held !== -1) {
      const [hold] = holds.splice(held, 1);
      req.pause();
      hold!.arrived();
      await hold!.released;
    }
    const reset = resetting?.(request);
    if (reset === true) {
      req.socket.destroy();
      return;
    }
    const verdict = failing?.(request);
    if (verdict) {
      const answer = typeof verdict === 'object' ? verdict : failure;
      req.resume();
      res.writeHead(answer.status, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${answer.code}</Code><Message>${answer.message}</Message></Error>`,
      );
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const stalled = stall;
        if (stalled && req.method === 'GET' && decodeURIComponent(req.url ?? '').includes(stalled.pathPart)) {
          let sent = 0;
          answer.on('data', (chunk: Buffer) => {
            if (sent >= stalled.bytes) return answer.pause();
            res.write(chunk.subarray(0, stalled.bytes - sent));
            sent += chunk.length;
          });
          return;
        }
        const rule =
          typeof reset === 'number' ? { pathPart: '', bytes: reset } : req.method === 'GET' ? cut : undefined;
        if (!rule || !decodeURIComponent(req.url ?? '').includes(rule.pathPart)) {
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
    failWhere: (matches, answer) => {
      failing = matches;
      failure = answer ?? {
        status: 500,
        code: 'InternalError',
        message: 'We encountered an internal error. Please try again.',
      };
    },
    resetWhere: (decide) => {
      resetting = decide;
    },
    stallWhere: (matches) => {
      stalling = matches;
    },
    stallGetAfter: (pathPart, bytes) => {
      stall = { pathPart, bytes };
    },
    hold: (matches) => {
      let arrived!: () => void;
      let release!: () => void;
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ matches, arrived, released });
      return {
        arrived: arrival,
        release: () => {
          const waiting = holds.findIndex((h) => h.released === released);
          if (waiting !== -1) holds.splice(waiting, 1);
          release();
        },
      };
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
