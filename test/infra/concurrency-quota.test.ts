import { describe, expect, it } from 'vitest';
import { checkReservations, MIN_UNRESERVED } from '../../infra/deploy/concurrency-quota.js';
import { contextArguments } from '../../infra/deploy/preflight-arguments.js';
import { defaults } from '../../infra/settings.js';

const limits = { apiTimeoutSeconds: defaults.apiTimeoutSeconds, batchMaxConcurrency: defaults.batchMaxConcurrency };
const wanted = {
  apiReservedConcurrency: defaults.apiReservedConcurrency,
  filesReservedConcurrency: defaults.filesReservedConcurrency,
};
const fresh = (quota: number) => ({
  concurrentExecutions: quota,
  unreservedConcurrentExecutions: quota,
  reservedByThisStack: 0,
});

describe('the deploy preflight on the account concurrency quota', () => {
  it('lets the defaults (100 + 30 reserved) deploy where the quota is the default 1,000', () => {
    expect(checkReservations(fresh(1000), wanted, limits)).toEqual({ fits: true, available: 900 });
  });

  it.each([10, 50, 100])(
    'stops a new account with a quota of %i and names no reservations as the settings that fit',
    (quota) => {
      const verdict = checkReservations(fresh(quota), wanted, limits);
      expect(verdict).toMatchObject({
        fits: false,
        needed: 130,
        fitting: { apiReservedConcurrency: 0, filesReservedConcurrency: 0 },
      });
      if (!verdict.fits) {
        expect(verdict.message).toContain(`quota is ${quota}`);
        expect(verdict.message).toContain('-c apiReservedConcurrency=0 -c filesReservedConcurrency=0');
      }
    },
  );

  it('proposes the largest reservations in the same proportion where some fit (quota 200: 100 reservable)', () => {
    const verdict = checkReservations(fresh(200), wanted, limits);
    expect(verdict).toMatchObject({
      fits: false,
      available: 200 - MIN_UNRESERVED,
      fitting: { apiReservedConcurrency: 76, filesReservedConcurrency: 24 },
    });
  });

  it('counts what this stack reserves today as free for a redeploy', () => {
    expect(
      checkReservations(
        { concurrentExecutions: 230, unreservedConcurrentExecutions: 100, reservedByThisStack: 130 },
        wanted,
        limits,
      ),
    ).toMatchObject({ fits: true });
  });

  it('reads the -c settings as cdk does', () => {
    expect(
      contextArguments([
        '-c',
        'apiReservedConcurrency=0',
        '--context',
        'filesReservedConcurrency=5',
        '--context=x=1',
        '--require-approval',
        'never',
      ]),
    ).toEqual({
      apiReservedConcurrency: '0',
      filesReservedConcurrency: '5',
      x: '1',
    });
  });
});
