import { StringDecoder } from 'node:string_decoder';

const BOM = '\uFEFF';

/**
 * Bytes to text, UTF-8, a leading byte-order mark dropped. A character split across two chunks
 * is held back until complete; invalid bytes become U+FFFD and so fail only their own row.
 */
export async function* decodeUtf8(source: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of source) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (first && text.length > 0) {
      first = false;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    if (text.length > 0) yield text;
  }
  const rest = decoder.end();
  if (rest.length > 0) yield first && rest.startsWith(BOM) ? rest.slice(1) : rest;
}
