/**
 * Runs `worker` over `source` with at most `limit` calls in flight, pulling the next item only
 * when a call ends: a listing of millions of keys is consumed as it is processed, never held
 * whole. The first worker error stops the pulling; the calls in flight finish, then it rejects.
 */
export async function forEachBounded<T>(
  source: AsyncIterable<T> | Iterable<T>,
  limit: number,
  worker: (item: T) => Promise<void>,
): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync(source[Symbol.iterator]());
  let failure: { error: unknown } | undefined;
  // Async generators queue concurrent next() calls, so the lanes may share one iterator.
  const lane = async (): Promise<void> => {
    while (!failure) {
      const next = await iterator.next();
      if (next.done) return;
      try {
        await worker(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: limit }, lane));
  } catch (error) {
    failure ??= { error };
  }
  if (failure) {
    await iterator.return?.();
    throw failure.error;
  }
}

function toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return { next: async () => iterator.next() };
}

/** `worker` over an array with bounded concurrency, results in input order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  await forEachBounded(items.keys(), limit, async (index) => {
    results[index] = await worker(items[index]!, index);
  });
  return results;
}
