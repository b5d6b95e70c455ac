/**
 * Consecutive groups of at most `size` items, as the map's item batcher makes them (one group =
 * one invocation). Streams: a group is yielded as soon as it is full.
 */
export async function* groupItems<T>(items: AsyncIterable<T> | Iterable<T>, size: number): AsyncGenerator<T[]> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`group size must be a positive integer, got ${size}`);
  let group: T[] = [];
  for await (const item of items) {
    group.push(item);
    if (group.length === size) {
      yield group;
      group = [];
    }
  }
  if (group.length) yield group;
}
