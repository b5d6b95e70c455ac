import { SchemaChecker, type Schema } from './json-schema-check.js';

export interface ObservedResponse {
  method: string;
  /** The route path (no query). */
  path: string;
  status: number;
  /** The content-type header as received. */
  contentType: string | undefined;
  body: string;
}

type Responses = Record<string, { content?: Record<string, { schema: Schema }>; 'x-answered-by'?: string[] }>;

type Doc = {
  paths: Record<string, Record<string, { responses: Responses }>>;
  'x-unlisted': { paths: { responses: Responses }; methods: { responses: Responses } };
  components: { schemas: Record<string, Schema> };
};

/**
 * Why a real response does not match the OpenAPI document; empty when it does. The status must be
 * one the document lists for that path and method (or, for a path or method it does not list, under
 * `x-unlisted`), and the body valid against the schema of its media type; a response documented
 * without content has an empty body, and a HEAD answer's body is not read.
 */
export function openApiMismatches(document: unknown, response: ObservedResponse): string[] {
  const doc = document as Doc;
  const checker = new SchemaChecker(document as Schema);
  const mediaType = (response.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const method = response.method.toLowerCase();
  const pathItem = Object.hasOwn(doc.paths, response.path) ? doc.paths[response.path] : undefined;
  let responses: Responses;
  let where: string;
  if (!pathItem) {
    responses = doc['x-unlisted'].paths.responses;
    where = `unlisted path ${JSON.stringify(response.path.slice(0, 60))}`;
  } else if (Object.hasOwn(pathItem, method)) {
    responses = pathItem[method]!.responses;
    where = `${response.method} ${response.path}`;
  } else {
    responses = doc['x-unlisted'].methods.responses;
    where = `unlisted method ${JSON.stringify(response.method.slice(0, 20))} on ${response.path}`;
  }
  const declared = Object.hasOwn(responses, String(response.status)) ? responses[String(response.status)] : undefined;
  if (!declared) return [`${where} does not document status ${response.status}`];
  if (method === 'head') return [];
  if (!declared.content) {
    return response.body === ''
      ? []
      : [`${where} ${response.status} documents no body, got ${response.body.slice(0, 80)}`];
  }
  const schema = declared.content[mediaType]?.schema;
  if (!schema) return [`${where} ${response.status} does not document ${mediaType || 'no content-type'}`];
  let value: unknown = response.body;
  if (mediaType.endsWith('json')) {
    try {
      value = JSON.parse(response.body);
    } catch {
      return [`body is not JSON: ${response.body.slice(0, 80)}`];
    }
  }
  return checker.errors(value, schema);
}
