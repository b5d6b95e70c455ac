export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  /** Parameter names lower-cased; values unquoted. */
  params: Record<string, string>;
}

/** Parse a Content-Type header (RFC 9110 §8.3); undefined when absent or not `type/subtype`. */
export function parseMediaType(header: string | undefined): MediaType | undefined {
  if (!header) return undefined;
  const [head = '', ...rest] = header.split(';');
  const essence = head.trim().toLowerCase();
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(essence)) return undefined;
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name) params[name] = value;
  }
  return { essence, params };
}
