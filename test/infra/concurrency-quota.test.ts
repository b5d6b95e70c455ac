import { describe, expect, it } from 'vitest';
import {
  type AccountConcurrency,
  checkReservations,
  MIN_UNRESERVED,
  settingsCheck,
} from '../../infra/deploy/concurrency-quota.js';
import { contextArguments } from '../../infra/deploy/preflight-arguments.js';
import { defaults } from '../../infra/settings.js';

const wanted = {
  apiReservedConcurrency: defaults.apiReservedConcurrency,
  filesReservedConcurrency: defaults.filesReservedConcurrency,
  unreservedConcurrencyShare: defaults.unreservedConcurrencyShare,
};
const check = settingsCheck({});
const fresh = (quota: number): AccountConcurrency => ({
  concurrentExecutions: quota,
  unreservedConcurrentExecutions: quota,
  reservedByThisStack: 0,
});

describe('the deploy preflight on the account concurrency quota', () => {
  it('lets the defaults (100 + 80 reserved) deploy where the quota is the default 1,000', () => {
    expect(checkReservations(fresh(1000), wanted, check)).toEqual({ fits: true, available: 900 });
  });

  it.each([50, 100])(
    'stops a new account with a quota of %i and proposes no reservations, sharing its unreserved pool',
    (quota) => {
      const verdict = checkReservations(fresh(quota), wanted, check);
      expect(verdict).toMatchObject({
        fits: false,
        needed: 180,
        fitting: { apiReservedConcurrency: 0, filesReservedConcurrency: 0, unreservedConcurrencyShare: quota },
      });
      if (!verdict.fits) {
        expect(verdict.message).toContain(`quota is ${quota}`);
        expect(verdict.message).toContain(
          `-c apiReservedConcurrency=0 -c filesReservedConcurrency=0 -c unreservedConcurrencyShare=${quota}`,
        );
      }
    },
  );

  it('says why nothing fits a quota of 10: the public API alone needs more than the account can run', () => {
    const verdict = checkReservations(fresh(10), wanted, check);
    expect(verdict).toMatchObject({ fits: false });
    expect(verdict.fits ? undefined : verdict.fitting).toBeUndefined();
    if (!verdict.fits) {
      expect(verdict.message).toContain('No settings fit');
      expect(verdict.message).toContain('must be at least 23');
      expect(verdict.message).toContain('Ask for a higher quota');
    }
  });

  it('proposes the largest reservations in the same proportion where some fit (quota 200: 100 reservable)', () => {
    const verdict = checkReservations(fresh(200), wanted, check);
    expect(verdict).toMatchObject({
      fits: false,
      available: 200 - MIN_UNRESERVED,
      fitting: { apiReservedConcurrency: 55, filesReservedConcurrency: 45 },
    });
    // docs/infra.md shows this line.
    if (!verdict.fits)
      expect(verdict.message).toContain(
        'Deploy with: npm run deploy -- -c apiReservedConcurrency=55 -c filesReservedConcurrency=45, or ask',
      );
  });

  it('proposes no reservations for a quota of 120, where the same proportion (11 + 9) would not synthesize', () => {
    // 20 reservable: an API pool of 11 cannot hold the small routes' 21.5 executions (the synth wants 23).
    expect(check({ apiReservedConcurrency: 11, filesReservedConcurrency: 9 })).toContain(
      'must be 0 (no reservation) or at least 23',
    );
    expect(checkReservations(fresh(120), wanted, check)).toMatchObject({
      fits: false,
      fitting: { apiReservedConcurrency: 0, filesReservedConcurrency: 0, unreservedConcurrencyShare: 120 },
    });
  });

  it('counts what this stack reserves today as free for a redeploy', () => {
    expect(
      checkReservations(
        { concurrentExecutions: 280, unreservedConcurrentExecutions: 100, reservedByThisStack: 180 },
        wanted,
        check,
      ),
    ).toMatchObject({ fits: true });
  });

  it('stops unreserved functions sized for more than the account leaves unreserved', () => {
    const unreserved = { apiReservedConcurrency: 0, filesReservedConcurrency: 0, unreservedConcurrencyShare: 100 };
    expect(checkReservations(fresh(1000), unreserved, check)).toMatchObject({ fits: true });
    expect(checkReservations(fresh(60), unreserved, check)).toMatchObject({
      fits: false,
      fitting: { unreservedConcurrencyShare: 60 },
    });
  });

  it.each([
    ['the defaults', {}],
    ['iam mode', { apiAuth: 'iam' }],
    ['maps set by hand', { batchMaxConcurrency: '20', largeFileMaxConcurrency: '30' }],
    ['the sqs route', { s3Events: 'sqs' }],
  ])('prints only suggestions that synthesize and fit, for every quota from 10 to 1,000 (%s)', (_name, context) => {
    const checkContext = settingsCheck(context);
    const suggested = new Set<string>();
    for (let quota = 10; quota <= 1000; quota++) {
      for (const account of [fresh(quota), { ...fresh(quota), unreservedConcurrentExecutions: quota - 5 }]) {
        const verdict = checkReservations(account, wanted, checkContext);
        if (verdict.fits || !verdict.fitting) continue;
        expect(checkContext(verdict.fitting), `quota ${quota}: ${verdict.message}`).toBeUndefined();
        expect(
          checkReservations(account, { ...wanted, ...verdict.fitting }, checkContext).fits,
          `quota ${quota} fits`,
        ).toBe(true);
        suggested.add(String((verdict.fitting.apiReservedConcurrency ?? 0) > 0));
      }
    }
    // Both kinds of suggestion were seen: reservations (quotas from about 150) and none (below).
    expect([...suggested].sort()).toEqual(['false', 'true']);
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
