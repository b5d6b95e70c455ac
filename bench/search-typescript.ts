// The search in TypeScript, as it ran before it moved to WebAssembly (functions/sudoku/assembly/
// search.ts), with the last round of TypeScript tuning: the same bit layout of a band, rules and
// search order, but digit-major (F[d*3+b]) where the kernel is band-major (F[b*9+d], so a band's
// 9 digits sit together for its vector lanes), kept for one purpose. `npm run bench` times it against the kernel on the same puzzles in
// the same run, so on any machine (Graviton, the Lambda's arm64, included) one run shows whether
// WebAssembly still wins; test/bench checks that both still do the same work. Its notes:
//
// REPRESENTATION. For each digit d (0-8) and band b (0-2: rows 0-2, 3-5, 6-8) one 27-bit integer
// F[d*3+b] holds the cells of that band where d is still possible. Bit = 9*(row in band) + column:
//
//        col 0 1 2   3 4 5   6 7 8         a "minirow" is 3 bits: one row of one box
//   row 0:  [ 0  1  2 | 3  4  5 | 6  7  8]  <- bits 0-8
//   row 1:  [ 9 10 11 |12 13 14 |15 16 17]  <- bits 9-17
//   row 2:  [18 19 20 |21 22 23 |24 25 26]  <- bits 18-26
//            box 0      box 1     box 2
//
// 27 bits fit JavaScript's 32-bit integer operations exactly, so every rule below is a handful
// of word-wide ANDs, shifts and 512-entry table lookups. U[b] holds the band's unsolved cells.
// A search level is 30 ints (F, U), a view of one preallocated Int32Array (indexed from 0, so
// the hot loops use constant offsets); a guess copies the level below it (state copied, never
// undone), so backtracking is just returning.
//
// PROPAGATION (to a fixpoint, driven by a 27-bit mask of digit-bands that changed):
//  1. Band shape. In a band, a digit occupies one minirow per row and per box: one of the 6
//     permutations of 3x3. MINI folds each row into 3 minirow bits; COMPLEX[9 minirow bits]
//     keeps the cells of every permutation still possible. One lookup does hidden singles in
//     boxes, pointing and claiming between rows and boxes, and detects a row or box with no room.
//  2. Placement. A band row left with one cell is a placed digit: the cell leaves U and every
//     other digit's F.
//  3. Columns. A box whose candidates lie in one column locks that column: the other two bands
//     of the digit lose it (LOCK27), which also removes placed digits from their columns.
//  4. Naked singles. Bit-sliced counting over the 9 digits of a band finds unsolved cells with
//     one candidate left (placed as in 2) and cells with none (contradiction); a digit missing
//     from a whole column is a contradiction too.
// Why these and no more: hidden singles in columns, column-to-box claiming and triads each cut
// guesses but cost more per node than they saved (-8% to -25% puzzles/s on the hard sets).
// Eliminations (placements included) are written unconditionally and marked dirty branch-free:
// mispredicted branches were the largest single cost (+25-35% once removed). The loops over a
// band's 9 digits are unrolled by hand: V8 does not unroll them.
//
// SEARCH: branch on a cell with the fewest candidates (two, almost always), and among those on
// the one with the most unsolved peers in its row, column and box (the "degree" rule: half the
// guesses of the first two-candidate cell on the hardest sets); depth first; every alternative
// but the last runs on a copy, the last continues in place. An attempt that runs past its guess
// budget restarts with the other rule (a digit's two places in a row): see run().
import { type Cells, MAX_GUESSES, type SearchResult } from '../functions/sudoku/index.js';

const ALL = 0x7ffffff;
const SLOT = 32; // ints per search level: F[27] digit-band candidates, U[3] unsolved cells, 2 spare
const U_OFF = 27;
const MAX_DEPTH = 82;

// Tables (built once at load, 5 x 512 ints).
/** MINI[row9] -> which of the row's 3 minirows still hold a candidate. */
const MINI = new Int32Array(512);
/** ROW_SINGLE[row9] -> row9 when exactly one cell is left, else 0. */
const ROW_SINGLE = new Int32Array(512);
/** COMPLEX[minirows9] -> the cells of every row/box permutation that fits in minirows9 (0: none fits). */
const COMPLEX = new Int32Array(512);
/** LOCK27[cols9] -> columns a box confines the digit to, repeated over the band's 3 rows. */
const LOCK27 = new Int32Array(512);

(function buildTables(): void {
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
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
  }
})();

/** SPREAD27[cols9] -> the 9 column bits repeated on all 3 rows of a band. */
const SPREAD27 = Int32Array.from({ length: 512 }, (_, x) => x | (x << 9) | (x << 18));
/** PEERS27[pos] -> the cells of a band in the same row, box or column as cell `pos` (itself included). */
const PEERS27 = Int32Array.from({ length: 27 }, (_, pos) => {
  const col = pos % 9;
  const boxCols = 7 << (((col / 3) | 0) * 3);
  return (511 << (((pos / 9) | 0) * 9)) | boxCols | (boxCols << 9) | (boxCols << 18) | SPREAD27[1 << col]!;
});

/** BAND_OF[i] -> the band (i % 3) of digit-band i. */
const BAND_OF = Int32Array.from({ length: 27 }, (_, i) => i % 3);
/** OTHER1[i], OTHER2[i] -> the digit-bands of the same digit as digit-band i, in the other two bands. */
const OTHER1 = Int32Array.from({ length: 27 }, (_, i) => i - (i % 3) + ((i + 1) % 3));
const OTHER2 = Int32Array.from({ length: 27 }, (_, i) => i - (i % 3) + ((i + 2) % 3));

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const stack = new Int32Array(SLOT * MAX_DEPTH);
/** One view per search level, so the kernels index a level with small constants. */
const levels = Array.from({ length: MAX_DEPTH }, (_, depth) => stack.subarray(depth * SLOT, (depth + 1) * SLOT));
let solutionCount = 0;
let limit = 1;
let guesses = 0;
/** Guesses allowed in the current attempt; past it the search unwinds and `gaveUp` is set. */
let budget = 0;
let gaveUp = false;
/** false: branch on a two-candidate cell (the default); true: on a digit's two places in a band row. */
let branchOnRows = false;
let solutionOut: Uint8Array = new Uint8Array(81);

/**
 * Confine digit-band `x` to `cells` in each band row where `cells` has a bit.
 * Returns the new value, or -1 when two of `cells` share a row (the digit would appear twice).
 */
function confineRows(x: number, cells: number): number {
  const c0 = cells & 511,
    c1 = (cells >>> 9) & 511,
    c2 = cells >>> 18;
  if ((c0 & (c0 - 1)) | (c1 & (c1 - 1)) | (c2 & (c2 - 1))) return -1;
  const rows = (((c0 + 511) >>> 9) * 511) | ((((c1 + 511) >>> 9) * 511) << 9) | ((((c2 + 511) >>> 9) * 511) << 18);
  return (x & ~rows) | cells;
}

/** Propagate from the digit-bands in `dirty` to a fixpoint; false on contradiction. */
function propagate(s: Int32Array, dirty: number): boolean {
  for (;;) {
    while (dirty) {
      const bit = dirty & -dirty;
      dirty ^= bit;
      const i = 31 - Math.clz32(bit);
      let S = s[i]!;
      S &= COMPLEX[MINI[S & 511]! | (MINI[(S >>> 9) & 511]! << 3) | (MINI[S >>> 18]! << 6)]!;
      if (S === 0) return false;
      const b = BAND_OF[i]!;
      const placed = ROW_SINGLE[S & 511]! | (ROW_SINGLE[(S >>> 9) & 511]! << 9) | (ROW_SINGLE[S >>> 18]! << 18);
      const u = U_OFF + b;
      const U = s[u]!;
      const newly = placed & U;
      // Placement, unconditional: half of the digit-bands place a digit, so a branch on `newly`
      // would be a coin toss. The band's 9 digits are unrolled; this also clears the placed cells
      // from S's own slot and marks it dirty, both undone at the end.
      s[u] = U ^ newly;
      const keepPlaced = ~newly;
      const v0 = s[b]!,
        v1 = s[b + 3]!,
        v2 = s[b + 6]!,
        v3 = s[b + 9]!,
        v4 = s[b + 12]!,
        v5 = s[b + 15]!,
        v6 = s[b + 18]!,
        v7 = s[b + 21]!,
        v8 = s[b + 24]!;
      s[b] = v0 & keepPlaced;
      s[b + 3] = v1 & keepPlaced;
      s[b + 6] = v2 & keepPlaced;
      s[b + 9] = v3 & keepPlaced;
      s[b + 12] = v4 & keepPlaced;
      s[b + 15] = v5 & keepPlaced;
      s[b + 18] = v6 & keepPlaced;
      s[b + 21] = v7 & keepPlaced;
      s[b + 24] = v8 & keepPlaced;
      dirty |=
        ((((v0 & newly) + ALL) >>> 27) |
          ((((v1 & newly) + ALL) >>> 27) << 3) |
          ((((v2 & newly) + ALL) >>> 27) << 6) |
          ((((v3 & newly) + ALL) >>> 27) << 9) |
          ((((v4 & newly) + ALL) >>> 27) << 12) |
          ((((v5 & newly) + ALL) >>> 27) << 15) |
          ((((v6 & newly) + ALL) >>> 27) << 18) |
          ((((v7 & newly) + ALL) >>> 27) << 21) |
          ((((v8 & newly) + ALL) >>> 27) << 24)) <<
        b;
      // Columns: the digit's other two bands lose the columns a box of this band locks.
      const lock = LOCK27[(S | (S >>> 9) | (S >>> 18)) & 511]!;
      const keepLocked = ~lock;
      const j1 = OTHER1[i]!,
        j2 = OTHER2[i]!;
      const w1 = s[j1]!,
        w2 = s[j2]!;
      s[j1] = w1 & keepLocked;
      s[j2] = w2 & keepLocked;
      dirty = (dirty | ((((w1 & lock) + ALL) >>> 27) << j1) | ((((w2 & lock) + ALL) >>> 27) << j2)) & ~bit;
      s[i] = S;
    }

    for (let b = 0; b < 3; b++) {
      const U = s[U_OFF + b]!;
      if (!U) continue;
      // Bit-sliced counting over the band's 9 digits, unrolled: cells with >= 1 and >= 2 candidates.
      const x0 = s[b]!,
        x1 = s[b + 3]!,
        x2 = s[b + 6]!,
        x3 = s[b + 9]!,
        x4 = s[b + 12]!,
        x5 = s[b + 15]!,
        x6 = s[b + 18]!,
        x7 = s[b + 21]!,
        x8 = s[b + 24]!;
      let one = x0 | x1;
      let two = x0 & x1;
      two |= one & x2;
      one |= x2;
      two |= one & x3;
      one |= x3;
      two |= one & x4;
      one |= x4;
      two |= one & x5;
      one |= x5;
      two |= one & x6;
      one |= x6;
      two |= one & x7;
      one |= x7;
      two |= one & x8;
      one |= x8;
      if (U & ~one) return false;
      const N = U & ~two;
      if (!N) continue;
      for (let j = b; j < 27; j += 3) {
        const x = s[j]!;
        const c = x & N;
        if (!c) continue;
        const y = confineRows(x, c);
        if (y < 0) return false;
        if (y !== x) {
          s[j] = y;
          dirty |= 1 << j;
        }
      }
    }
    // A digit missing from a column.
    for (let j = 0; j < 27; j += 3) {
      const cols = s[j]! | s[j + 1]! | s[j + 2]!;
      if (((cols | (cols >>> 9) | (cols >>> 18)) & 511) !== 511) return false;
    }
    if (!dirty) return true;
  }
}

function recordSolution(s: Int32Array): void {
  const out = solutionOut;
  for (let i = 0; i < 27; i++) {
    const digit = ((i / 3) | 0) + 1;
    const offset = (i % 3) * 27;
    let x = s[i]!;
    while (x) {
      const bit = x & -x;
      out[offset + 31 - Math.clz32(bit)] = digit;
      x ^= bit;
    }
  }
}

/** Copy a search level into the next one (where a guess is tried); returns the copy. */
function copyLevel(s: Int32Array, depth: number): Int32Array {
  const next = levels[depth + 1]!;
  // The 30 ints in use (F, U), three per iteration: V8 does not unroll loops.
  for (let k = 0; k < U_OFF + 3; k += 3) {
    next[k] = s[k]!;
    next[k + 1] = s[k + 1]!;
    next[k + 2] = s[k + 2]!;
  }
  return next;
}

/** Depth-first search from level `depth`; true once `limit` solutions were found. */
function search(depth: number, dirty: number): boolean {
  const s = levels[depth]!;
  for (;;) {
    if (!propagate(s, dirty)) return false;
    const U0 = s[U_OFF]!,
      U1 = s[U_OFF + 1]!,
      U2 = s[U_OFF + 2]!;
    if (!(U0 | U1 | U2)) {
      if (solutionCount === 0) recordSolution(s);
      return ++solutionCount >= limit;
    }
    if (guesses >= budget) {
      gaveUp = true;
      return true;
    }
    if (branchOnRows) {
      // The first band row where a digit has exactly two places: there, or at the other one.
      let found = -1;
      let first = 0;
      for (let j = 0; j < 27 && found < 0; j++) {
        const x = s[j]!;
        for (let r = 0; r < 27; r += 9) {
          const row = (x >>> r) & 511;
          const rest = row & (row - 1);
          if (rest && !(rest & (rest - 1))) {
            found = j;
            first = (row & -row) << r;
            break;
          }
        }
      }
      if (found >= 0) {
        guesses++;
        const next = copyLevel(s, depth);
        next[found] = confineRows(next[found]!, first);
        if (search(depth + 1, 1 << found)) return true;
        s[found] = s[found]! & ~first;
        dirty = 1 << found;
        continue;
      }
    }
    // Branch on a cell with the fewest candidates (two, almost always) and, among those, the most
    // unsolved peers: either choice then constrains the most cells.
    let bi0 = 0,
      bi1 = 0,
      bi2 = 0,
      tri0 = 0,
      tri1 = 0,
      tri2 = 0;
    for (let b = 0; b < 3; b++) {
      const U = s[U_OFF + b]!;
      if (!U) continue;
      let one = 0,
        two = 0,
        three = 0,
        four = 0;
      for (let j = b; j < 27; j += 3) {
        const x = s[j]!;
        four |= three & x;
        three |= two & x;
        two |= one & x;
        one |= x;
      }
      const bi = U & two & ~three;
      const tri = U & three & ~four;
      if (b === 0) {
        bi0 = bi;
        tri0 = tri;
      } else if (b === 1) {
        bi1 = bi;
        tri1 = tri;
      } else {
        bi2 = bi;
        tri2 = tri;
      }
    }
    let choice0 = bi0,
      choice1 = bi1,
      choice2 = bi2;
    if (!(bi0 | bi1 | bi2)) {
      if (tri0 | tri1 | tri2) {
        choice0 = tri0;
        choice1 = tri1;
        choice2 = tri2;
      } else {
        choice0 = U0;
        choice1 = U1;
        choice2 = U2;
      }
    }
    let band = -1;
    let cell = 0;
    let best = -1;
    for (let b = 0; b < 3; b++) {
      let cells = b === 0 ? choice0 : b === 1 ? choice1 : choice2;
      if (!cells) continue;
      const U = b === 0 ? U0 : b === 1 ? U1 : U2;
      const Ua = b === 0 ? U1 : U0;
      const Ub = b === 2 ? U1 : U2;
      while (cells) {
        const c = cells & -cells;
        cells ^= c;
        const pos = 31 - Math.clz32(c);
        const col = pos % 9;
        const column = SPREAD27[1 << col]!;
        const degree = popcount(U & PEERS27[pos]!) + popcount(((Ua & column) >>> col) | (((Ub & column) >>> col) << 1));
        if (degree > best) {
          best = degree;
          band = b;
          cell = c;
        }
      }
    }
    // Try each candidate digit of the cell but the last on a copy; the last one continues in place.
    let last = -1;
    for (let j = band; j < 27; j += 3) {
      if (!(s[j]! & cell)) continue;
      if (last >= 0) {
        guesses++;
        const next = copyLevel(s, depth);
        next[last] = confineRows(next[last]!, cell);
        if (search(depth + 1, 1 << last)) return true;
      }
      last = j;
    }
    s[last] = confineRows(s[last]!, cell);
    dirty = 1 << last;
  }
}

/** The first attempt's guess budget: 4x the most any puzzle of the shared hard sets needs. */
const FIRST_BUDGET = 8192;
/** Level 0 as loaded from the givens, restored at each attempt. */
const givens = new Int32Array(SLOT);

function clearState(): void {
  const s = stack;
  for (let i = 0; i < 27; i++) s[i] = ALL;
  s[U_OFF] = s[U_OFF + 1] = s[U_OFF + 2] = ALL;
}

/** Confine digit `d` (1-9) to cell `i` (0-80) in level 0. */
function placeGiven(i: number, d: number): void {
  const s = stack;
  const b = (i / 27) | 0;
  const pos = i - b * 27;
  const bit = 1 << pos;
  for (let j = b; j < 27; j += 3) s[j] = s[j]! & ~bit;
  const k = (d - 1) * 3 + b;
  // The given keeps only its own cell in its band row (in loadText too); a second equal given in
  // that row wipes it out, which leaves a cell with no candidate: a contradiction found at once.
  const row = ((pos / 9) | 0) * 9;
  s[k] = (s[k]! & ~(511 << row)) | bit;
}

function loadCells(cells: Cells): void {
  clearState();
  for (let i = 0; i < 81; i++) {
    const d = cells[i]!;
    if (d) placeGiven(i, d);
  }
}

/**
 * Search from the loaded level 0. A few rare boards (mostly ones with no solution) defeat one
 * branching rule and not the other: one seen here takes 2.5 million guesses branching on cells
 * and 21 branching on rows. So the search restarts with the other rule whenever an attempt
 * exceeds its budget, and the budget grows 4x every two attempts; the total work stays within a
 * small factor of the better rule's.
 */
function run(max: number, out: Uint8Array, maxGuesses: number, result: SearchResult): SearchResult {
  const s = stack;
  for (let k = 0; k < SLOT; k++) givens[k] = s[k]!;
  limit = max;
  solutionOut = out;
  let total = 0;
  let allowance = FIRST_BUDGET;
  for (let attempt = 0; ; attempt++) {
    if (attempt) for (let k = 0; k < SLOT; k++) s[k] = givens[k]!;
    solutionCount = 0;
    guesses = 0;
    gaveUp = false;
    branchOnRows = attempt % 2 === 1;
    budget = Math.min(allowance, maxGuesses - total);
    search(0, ALL);
    total += guesses;
    if (!gaveUp) break;
    if (total >= maxGuesses) {
      result.count = -1;
      result.guesses = total;
      return result;
    }
    if (attempt % 2 === 1) allowance *= 4;
  }
  result.count = solutionCount;
  result.guesses = total;
  return result;
}

/**
 * Count the solutions of `cells` up to `max` (1 or 2), writing the first one found into `out`.
 * Conflicting givens simply yield 0. Not re-entrant: the search state is module-level and
 * reused, so solving allocates nothing (but the result object when none is passed).
 */
export function countSolutions(
  cells: Cells,
  max: number,
  out: Uint8Array,
  maxGuesses = MAX_GUESSES,
  result: SearchResult = { count: 0, guesses: 0 },
): SearchResult {
  loadCells(cells);
  return run(max, out, maxGuesses, result);
}
