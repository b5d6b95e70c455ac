import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey } from '../../functions/contract/api-routes.js';
import { type Synthesized, synth } from './helpers.js';

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;
const resourcesOf = (synthesized: Synthesized): Resources =>
  (synthesized.template.toJSON() as { Resources: Resources }).Resources;

describe('with apiAuth=iam', () => {
  let routes: { RouteKey: string; AuthorizationType: string }[];
  beforeAll(() => {
    routes = Object.values(resourcesOf(synth({ apiAuth: 'iam' })))
      .filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route')
      .map((resource) => resource.Properties as { RouteKey: string; AuthorizationType: string });
  });

  it('serves the page (GET /) without authorization, so a browser can open it', () => {
    expect(routes.find((route) => route.RouteKey === routeKey('page'))?.AuthorizationType).toBe('NONE');
  });

  it('keeps IAM authorization on every API route and $default; only the page and CORS preflights are unsigned', () => {
    const unsigned = routes.filter((route) => route.AuthorizationType !== 'AWS_IAM').map((route) => route.RouteKey);
    expect(unsigned.sort()).toEqual([routeKey('page'), 'OPTIONS /{proxy+}'].sort());
    for (const name of ['solve', 'grade', 'hint', 'puzzle', 'health', 'openapi'] as const) {
      expect(routes.find((route) => route.RouteKey === routeKey(name))?.AuthorizationType, name).toBe('AWS_IAM');
    }
    expect(routes.find((route) => route.RouteKey === '$default')?.AuthorizationType).toBe('AWS_IAM');
  });
});

describe('with retainBucket=false', () => {
  let resources: Resources;
  beforeAll(() => {
    resources = resourcesOf(synth({ retainBucket: false, logRetentionDays: 14 }));
  });

  it("gives CDK's auto-delete-objects handler a log group with the retention setting", () => {
    const handlers = Object.entries(resources).filter(
      ([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.startsWith('CustomS3AutoDeleteObjects'),
    );
    expect(handlers).toHaveLength(1);
    const logging = handlers[0]![1].Properties?.LoggingConfig as { LogGroup: { Ref: string } } | undefined;
    expect(logging?.LogGroup.Ref).toBeDefined();
    expect(resources[logging!.LogGroup.Ref]).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      Properties: { RetentionInDays: 14 },
    });
  });

  it('leaves no function of the stack logging to a group without retention', () => {
    const groups = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Logs::LogGroup');
    for (const [id, group] of groups) expect(group.Properties?.RetentionInDays, id).toBe(14);
    const functions = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
    for (const [id, fn] of functions) {
      const logging = fn.Properties?.LoggingConfig as { LogGroup?: unknown } | undefined;
      expect(logging?.LogGroup, `${id} logs to a group of its own making, kept forever`).toBeDefined();
    }
  });
});
