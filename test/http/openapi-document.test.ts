import { describe, expect, it } from 'vitest';
import { openApiDocument, PROBLEM_TYPES } from '../../functions/http/index.js';
import { GATEWAY_ANSWERS } from '../../functions/http/gateway-answers.js';
import { allowedMethods, routes } from '../../functions/http/routes.js';
import { SchemaChecker, type Schema } from './json-schema-check.js';
import { EASY, EASY_SOLUTION, toChars, toNumbers } from '../helpers/boards.js';

const doc = openApiDocument as unknown as {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, Schema> };
};
const checker = new SchemaChecker(doc as unknown as Schema);
const schema = (name: string) => doc.components.schemas[name]!;

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsIn(value, out);
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and survives a JSON round trip unchanged', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('describes exactly the routes and methods the adapter serves: HEAD wherever GET, and every preflight', () => {
    const served = Object.fromEntries(
      Object.keys(routes).map((path) => [
        path,
        [...allowedMethods(path), 'OPTIONS'].map((m) => m.toLowerCase()).sort(),
      ]),
    );
    const described = Object.fromEntries(
      Object.entries(doc.paths).map(([path, ops]) => [path, Object.keys(ops).sort()]),
    );
    expect(described).toEqual(served);
  });

  it('lists on every operation, and for unlisted paths and methods, the answers API Gateway gives itself, marked so', () => {
    const unlisted = (doc as unknown as { 'x-unlisted': Record<string, { responses: Record<string, unknown> }> })[
      'x-unlisted'
    ];
    const all = [
      ...Object.values(doc.paths).flatMap((ops) => Object.values(ops)),
      unlisted.paths!,
      unlisted.methods!,
    ] as { responses: Record<string, { 'x-answered-by'?: string[] }> }[];
    for (const operation of all) {
      for (const answer of Object.values(GATEWAY_ANSWERS)) {
        expect(operation.responses[String(answer.status)]?.['x-answered-by']).toContain('gateway');
      }
      for (const response of Object.values(operation.responses)) expect(response['x-answered-by']).toBeDefined();
    }
    expect(Object.keys(unlisted.paths!.responses)).toContain('404');
    expect(Object.keys(unlisted.methods!.responses)).toContain('405');
    for (const path of Object.keys(doc.paths))
      expect(Object.keys(doc.paths[path]!.options!.responses)).toContain('204');
  });

  it('resolves every $ref it contains', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(() => checker.resolve(ref), ref).not.toThrow();
  });

  it('documents on POST /solve every client-error status the adapter can answer there', () => {
    const statuses = Object.values(PROBLEM_TYPES)
      .map((t) => t.status)
      .filter((s) => s < 500 && s !== 404);
    for (const status of statuses) expect(Object.keys(doc.paths['/solve']!.post!.responses)).toContain(String(status));
  });

  it('accepts boards in every shape and rejects requests with both or neither of board and boards', () => {
    const request = schema('SolveRequest');
    for (const board of [EASY, toChars(EASY), toNumbers(EASY)]) {
      expect(checker.errors({ board }, request)).toEqual([]);
      expect(checker.errors({ boards: [board] }, request)).toEqual([]);
    }
    expect(checker.errors({ board: EASY, boards: [] }, request)).not.toEqual([]);
    expect(checker.errors({}, request)).not.toEqual([]);
  });

  it('accepts a solution only when it is complete, in each shape', () => {
    const solved = schema('SolvedBoard');
    for (const solution of [EASY_SOLUTION, toChars(EASY_SOLUTION), toNumbers(EASY_SOLUTION)])
      expect(checker.errors(solution, solved)).toEqual([]);
    for (const unsolved of [EASY, toChars(EASY), toNumbers(EASY)])
      expect(checker.errors(unsolved, solved)).not.toEqual([]);
  });
});
