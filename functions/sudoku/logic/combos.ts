// The one combination search subsets and fish share, without closures or allocation (it runs
// at every point where singles stall): choose n of `count` masks whose union has exactly n
// bits, and let the caller's test, called only for such a union, accept it.

/** Per pick, the index chosen: read by the caller's test and after a find. */
export const picked = new Int8Array(4);

export type ComboTest = (union: number, chosen: number) => boolean;

/**
 * Depth-first over index combinations, pruning any partial union already over n bits.
 * Returns the `chosen` bitmask of indices accepted first, or 0.
 */
export function findCombo(
  masks: Uint16Array,
  count: number,
  n: number,
  test: ComboTest,
  depth = 0,
  start = 0,
  union = 0,
  chosen = 0,
): number {
  for (let i = start; i <= count - (n - depth); i++) {
    const u = union | masks[i]!;
    if (popcount(u) > n) continue;
    picked[depth] = i;
    if (depth + 1 === n) {
      if (popcount(u) === n && test(u, chosen | (1 << i))) return chosen | (1 << i);
      continue;
    }
    const found = findCombo(masks, count, n, test, depth + 1, i + 1, u, chosen | (1 << i));
    if (found) return found;
  }
  return 0;
}

export function popcount(m: number): number {
  m -= (m >>> 1) & 0x5555;
  m = (m & 0x3333) + ((m >>> 2) & 0x3333);
  m = (m + (m >>> 4)) & 0x0f0f;
  return (m + (m >>> 8)) & 0x1f;
}
