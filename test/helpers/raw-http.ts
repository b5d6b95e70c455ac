// Raw HTTP/1.1 for tests of the local gateway: bytes sent as given, the answer read to the end.
import { connect } from 'node:net';

export interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `bytes` as they are (no client fixes them up) and reads the answer to the connection's end. */
export function exchange(url: string, bytes: Buffer | string): Promise<Raw> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(parts);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = all.subarray(split + 4);
      if (headers['transfer-encoding'] === 'chunked') {
        const chunks: Buffer[] = [];
        for (let at = 0; ; ) {
          const eol = body.indexOf('\r\n', at);
          const size = Number.parseInt(body.subarray(at, eol).toString('latin1'), 16);
          if (!size) break;
          chunks.push(body.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
        body = Buffer.concat(chunks);
      }
      resolve({ status: Number(head[0]!.split(' ')[1]), headers, body: body.toString('utf8') });
    });
    // Not end(): a half-closed connection loses its pending answer (node:http closes it); the server closes after answering.
    socket.write(bytes);
  });
}

export interface RawRequest {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** A well-framed request (one Content-Length) with the bytes of `body` exactly as given. */
export function rawRequest({ method, target, headers = {}, body }: RawRequest): Buffer {
  const bytes = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`${method} ${target} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${bytes.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}
