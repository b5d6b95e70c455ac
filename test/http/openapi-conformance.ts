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

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
};

/**
 * Why a real response does not match the OpenAPI document; empty when it does. Answers for
 * paths or methods the document does not list (404, 405) must be problem details.
 */
export function openApiMismatches(document: unknown, response: ObservedResponse): string[] {
  const doc = document as Doc;
  const checker = new SchemaChecker(document as Schema);
  const mediaType = (response.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const operation = doc.paths[response.path]?.[response.method.toLowerCase()];
  let schema: Schema | undefined;
  if (operation) {
    const declared = operation.responses[String(response.status)];
    if (!declared) return [`${response.method} ${response.path} does not document status ${response.status}`];
    schema = declared.content?.[mediaType]?.schema;
    if (!schema) return [`${response.method} ${response.path} ${response.status} does not document ${mediaType}`];
  } else if (response.status === 404 || response.status === 405) {
    if (mediaType !== 'application/problem+json') return [`${response.status} answered as ${mediaType}`];
    schema = doc.components.schemas.ProblemDetails!;
  } else {
    return [`${response.method} ${response.path} is not in the document but answered ${response.status}`];
  }
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
