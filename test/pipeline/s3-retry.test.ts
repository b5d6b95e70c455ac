// Which S3 failures the finish step retries on its own: those that can pass (S3 busy or failing,
// the connection lost), never an answer (a 4xx, above all the 412 of a conditional write), and
// never the pipeline's own named errors, whatever their message says.
import { describe, expect, it } from 'vitest';
import { SourceChangedError } from '../../functions/pipeline/object-versions.js';
import { isRetryableS3Error, retryS3 } from '../../functions/pipeline/s3-retry.js';

const s3Error = (name: string, status: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const quick = { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 };

describe('isRetryableS3Error', () => {
  it.each([
    ['503 SlowDown', s3Error('SlowDown', 503)],
    ['500 InternalError', s3Error('InternalError', 500)],
    ['429', s3Error('TooManyRequests', 429)],
    ['a socket timeout', Object.assign(new Error('timed out'), { name: 'TimeoutError' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a body cut mid-way', new Error('aborted')],
  ])('retries %s', (_, error) => {
    expect(isRetryableS3Error(error)).toBe(true);
  });

  it.each([
    ['412 PreconditionFailed', s3Error('PreconditionFailed', 412)],
    ['404 NoSuchKey', s3Error('NoSuchKey', 404)],
    ['403 AccessDenied', s3Error('AccessDenied', 403)],
    ['a replaced source, even of a key named timeout', new SourceChangedError('incoming/timeout-aborted.txt')],
  ])('does not retry %s', (_, error) => {
    expect(isRetryableS3Error(error)).toBe(false);
  });
});

describe('retryS3', () => {
  it('calls again until the call succeeds, and throws the last error once the attempts are spent', async () => {
    let calls = 0;
    expect(
      await retryS3(async () => {
        if (++calls < 3) throw s3Error('SlowDown', 503);
        return 'done';
      }, quick),
    ).toBe('done');
    calls = 0;
    await expect(
      retryS3(async () => {
        calls++;
        throw s3Error('SlowDown', 503);
      }, quick),
    ).rejects.toMatchObject({ name: 'SlowDown' });
    expect(calls).toBe(4);
  });

  it('throws an answer that cannot pass at once', async () => {
    let calls = 0;
    await expect(
      retryS3(async () => {
        calls++;
        throw s3Error('PreconditionFailed', 412);
      }, quick),
    ).rejects.toMatchObject({ name: 'PreconditionFailed' });
    expect(calls).toBe(1);
  });
});
