import { ClientError } from './problems.js';
import { MAX_BODY_BYTES } from './constants.js';
import type { HttpRequest } from './types.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The request body as text, base64-decoded when API Gateway encoded it. Throws a ClientError
 * (413) over MAX_BODY_BYTES and (400) for bytes that are not UTF-8.
 */
export function readBodyText(request: HttpRequest): string {
  const raw = request.body ?? '';
  // Cheap bound before decoding: base64 carries 3 bytes per 4 characters.
  const approxBytes = request.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : raw.length;
  if (approxBytes > MAX_BODY_BYTES * 4) throw tooLarge(approxBytes);
  if (!request.isBase64Encoded) {
    const size = Buffer.byteLength(raw, 'utf8');
    if (size > MAX_BODY_BYTES) throw tooLarge(size);
    return raw;
  }
  const bytes = Buffer.from(raw, 'base64');
  if (bytes.length > MAX_BODY_BYTES) throw tooLarge(bytes.length);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ClientError('invalidEncoding', 'The body (base64-decoded) is not valid UTF-8 text.');
  }
}

function tooLarge(bytes: number): ClientError {
  return new ClientError(
    'bodyTooLarge',
    `The body is ${bytes} bytes; the limit is ${MAX_BODY_BYTES} bytes (1 MiB). Split the boards over several requests.`,
    { limit: MAX_BODY_BYTES },
  );
}
