// The search engine: a band-bitboard solver in AssemblyScript, compiled to WebAssembly by
// scripts/build.mjs (wasm-search.ts loads it). What was tried, with the figures, is in docs/solver.md.
//
// WHY WEBASSEMBLY. The same search in TypeScript (bench/search-typescript.ts, tuned as far as it
// went) runs 1.3-1.9x slower under V8 (Node 24, the shared puzzle sets, counting to two; `npm run
// bench` re-measures it): in WebAssembly every value is a plain 32-bit integer in a register, the
// state is raw memory (no typed-array bounds checks, no tagging, no deoptimisation), and
// ctz/popcnt are single instructions. 128-bit SIMD where a band's 9 digits are worked on at once
// (clearCells, the naked-single count, the column check, copyLevel): the baseline WebAssembly
// SIMD, which V8 maps to SSE on x86-64 and to NEON on arm64 (the same answers there: tested).
//
// REPRESENTATION. For each band b (0-2: rows 0-2, 3-5, 6-8) and digit d (0-8) one 27-bit integer
// F[b*9+d] holds the cells of that band where d is still possible. Band-major, so a band's 9 digits
// are contiguous: removing placed cells from all of them is two 4-lane vectors and one int
// (scalar, the same layout ran 5-19% slower; digit-major scalar, as before, 9-33% slower on the
// hard sets). Bit = 9*(row in band) + column:
//
//        col 0 1 2   3 4 5   6 7 8         a "minirow" is 3 bits: one row of one box
//   row 0:  [ 0  1  2 | 3  4  5 | 6  7  8]  <- bits 0-8
//   row 1:  [ 9 10 11 |12 13 14 |15 16 17]  <- bits 9-17
//   row 2:  [18 19 20 |21 22 23 |24 25 26]  <- bits 18-26
//            box 0      box 1     box 2
//
// Every rule below is a handful of word-wide ANDs, shifts and 512-entry table lookups. U[b] holds
// the band's unsolved cells. A search level is 32 ints (F[27], U[3], 2 spare) in linear memory; a
// guess copies the level below it (state copied, never undone), so backtracking is just returning.
//
// PROPAGATION (to a fixpoint, driven by a 27-bit mask of digit-bands that changed, bit b*9+d,
// visited digit by digit; see propagate()):
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
// guesses but cost more per node than they saved (-8% to -25% puzzles/s on the hard sets; hidden
// singles in columns again in SIMD, 8-18% fewer guesses: 0.96-1.10x, not kept).
// Eliminations (placements included) are written unconditionally and marked dirty branch-free:
// mispredicted branches were the largest single cost (+25-35% once removed). For the same reason
// the text is parsed, the givens loaded and the solution written without a branch per cell.
//
// SEARCH: branch on a cell with the fewest candidates (two, almost always), and among those on
// the one with the most unsolved peers in its row, column and box (the "degree" rule: half the
// guesses of the first two-candidate cell on the hardest sets; the last propagation pass leaves
// the two- and three-candidate cells in BI and TRI, so choosing costs no second count); depth
// first; every alternative but the last runs on a copy, the last continues in place. An attempt
// that runs past its guess budget restarts with the other rule (a digit's two places in a row):
// see run().
//
// INTERFACE (wasm-search.ts): the caller writes a board at cellsIn() (81 bytes, 0 = empty) or at
// textIn() (81 UTF-16 code units), calls searchCells or searchText, and reads cellsOut().
// searchExcluding asks for a solution of the cells at cellsIn() with one digit barred from one
// cell: the generator's uniqueness test when it removes a given.

const ALL: i32 = 0x7ffffff;
const SLOT: i32 = 32;
const SLOT_BYTES: i32 = SLOT * 4;
const U_OFF: i32 = 27;
const MAX_DEPTH: i32 = 82;

/** MINI[row9] -> which of the row's 3 minirows still hold a candidate. */
const MINI = memory.data(512 * 4);
/** ROW_SINGLE[row9] -> row9 when exactly one cell is left, else 0. */
const ROW_SINGLE = memory.data(512 * 4);
/** COMPLEX[minirows9] -> the cells of every row/box permutation that fits in minirows9 (0: none fits). */
const COMPLEX = memory.data(512 * 4);
/** LOCK27[cols9] -> columns a box confines the digit to, repeated over the band's 3 rows. */
const LOCK27 = memory.data(512 * 4);
/** SPREAD27[cols9] -> the 9 column bits repeated on all 3 rows of a band. */
const SPREAD27 = memory.data(512 * 4);
/** PEERS27[pos] -> the cells of a band in the same row, box or column as cell `pos` (itself included). */
const PEERS27 = memory.data(27 * 4);
const STACK = memory.data(SLOT_BYTES * MAX_DEPTH);
/** Level 0 as loaded from the givens, restored at each attempt. */
const GIVENS = memory.data(SLOT_BYTES);
const CELLS_IN = memory.data(96);
const TEXT_IN = memory.data(192);
const CELLS_OUT = memory.data(96);
/** Per band, the unsolved cells with two (BI) and three (TRI) candidates, as the last propagation pass left them. */
const BI = memory.data(16);
const TRI = memory.data(16);

function at(table: usize, index: i32): i32 {
  return load<i32>(table + ((<usize>index) << 2));
}

function setAt(table: usize, index: i32, value: i32): void {
  store<i32>(table + ((<usize>index) << 2), value);
}

// The tables, built at instantiation. A band-shape permutation as 9 minirow bits: row r in box p[r].
for (let x = 0; x < 512; x++) {
  setAt(MINI, x, (x & 7 ? 1 : 0) | (x & 56 ? 2 : 0) | (x & 448 ? 4 : 0));
  setAt(ROW_SINGLE, x, x && !(x & (x - 1)) ? x : 0);
  let allowed = 0;
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      if (b === a) continue;
      const perm = (1 << a) | (1 << (3 + b)) | (1 << (6 + 3 - a - b));
      if ((perm & x) === perm) allowed |= perm;
    }
  }
  let cells = 0;
  for (let bit = 0; bit < 9; bit++) if (allowed & (1 << bit)) cells |= 7 << ((bit / 3) * 9 + (bit % 3) * 3);
  setAt(COMPLEX, x, cells);
  let lock = 0;
  for (let k = 0; k < 3; k++) {
    const t = (x >> (3 * k)) & 7;
    if (t && !(t & (t - 1))) lock |= t << (3 * k);
  }
  setAt(LOCK27, x, lock | (lock << 9) | (lock << 18));
  setAt(SPREAD27, x, x | (x << 9) | (x << 18));
}
for (let pos = 0; pos < 27; pos++) {
  const col = pos % 9;
  const boxCols = 7 << ((col / 3) * 3);
  setAt(PEERS27, pos, (511 << ((pos / 9) * 9)) | boxCols | (boxCols << 9) | (boxCols << 18) | at(SPREAD27, 1 << col));
}

let solutionCount: i32 = 0;
let limit: i32 = 1;
let guessCount: i32 = 0;
/** Guesses allowed in the current attempt; past it the search unwinds and `gaveUp` is set. */
let budget: i32 = 0;
let gaveUp = false;
/** false: branch on a two-candidate cell (the default); true: on a digit's two places in a band row. */
let branchOnRows = false;
let totalGuesses: i32 = 0;

/**
 * Confine digit-band `x` to `cells` in each band row where `cells` has a bit.
 * Returns the new value, or -1 when two of `cells` share a row (the digit would appear twice).
 */
function confineRows(x: i32, cells: i32): i32 {
  const c0 = cells & 511;
  const c1 = (cells >>> 9) & 511;
  const c2 = cells >>> 18;
  if ((c0 & (c0 - 1)) | (c1 & (c1 - 1)) | (c2 & (c2 - 1))) return -1;
  const rows = (((c0 + 511) >>> 9) * 511) | ((((c1 + 511) >>> 9) * 511) << 9) | ((((c2 + 511) >>> 9) * 511) << 18);
  return (x & ~rows) | cells;
}

/**
 * Clear `cells` from the 9 digit-bands of one band (9 ints at p: digits 0-8); returns the changed
 * ones as bits 0-8. Two 4-lane vectors and one int: 11 instructions where the scalar loop took 60.
 */
function clearCells(p: usize, cells: i32): i32 {
  const m = i32x4.splat(cells);
  const v0 = v128.load(p);
  const v1 = v128.load(p, 16);
  const x8 = load<i32>(p, 32);
  v128.store(p, v128.andnot(v0, m));
  v128.store(p, v128.andnot(v1, m), 16);
  store<i32>(p, x8 & ~cells, 32);
  const zero = i32x4.splat(0);
  return (
    i32x4.bitmask(i32x4.ne(v128.and(v0, m), zero)) |
    (i32x4.bitmask(i32x4.ne(v128.and(v1, m), zero)) << 4) |
    ((((x8 & cells) + ALL) >>> 27) << 8)
  );
}

/** Whether each digit still has a place in each column (its 3 bands folded onto one row cover all 9). */
function everyColumnHasEveryDigit(s: usize): bool {
  const d0 = v128.or(v128.or(v128.load(s), v128.load(s, 36)), v128.load(s, 72));
  const d4 = v128.or(v128.or(v128.load(s, 16), v128.load(s, 52)), v128.load(s, 88));
  const d8 = load<i32>(s, 32) | load<i32>(s, 68) | load<i32>(s, 104);
  let all = v128.and(foldRows(d0), foldRows(d4));
  all = v128.and(all, v128.shuffle<i32>(all, all, 2, 3, 0, 1));
  all = v128.and(all, v128.shuffle<i32>(all, all, 1, 0, 3, 2));
  return (i32x4.extract_lane(all, 0) & (d8 | (d8 >>> 9) | (d8 >>> 18)) & 511) === 511;
}

/** Each lane's three band rows ORed onto its first row. */
function foldRows(x: v128): v128 {
  return v128.or(v128.or(x, i32x4.shr_u(x, 9)), i32x4.shr_u(x, 18));
}

/** Propagate from the digit-bands in `dirty` to a fixpoint; false on contradiction. */
function propagate(s: usize, dirty: i32): bool {
  // The digit-bands of the digit just visited go first (a digit's three bands settle each other's
  // column locks): 17% fewer steps than band order on 17-clue puzzles, 10% on the hardest.
  let digit = 0x40201;
  while (true) {
    while (dirty) {
      const same = dirty & digit;
      const i = ctz(same ? same : dirty);
      dirty &= ~(1 << i);
      let S = at(s, i);
      S &= at(COMPLEX, at(MINI, S & 511) | (at(MINI, (S >>> 9) & 511) << 3) | (at(MINI, S >>> 18) << 6));
      if (S === 0) return false;
      const b = i32(i >= 9) + i32(i >= 18);
      // Placement, written unconditionally: about half the digit-bands place a digit, a coin toss
      // for the branch predictor. The digit's own band loses its cells too and gets S back below.
      const placed =
        at(ROW_SINGLE, S & 511) | (at(ROW_SINGLE, (S >>> 9) & 511) << 9) | (at(ROW_SINGLE, S >>> 18) << 18);
      const unsolved = at(s, U_OFF + b);
      const newly = placed & unsolved;
      setAt(s, U_OFF + b, unsolved ^ newly);
      dirty |= clearCells(s + <usize>(b * 36), newly) << (b * 9);
      // The column lock goes to the digit's two other bands.
      const lock = at(LOCK27, (S | (S >>> 9) | (S >>> 18)) & 511);
      digit = 0x40201 << (i - b * 9);
      const j1 = b === 2 ? i - 18 : i + 9;
      const j2 = b === 0 ? i + 18 : i - 9;
      const v1 = at(s, j1);
      setAt(s, j1, v1 & ~lock);
      const v2 = at(s, j2);
      setAt(s, j2, v2 & ~lock);
      dirty = (dirty | ((((v1 & lock) + ALL) >>> 27) << j1) | ((((v2 & lock) + ALL) >>> 27) << j2)) & ~(1 << i);
      setAt(s, i, S);
    }

    for (let b = 0; b < 3; b++) {
      const U = at(s, U_OFF + b);
      // Bit-sliced counting (at least 1, 2, 3, 4 candidates) of the band's 9 digits: per lane over
      // digits d, d+4 (and 8 in lane 0), then lanes 2-3 onto 0-1, then lane 1 onto 0.
      const p = s + <usize>(b * 36);
      const v0 = v128.load(p);
      const v1 = v128.load(p, 16);
      const x8 = i32x4.replace_lane(i32x4.splat(0), 0, load<i32>(p, 32));
      let a1 = v128.or(v0, v1);
      let a2 = v128.and(v0, v1);
      const a3 = v128.and(a2, x8);
      a2 = v128.or(a2, v128.and(a1, x8));
      a1 = v128.or(a1, x8);
      let b1 = v128.shuffle<i32>(a1, a1, 2, 3, 0, 1);
      let b2 = v128.shuffle<i32>(a2, a2, 2, 3, 0, 1);
      let b3 = v128.shuffle<i32>(a3, a3, 2, 3, 0, 1);
      const c1 = v128.or(a1, b1);
      const c2 = v128.or(v128.or(a2, b2), v128.and(a1, b1));
      const c3 = v128.or(v128.or(a3, b3), v128.or(v128.and(a2, b1), v128.and(a1, b2)));
      const c4 = v128.or(v128.or(v128.and(a3, b1), v128.and(a2, b2)), v128.and(a1, b3));
      b1 = v128.shuffle<i32>(c1, c1, 1, 0, 3, 2);
      b2 = v128.shuffle<i32>(c2, c2, 1, 0, 3, 2);
      b3 = v128.shuffle<i32>(c3, c3, 1, 0, 3, 2);
      const b4 = v128.shuffle<i32>(c4, c4, 1, 0, 3, 2);
      const one = i32x4.extract_lane(v128.or(c1, b1), 0);
      const two = i32x4.extract_lane(v128.or(v128.or(c2, b2), v128.and(c1, b1)), 0);
      const three = i32x4.extract_lane(v128.or(v128.or(c3, b3), v128.or(v128.and(c2, b1), v128.and(c1, b2))), 0);
      const four = i32x4.extract_lane(
        v128.or(v128.or(v128.or(c4, b4), v128.and(c3, b1)), v128.or(v128.and(c2, b2), v128.and(c1, b3))),
        0,
      );
      setAt(BI, b, U & two & ~three);
      setAt(TRI, b, U & three & ~four);
      if (U & ~one) return false;
      const N = U & ~two;
      if (!N) continue;
      for (let j = b * 9; j < b * 9 + 9; j++) {
        const x = at(s, j);
        const c = x & N;
        if (!c) continue;
        const y = confineRows(x, c);
        if (y < 0) return false;
        if (y !== x) {
          setAt(s, j, y);
          dirty |= 1 << j;
        }
      }
    }
    if (!everyColumnHasEveryDigit(s)) return false;
    if (!dirty) return true;
  }
}

function recordSolution(s: usize): void {
  // A solved digit-band holds exactly one cell per row: three stores, no loop to mispredict.
  for (let b = 0; b < 3; b++) {
    const out = CELLS_OUT + <usize>(b * 27);
    for (let d = 0; d < 9; d++) {
      const digit = <u8>(d + 1);
      let x = at(s, b * 9 + d);
      store<u8>(out + <usize>ctz(x), digit);
      x &= x - 1;
      store<u8>(out + <usize>ctz(x), digit);
      x &= x - 1;
      store<u8>(out + <usize>ctz(x), digit);
    }
  }
}

/** Copy the search level at `s` to the next one (where a guess is tried); returns its address. */
function copyLevel(s: usize): usize {
  const next = s + SLOT_BYTES;
  // Eight vector moves, inline: V8 compiles memory.copy to a call into the runtime.
  for (let k: usize = 0; k < <usize>SLOT_BYTES; k += 16) v128.store(next + k, v128.load(s + k));
  return next;
}

/** Depth-first search from the level at `s`; true once `limit` solutions were found (or the budget ran out). */
function search(s: usize, dirty: i32): bool {
  while (true) {
    if (!propagate(s, dirty)) return false;
    const U0 = at(s, U_OFF);
    const U1 = at(s, U_OFF + 1);
    const U2 = at(s, U_OFF + 2);
    if (!(U0 | U1 | U2)) {
      if (solutionCount === 0) recordSolution(s);
      return ++solutionCount >= limit;
    }
    if (guessCount >= budget) {
      gaveUp = true;
      return true;
    }
    if (branchOnRows) {
      // The first band row where a digit has exactly two places: there, or at the other one.
      let found = -1;
      let first = 0;
      for (let k = 0; k < 27 && found < 0; k++) {
        const j = (k % 3) * 9 + k / 3;
        const x = at(s, j);
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
        guessCount++;
        const next = copyLevel(s);
        setAt(next, found, confineRows(at(next, found), first));
        if (search(next, 1 << found)) return true;
        setAt(s, found, at(s, found) & ~first);
        dirty = 1 << found;
        continue;
      }
    }
    // Branch on a cell with the fewest candidates (two, almost always) and, among those, the most
    // unsolved peers: either choice then constrains the most cells.
    const bi0 = at(BI, 0);
    const bi1 = at(BI, 1);
    const bi2 = at(BI, 2);
    const tri0 = at(TRI, 0);
    const tri1 = at(TRI, 1);
    const tri2 = at(TRI, 2);
    let choice0 = bi0;
    let choice1 = bi1;
    let choice2 = bi2;
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
        const pos = ctz(c);
        const col = pos % 9;
        const column = at(SPREAD27, 1 << col);
        const degree = popcnt(U & at(PEERS27, pos)) + popcnt(((Ua & column) >>> col) | (((Ub & column) >>> col) << 1));
        if (degree > best) {
          best = degree;
          band = b;
          cell = c;
        }
      }
    }
    // Try each candidate digit of the cell but the last on a copy; the last one continues in place.
    let last = -1;
    for (let j = band * 9; j < band * 9 + 9; j++) {
      if (!(at(s, j) & cell)) continue;
      if (last >= 0) {
        guessCount++;
        const next = copyLevel(s);
        setAt(next, last, confineRows(at(next, last), cell));
        if (search(next, 1 << last)) return true;
      }
      last = j;
    }
    setAt(s, last, confineRows(at(s, last), cell));
    dirty = 1 << last;
  }
}

/** The first attempt's guess budget: 4x the most any puzzle of the shared hard sets needs. */
const FIRST_BUDGET: i32 = 8192;

/**
 * Search from the loaded level 0. A few rare boards (mostly ones with no solution) defeat one
 * branching rule and not the other: one seen here takes 2.5 million guesses branching on cells
 * and 21 branching on rows. So the search restarts with the other rule whenever an attempt
 * exceeds its budget, and the budget grows 4x every two attempts; the total work stays within a
 * small factor of the better rule's. Returns the solutions found (up to max), or -1 past maxGuesses.
 */
function run(max: i32, maxGuesses: i32): i32 {
  memory.copy(GIVENS, STACK, SLOT_BYTES);
  limit = max;
  let total = 0;
  let allowance = FIRST_BUDGET;
  for (let attempt = 0; ; attempt++) {
    if (attempt) memory.copy(STACK, GIVENS, SLOT_BYTES);
    solutionCount = 0;
    guessCount = 0;
    gaveUp = false;
    branchOnRows = attempt % 2 === 1;
    budget = min(allowance, maxGuesses - total);
    search(STACK, ALL);
    total += guessCount;
    if (!gaveUp) break;
    if (total >= maxGuesses) {
      totalGuesses = total;
      return -1;
    }
    if (attempt % 2 === 1) allowance *= 4;
  }
  totalGuesses = total;
  return solutionCount;
}

/**
 * Level 0 from the 81 cells at `cells` (0 = empty). Per band, the given cells leave every digit
 * and the unsolved cells at once (30 writes, not 9 per given, and the first propagation has no
 * given left to place); then each digit keeps only its given cell in that band row. false when
 * two equal givens share a row. Two in a box or a column need no check here: the band shape (box)
 * or the column lock empties a row in the first propagation.
 */
function loadLevel0(cells: usize): bool {
  for (let b = 0; b < 3; b++) {
    const row = cells + <usize>(b * 27);
    let given = 0;
    for (let pos = 0; pos < 27; pos++) given |= i32(load<u8>(row + <usize>pos) !== 0) << pos;
    const keep = ALL & ~given;
    for (let j = b * 9; j < b * 9 + 9; j++) setAt(STACK, j, keep);
    setAt(STACK, U_OFF + b, keep);
    // Only the givens are visited (about a fifth of the cells), so no branch per cell to mispredict.
    let rest = given;
    while (rest) {
      const pos = ctz(rest);
      rest &= rest - 1;
      const k = b * 9 + <i32>load<u8>(row + <usize>pos) - 1;
      const rowCells = 511 << ((i32(pos >= 9) + i32(pos >= 18)) * 9);
      const x = at(STACK, k);
      // The row keeps no other given cell of any digit, so a given cell left in it is this digit's.
      if (x & rowCells & given) return false;
      setAt(STACK, k, (x & ~rowCells) | (1 << pos));
    }
  }
  return true;
}

/** Where the caller writes a board of 81 cells (bytes, 0 = empty) for searchCells. */
export function cellsIn(): usize {
  return CELLS_IN;
}

/** Where the caller writes 81 UTF-16 code units for searchText. */
export function textIn(): usize {
  return TEXT_IN;
}

/** Where the search leaves 81 cells: the first solution found (searchText: the givens when none). */
export function cellsOut(): usize {
  return CELLS_OUT;
}

/** Guesses made by the last search, over every attempt. */
export function guesses(): i32 {
  return totalGuesses;
}

/** Count the solutions (up to max) of the cells at cellsIn(); the first one goes to cellsOut(). -1: gave up. */
export function searchCells(max: i32, maxGuesses: i32): i32 {
  if (!loadLevel0(CELLS_IN)) {
    totalGuesses = 0;
    return 0;
  }
  return run(max, maxGuesses);
}

/**
 * Whether the cells at cellsIn() have a solution with `digit` (1-9) not at the empty `cell`:
 * 1 if one is found (it goes to cellsOut()), 0 if none, -1 past maxGuesses. A generator that
 * removes a given from a puzzle with one solution asks this instead of counting to two: any
 * second solution must differ at that cell, and the search skips the known solution's subtree.
 */
export function searchExcluding(cell: i32, digit: i32, maxGuesses: i32): i32 {
  if (!loadLevel0(CELLS_IN)) {
    totalGuesses = 0;
    return 0;
  }
  const k = (cell / 27) * 9 + digit - 1;
  setAt(STACK, k, at(STACK, k) & ~(1 << (cell % 27)));
  return run(1, maxGuesses);
}

/**
 * searchCells for 81 characters of 1-9, '.' and '0' at textIn(): the givens go to cellsOut(),
 * then into level 0. Returns -2, having searched nothing, on any other character.
 */
export function searchText(max: i32, maxGuesses: i32): i32 {
  // Branch-free: a puzzle's givens fall at random places, a branch per cell would be a coin toss.
  let wrong = 0;
  for (let i = 0; i < 81; i++) {
    const c = <i32>load<u16>(TEXT_IN + ((<usize>i) << 1));
    const isDigit = <u32>(c - 49) < 9;
    wrong |= i32(!isDigit) & i32(c !== 48) & i32(c !== 46);
    store<u8>(CELLS_OUT + <usize>i, <u8>select(c - 48, 0, isDigit));
  }
  if (wrong) return -2;
  if (!loadLevel0(CELLS_OUT)) {
    totalGuesses = 0;
    return 0;
  }
  return run(max, maxGuesses);
}
