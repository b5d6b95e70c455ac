/** Where the generated types are committed (functions/client/openapi-types.ts). */
export const clientTypesFile: string;
/** The generated file's text for the served OpenAPI document `document`. */
export function clientTypesSource(document: unknown): Promise<string>;
