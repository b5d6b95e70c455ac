// The generator's randomness: mulberry32, a 32-bit generator built from integer multiplies
// (Math.imul) and shifts only, so a seed gives the same stream on every engine and machine.
// Math.random is neither seedable nor the same across engines.

export type Random = () => number;

/** A stream of uint32 values from `seed`. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** An integer in [0, n), n <= 2^16 (the modulo bias is then below 2^-16: negligible here). */
export const below = (random: Random, n: number): number => random() % n;

/** Fisher-Yates, in place. */
export function shuffle<T extends { length: number; [i: number]: unknown }>(random: Random, items: T): T {
  for (let i = items.length - 1; i > 0; i--) {
    const j = below(random, i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/** A seed from text: FNV-1a over UTF-16 units, so "daily-2026-12-02" is as good a seed as 42. */
export function seedOf(seed: number | string): number {
  if (typeof seed === 'number') return seed >>> 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
