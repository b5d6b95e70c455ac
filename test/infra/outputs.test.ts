// The stack's outputs describe what the stack has: the API URL's description names the routes of
// the contract, every one, so a route added or removed there changes what a deployer reads.
import { describe, expect, it } from 'vitest';
import { API_ROUTE_NAMES, routeKey } from '../../functions/contract/api-routes.js';
import { synth } from './helpers.js';

describe('outputs', () => {
  it("the API URL's description names every route the API has", () => {
    const description = String(synth().template.findOutputs('ApiUrl').ApiUrl?.Description);
    const named = [...description.matchAll(/\b(GET|POST|PUT|DELETE|PATCH|OPTIONS) \/[^\s,)]*/g)].map((m) => m[0]);
    expect(named).toEqual(API_ROUTE_NAMES.map(routeKey));
  });
});
