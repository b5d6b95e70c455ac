// A problem's members are declared once, in ProblemDetails: what a ClientError carries is typed from
// it, and the OpenAPI schema lists the same members, so a member added to one cannot miss the other.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { openApiDocument } from '../../functions/http/openapi.js';
import type { ClientError } from '../../functions/http/problems.js';
import type { ProblemDetails, ProblemExtra } from '../../functions/http/types.js';

// Every member of ProblemDetails, no more (tsc refuses a missing or an unknown key).
const MEMBERS: Record<keyof ProblemDetails, true> = {
  type: true,
  title: true,
  status: true,
  detail: true,
  problems: true,
  problemsTotal: true,
  limit: true,
  allow: true,
  accept: true,
  parameter: true,
  position: true,
  line: true,
  column: true,
  requestId: true,
};

describe('problem details', () => {
  it("a ClientError's extra members are ProblemDetails' own, less RFC 9457's and the request id", () => {
    expectTypeOf<ClientError['extra']>().toEqualTypeOf<ProblemExtra>();
    expectTypeOf<keyof ProblemExtra>().toEqualTypeOf<
      Exclude<keyof ProblemDetails, 'type' | 'title' | 'status' | 'detail' | 'requestId'>
    >();
  });

  it('the OpenAPI ProblemDetails schema lists exactly the members of the ProblemDetails type', () => {
    const schema = openApiDocument.components.schemas.ProblemDetails;
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(MEMBERS).sort());
  });
});
