/**
 * A small JSON Schema (2020-12) checker for the keywords the OpenAPI document uses. Any other
 * keyword that constrains values makes it throw, so a schema can never pass by being misunderstood.
 */
export type Schema = { readonly [keyword: string]: unknown };

const ANNOTATIONS = new Set(['description', 'examples', 'example', 'title', 'format', 'deprecated']);
const HANDLED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'oneOf',
  'anyOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'pattern',
  'minLength',
  'maxLength',
]);

export class SchemaChecker {
  constructor(private readonly root: Schema) {}

  /** Every reason `value` does not satisfy `schema`, each with its JSON pointer; empty when it does. */
  errors(value: unknown, schema: Schema, at = ''): string[] {
    for (const keyword of Object.keys(schema)) {
      if (!HANDLED.has(keyword) && !ANNOTATIONS.has(keyword))
        throw new Error(`schema keyword ${keyword} at ${at || '/'} is not supported by the checker`);
    }
    const out: string[] = [];
    const fail = (why: string) => out.push(`${at || '/'}: ${why}`);
    if (typeof schema.$ref === 'string') out.push(...this.errors(value, this.resolve(schema.$ref), at));
    if (schema.type !== undefined && !hasType(value, schema.type as string)) {
      fail(`expected ${String(schema.type)}, got ${JSON.stringify(value)?.slice(0, 60)}`);
      return out;
    }
    if (schema.enum && !(schema.enum as unknown[]).some((e) => e === value))
      fail(`${JSON.stringify(value)?.slice(0, 60)} not in enum`);
    if ('const' in schema && schema.const !== value) fail(`expected ${JSON.stringify(schema.const)}`);
    if (schema.oneOf) {
      const matching = (schema.oneOf as Schema[]).filter((s) => this.errors(value, s, at).length === 0).length;
      if (matching !== 1) fail(`matches ${matching} of the oneOf schemas, not exactly 1`);
    }
    if (schema.anyOf && !(schema.anyOf as Schema[]).some((s) => this.errors(value, s, at).length === 0))
      fail('matches none of anyOf');
    if (typeof value === 'string') {
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
        fail(`does not match ${schema.pattern}`);
      if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) fail('too short');
      if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength) fail('too long');
    }
    if (typeof value === 'number') {
      if (typeof schema.minimum === 'number' && value < schema.minimum) fail(`${value} < ${schema.minimum}`);
      if (typeof schema.maximum === 'number' && value > schema.maximum) fail(`${value} > ${schema.maximum}`);
    }
    if (Array.isArray(value)) {
      if (typeof schema.minItems === 'number' && value.length < schema.minItems)
        fail(`fewer than ${schema.minItems} items`);
      if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
        fail(`more than ${schema.maxItems} items`);
      if (schema.items)
        value.forEach((item, i) => {
          out.push(...this.errors(item, schema.items as Schema, `${at}/${i}`));
        });
    }
    if (isObject(value)) {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const name of (schema.required ?? []) as string[]) if (!Object.hasOwn(value, name)) fail(`missing ${name}`);
      for (const [name, v] of Object.entries(value)) {
        if (Object.hasOwn(properties, name)) out.push(...this.errors(v, properties[name]!, `${at}/${name}`));
        else if (schema.additionalProperties === false) fail(`unexpected member ${name}`);
        else if (isObject(schema.additionalProperties))
          out.push(...this.errors(v, schema.additionalProperties, `${at}/${name}`));
      }
    }
    return out;
  }

  resolve(ref: string): Schema {
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
    let node: unknown = this.root;
    for (const part of ref.slice(2).split('/')) {
      node = isObject(node) ? node[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    }
    if (!isObject(node)) throw new Error(`unresolved $ref ${ref}`);
    return node;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      throw new Error(`unsupported type ${type}`);
  }
}
