// The client's types are the served document's: functions/client/openapi-types.ts is what
// openapi-typescript makes of GET /openapi.json now, byte for byte (`npm run client:types` makes it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/handler/index.js';
import { startHttpServer } from '../../twin/gateway/http-server.js';
import { clientTypesFile, clientTypesSource } from '../../scripts/client-types.mjs';

describe("the client's generated types", () => {
  it('are what openapi-typescript makes of the document the API serves: run npm run client:types when this fails', async () => {
    const server = await startHttpServer({ port: 0, handler });
    try {
      const served = await (await fetch(`${server.url}/openapi.json`)).json();
      expect(readFileSync(clientTypesFile, 'utf8')).toBe(await clientTypesSource(served));
    } finally {
      await server.close();
    }
  });

  it('type every problem with its place (the document once made the Problem type unknown)', () => {
    const source = readFileSync(clientTypesFile, 'utf8');
    const problem = source.slice(source.indexOf('        Problem: {'), source.indexOf('        ProblemDetails: {'));
    expect(problem).not.toMatch(/\bunknown\b/);
    expect(problem).toMatch(/\bpointer: string;/);
    expect(problem).toMatch(/\bparameter: string;/);
  });
});
