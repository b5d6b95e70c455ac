// (header written once measured)
import type { Cells } from './types.js';

const ALL = 0x7ffffff;
const SLOT = 64; // ints per search level: F[27] candidates, P[27] last-propagated, U[3] unsolved
const P_OFF = 27;
const U_OFF = 54;
const MAX_DEPTH = 82;

// ---- tables (built once at module load; 4 x 512 ints) ----
/** MINI[row9] -> 3 bits: which boxes of a 9-cell band row still hold a candidate. */
const MINI = new Int32Array(512);
/** ROW_SINGLE[row9] -> row9 if exactly one cell remains, else 0. */
const ROW_SINGLE = new Int32Array(512);
/** COMPLEX[mini9] -> 27-bit mask of cells that lie in some row/box permutation contained in mini9. */
const COMPLEX = new Int32Array(512);
/** LOCK27[cols9] -> columns (repeated over 3 rows) that a box confines the digit to. */
const LOCK27 = new Int32Array(512);
/** SPREAD27[cols9] -> the same 9 column bits repeated on all 3 rows of a band. */
const SPREAD27 = new Int32Array(512);

(function buildTables(): void {
  const perms = [
    [0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0],
  ].map((p) => (1 << p[0]!) | (1 << (3 + p[1]!)) | (1 << (6 + p[2]!)));
  for (let x = 0; x < 512; x++) {
    MINI[x] = (x & 7 ? 1 : 0) | (x & 56 ? 2 : 0) | (x & 448 ? 4 : 0);
    ROW_SINGLE[x] = x && !(x & (x - 1)) ? x : 0;
    let allowed = 0;
    for (const p of perms) if ((p & x) === p) allowed |= p;
    let cells = 0;
    for (let bit = 0; bit < 9; bit++) if (allowed & (1 << bit)) cells |= 7 << (((bit / 3) | 0) * 9 + (bit % 3) * 3);
    COMPLEX[x] = cells;
    let lock = 0;
    for (let k = 0; k < 3; k++) {
      const t = (x >> (3 * k)) & 7;
      if (t && !(t & (t - 1))) lock |= t << (3 * k);
    }
    LOCK27[x] = lock | (lock << 9) | (lock << 18);
    SPREAD27[x] = x | (x << 9) | (x << 18);
  }
})();

const stack = new Int32Array(SLOT * MAX_DEPTH);
let solutionCount = 0;
let limit = 1;
let guesses = 0;
let solutionOut: Uint8Array = new Uint8Array(81);

/**
 * Confine digit-band `x` to `cells` in each band row where `cells` has a bit.
 * Returns the new value, or -1 when two of `cells` share a row (the digit would appear twice).
 */
function confineRows(x: number, cells: number): number {
  for (let r = 0; r < 27; r += 9) {
    const c = (cells >>> r) & 511;
    if (c) {
      if (c & (c - 1)) return -1;
      x = (x & ~(511 << r)) | (c << r);
    }
  }
  return x;
}

/** Propagate to a fixpoint; false on contradiction. */
function propagate(s: Int32Array, base: number): boolean {
  for (;;) {
    let again = true;
    while (again) {
      again = false;
      for (let i = 0; i < 27; i++) {
        let S = s[base + i]!;
        if (S === s[base + P_OFF + i]) continue;
        again = true;
        S &= COMPLEX[MINI[S & 511]! | (MINI[(S >>> 9) & 511]! << 3) | (MINI[S >>> 18]! << 6)]!;
        if (S === 0) return false;
        s[base + i] = S;
        s[base + P_OFF + i] = S;
        const b = i % 3;
        const placed = ROW_SINGLE[S & 511]! | (ROW_SINGLE[(S >>> 9) & 511]! << 9) | (ROW_SINGLE[S >>> 18]! << 18);
        const newly = placed & s[base + U_OFF + b]!;
        if (newly) {
          s[base + U_OFF + b] ^= newly;
          const keep = ~newly;
          for (let j = base + b; j < base + 27; j += 3) if (j !== base + i) s[j] &= keep;
        }
        const lock = LOCK27[(S | (S >>> 9) | (S >>> 18)) & 511]!;
        if (lock) {
          const keep = ~lock;
          const d3 = base + i - b;
          if (b !== 0) s[d3] &= keep;
          if (b !== 1) s[d3 + 1] &= keep;
          if (b !== 2) s[d3 + 2] &= keep;
        }
      }
    }

    let progress = false;
    // Naked singles: unsolved cells left with one digit.
    for (let b = 0; b < 3; b++) {
      const U = s[base + U_OFF + b]!;
      if (!U) continue;
      let one = 0;
      let two = 0;
      for (let j = base + b; j < base + 27; j += 3) {
        const x = s[j]!;
        two |= one & x;
        one |= x;
      }
      if (U & ~one) return false;
      const N = U & ~two;
      if (!N) continue;
      for (let j = base + b; j < base + 27; j += 3) {
        const x = s[j]!;
        const c = x & N;
        if (!c) continue;
        const y = confineRows(x, c);
        if (y < 0) return false;
        if (y !== x) {
          s[j] = y;
          progress = true;
        }
      }
    }
    // Hidden singles in columns (rows and boxes are already covered by the band logic above).
    for (let j = base; j < base + 27; j += 3) {
      const S0 = s[j]!, S1 = s[j + 1]!, S2 = s[j + 2]!;
      const p0 = (S0 | (S0 >>> 9) | (S0 >>> 18)) & 511;
      const p1 = (S1 | (S1 >>> 9) | (S1 >>> 18)) & 511;
      const p2 = (S2 | (S2 >>> 9) | (S2 >>> 18)) & 511;
      if ((p0 | p1 | p2) !== 511) return false;
      const q0 = (S0 & (S0 >>> 9)) | ((S0 | (S0 >>> 9)) & (S0 >>> 18));
      const q1 = (S1 & (S1 >>> 9)) | ((S1 | (S1 >>> 9)) & (S1 >>> 18));
      const q2 = (S2 & (S2 >>> 9)) | ((S2 | (S2 >>> 9)) & (S2 >>> 18));
      const o0 = p0 & ~q0 & ~p1 & ~p2;
      const o1 = p1 & ~q1 & ~p0 & ~p2;
      const o2 = p2 & ~q2 & ~p0 & ~p1;
      if (o0) {
        const y = confineRows(S0, S0 & SPREAD27[o0]!);
        if (y < 0) return false;
        if (y !== S0) { s[j] = y; progress = true; }
      }
      if (o1) {
        const y = confineRows(S1, S1 & SPREAD27[o1]!);
        if (y < 0) return false;
        if (y !== S1) { s[j + 1] = y; progress = true; }
      }
      if (o2) {
        const y = confineRows(S2, S2 & SPREAD27[o2]!);
        if (y < 0) return false;
        if (y !== S2) { s[j + 2] = y; progress = true; }
      }
    }
    if (!progress) return true;
  }
}

function recordSolution(s: Int32Array, base: number): void {
  const out = solutionOut;
  for (let i = 0; i < 27; i++) {
    const digit = ((i / 3) | 0) + 1;
    const offset = (i % 3) * 27;
    let x = s[base + i]!;
    while (x) {
      const bit = x & -x;
      out[offset + 31 - Math.clz32(bit)] = digit;
      x ^= bit;
    }
  }
}

/** Depth-first search from level `depth`; true once `limit` solutions were found. */
function search(depth: number): boolean {
  const s = stack;
  const base = depth * SLOT;
  for (;;) {
    if (!propagate(s, base)) return false;
    const U0 = s[base + U_OFF]!, U1 = s[base + U_OFF + 1]!, U2 = s[base + U_OFF + 2]!;
    if (!(U0 | U1 | U2)) {
      if (solutionCount === 0) recordSolution(s, base);
      return ++solutionCount >= limit;
    }
    // Branch on a cell with the fewest candidates, preferring the first two-candidate cell.
    let band = -1;
    let cell = 0;
    let bestRank = 4;
    for (let b = 0; b < 3 && bestRank > 0; b++) {
      const U = s[base + U_OFF + b]!;
      if (!U) continue;
      let one = 0, two = 0, three = 0;
      for (let j = base + b; j < base + 27; j += 3) {
        const x = s[j]!;
        three |= two & x;
        two |= one & x;
        one |= x;
      }
      const bi = U & two & ~three;
      if (bi) { band = b; cell = bi & -bi; bestRank = 0; break; }
      if (bestRank > 1) {
        const tri = U & three;
        band = b; cell = (tri || U) & -(tri || U); bestRank = tri ? 1 : 2;
      }
    }
    // Try each candidate digit of the cell but the last on a copy; the last one continues in place.
    let last = -1;
    for (let j = base + band; j < base + 27; j += 3) {
      if (!(s[j]! & cell)) continue;
      if (last >= 0) {
        guesses++;
        const next = base + SLOT;
        s.copyWithin(next, base, base + SLOT);
        const x = s[next + last - base]!;
        s[next + last - base] = confineRows(x, cell);
        if (search(depth + 1)) return true;
      }
      last = j;
    }
    s[last] = confineRows(s[last]!, cell);
  }
}

/** Guesses made by the last countSolutions call. */
export function lastGuessCount(): number {
  return guesses;
}

/**
 * Count the solutions of `cells` up to `max` (1 or 2), writing the first one found into `out`.
 * Conflicting givens simply yield 0. Not re-entrant: the search state is module-level and reused,
 * so solving allocates nothing.
 */
export function countSolutions(cells: Cells, max: number, out: Uint8Array): number {
  const s = stack;
  for (let i = 0; i < 27; i++) {
    s[i] = ALL;
    s[P_OFF + i] = -1;
  }
  s[U_OFF] = s[U_OFF + 1] = s[U_OFF + 2] = ALL;
  for (let i = 0; i < 81; i++) {
    const d = cells[i]!;
    if (!d) continue;
    const b = (i / 27) | 0;
    const bit = 1 << (i - b * 27);
    for (let j = b; j < 27; j += 3) s[j] &= ~bit;
    const k = (d - 1) * 3 + b;
    // The digit keeps only this cell in its band row (the cell itself may already be gone: a conflict).
    const row = (((i - b * 27) / 9) | 0) * 9;
    s[k] = (s[k]! & ~(511 << row)) | bit;
  }
  solutionCount = 0;
  limit = max;
  guesses = 0;
  solutionOut = out;
  search(0);
  return solutionCount;
}
