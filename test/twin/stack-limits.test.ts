// The twin's limits are what the synthesized template deploys (twin/stack-limits.ts), so a stack
// synthesized with other settings is enforced by its own figures, with no second copy of the rule.
import { describe, expect, it } from 'vitest';
import { loadStackTemplate } from '../../twin/iam/stack-template.js';
import { largeFileDefinition, mapMaxConcurrency } from '../../twin/stepfunctions/asl-definition.js';
import type { CloudFormationTemplate } from '../../twin/iam/resolve-template.js';
import { stackGatewayLimits, stackLimits, StackLimitsError } from '../../twin/stack-limits.js';

/** The template's resources of one type, with their properties. */
function resourcesOf(template: CloudFormationTemplate, type: string): Record<string, unknown>[] {
  return Object.values(template.Resources)
    .filter((r) => r.Type === type)
    .map((r) => r.Properties ?? {});
}

describe("the twin's limits, read from the synthesized template", () => {
  it('follow a stack synthesized with non-default reservations and API timeout (-c apiReservedConcurrency=50 filesReservedConcurrency=40 apiTimeoutSeconds=7)', async () => {
    const template = await loadStackTemplate({
      apiReservedConcurrency: 50,
      filesReservedConcurrency: 40,
      apiTimeoutSeconds: 7,
    });
    const limits = stackLimits(template);
    expect(limits.api).toMatchObject({ reservedConcurrency: 50, pool: 50, timeoutSeconds: 7 });
    expect(limits.files).toMatchObject({ reservedConcurrency: 40, pool: 40, timeoutSeconds: 900 });
    // Every route's bucket is the stage's, POST /solve's derived from the smaller pool.
    const [stage] = resourcesOf(template, 'AWS::ApiGatewayV2::Stage');
    const routeSettings = stage!.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    const gateway = stackGatewayLimits({}, limits);
    for (const [route, set] of Object.entries(routeSettings))
      expect(gateway.routeThrottles[route], route).toEqual({
        rate: set.ThrottlingRateLimit,
        burst: set.ThrottlingBurstLimit,
      });
    expect(gateway.routeThrottles['POST /solve']!.rate).toBeLessThan(104);
    expect(gateway.reservedConcurrency).toBe(50);
  });

  it("give each unreserved function the part of the account's pool the stack sized it for (its template Metadata)", async () => {
    const limits = stackLimits(
      await loadStackTemplate({
        apiReservedConcurrency: 0,
        filesReservedConcurrency: 30,
        unreservedConcurrencyShare: 60,
      }),
    );
    expect(limits.api).toMatchObject({ reservedConcurrency: 0, pool: 60 });
    expect(limits.files).toMatchObject({ reservedConcurrency: 30, pool: 30 });
  });

  it('name what the template lacks when the stack and the twin disagree', async () => {
    const template = structuredClone(await loadStackTemplate());
    for (const resource of Object.values(template.Resources))
      if (resource.Type === 'AWS::Lambda::Function') delete resource.Properties?.Timeout;
    expect(() => stackLimits(template)).toThrow(StackLimitsError);
    expect(() => stackLimits(template)).toThrow(/function's Timeout/);
  });

  it("run a large file's ranges as wide as the deployed map's MaxConcurrency (-c largeFileMaxConcurrency=3)", async () => {
    const template = await loadStackTemplate({ largeFileMaxConcurrency: 3 });
    expect(mapMaxConcurrency(largeFileDefinition(template))).toBe(3);
  });
});
