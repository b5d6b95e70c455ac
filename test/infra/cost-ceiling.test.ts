// docs/infra.md's worst case per hour, computed from the settings and the access-log format: every
// route's bucket emptied and refilled all hour, and every request past them, up to API Gateway's
// account rate, still writing its access-log line (a 429 is logged like any other request).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APIGW_ACCOUNT_RATE_LIMIT } from '../../functions/contract/aws-quotas.js';
import { accessLogFields } from '../../infra/constructs/http-api.js';
import { root } from '../../infra/paths.js';
import { apiRouteThrottles, defaults } from '../../infra/settings.js';

/** CloudWatch Logs ingestion, us-east-1, per GB (10^9 bytes, as the rest of the table counts). */
const LOGS_PER_GB = 0.5;

/** The access-log line of a throttled POST /solve, each field as API Gateway fills it for a 429. */
function throttledLine(): string {
  const values: Record<string, string> = {
    requestId: 'VVXJ6gx8IAMEMJQ=',
    ip: '203.0.113.142',
    caller: '-',
    requestTime: '05/Dec/2026:18:05:02 +0000',
    method: 'POST',
    path: '/solve',
    routeKey: 'POST /solve',
    status: '429',
    protocol: 'HTTP/1.1',
    responseLength: String(JSON.stringify({ message: 'Too Many Requests' }).length),
    responseLatency: '0',
    integrationLatency: '-',
    integrationStatus: '-',
    integrationError: '-',
    error: 'Too Many Requests',
  };
  expect(Object.keys(values).sort()).toEqual(Object.keys(accessLogFields).sort());
  return JSON.stringify(Object.fromEntries(Object.keys(accessLogFields).map((k) => [k, values[k]])));
}

describe('the documented hourly cost ceiling', () => {
  it("counts the access-log line every throttled (429) request writes, up to the account's 10,000 requests/s", () => {
    const throttles = Object.values(apiRouteThrottles(defaults));
    const admittedPerSecond = throttles.reduce((sum, t) => sum + t.rate, 0);
    const throttledPerHour = (APIGW_ACCOUNT_RATE_LIMIT - admittedPerSecond) * 3600;
    const lineBytes = Buffer.byteLength(throttledLine());
    const dollars = (throttledPerHour * lineBytes * LOGS_PER_GB) / 1e9;
    const docs = readFileSync(path.join(root, 'docs', 'infra.md'), 'utf8');
    const row = docs.split('\n').find((line) => line.startsWith('| access log of throttled (429) requests'));
    expect(row, 'the row in docs/infra.md').toBeDefined();
    expect(row).toContain(`${throttledPerHour.toLocaleString('en-US')} x ${lineBytes} B`);
    expect(row).toContain(`$${dollars.toFixed(2)}`);
  });
});
