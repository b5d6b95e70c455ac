// Unavoidable sets of a solution grid, for the generator's carve: a set of cells whose digits can
// be rearranged into another valid grid. A puzzle of that grid must keep a given in every such
// set, or the other grid is a second solution. So when a removal would leave a known set with no
// given, the removal fails without a search. Those searches were the carve's dearest: finding a
// second solution took 2.5 us (about four guesses), proving there is none 1.0 us (AMD EPYC,
// 2026-12-05), and 24 of an attempt's 40 searches found one (one per given the puzzle keeps).
//
// Two families, both found in a few microseconds per grid:
// - Two digits a and b. In each row, column and box, a's cell and b's cell must swap together
//   or not at all, so the 18 cells fall into classes linked by those partners (closed over as
//   masks of the rows of a's and b's cells). Swapping a and b in one class gives another grid.
// - Two rows of one band (or two columns of one stack). Where they hold the same digits at some
//   set of positions, swapping the two lines there gives another grid (each swapped pair stays
//   in its column and its box). Those sets are the cycles of the map "this line's digit -> the
//   other line's digit at the same position"; a cycle of two digits is a class of that pair.
// A set of all 18 cells of a pair, or of two whole lines, is left out: a puzzle always keeps one.
// Together they answer 11.4 of an attempt's 24 failed removals (the pairs alone 9.0) on the hard
// level's attempts. The general sets of three digits (every way to re-partition their 27 cells
// into three digits' places) would answer about 2.4 more; the search over 84 triples per grid that
// finds them, as prototyped, cost far more than the searches it saves, so it is not built.
//
// A set is three 27-bit masks, one per band (rows 0-2, 3-5, 6-8: bit 9 * (row % 3) + column).
import { BOX, COL, ROW } from './geometry.js';

/**
 * At most 4 sets per pair of digits (a class holds two of a's cells at least) and 3 per pair of
 * lines (a cycle kept has three positions at least); a cell lies in 8 pairs of digits (its digit
 * with each other) and 4 pairs of lines (its row with the band's two others, its column likewise).
 */
const MAX_SETS = 36 * 4 + 18 * 3;
const PER_CELL = 8 + 4;

export class UnavoidableSets {
  private readonly masks = new Int32Array(MAX_SETS * 3);
  private count = 0;
  private readonly ofCell = new Int16Array(81 * PER_CELL);
  private readonly ofCellCount = new Uint8Array(81);
  // Scratch, per grid: where digit d is in row r (its column), and the row of d in column k and in box x.
  private readonly colOf = new Uint8Array(81);
  private readonly rowInCol = new Uint8Array(81);
  private readonly rowInBox = new Uint8Array(81);
  /** Per row r, the b-rows linked to a's cell in row r (linkA) and the a-rows linked to b's (linkB). */
  private readonly linkA = new Uint16Array(9);
  private readonly linkB = new Uint16Array(9);
  /** swapLines' map between two lines' digits, and each digit's position in the first. */
  private readonly next = new Uint8Array(9);
  private readonly at = new Uint8Array(9);

  /** Find the sets of a full, valid grid (81 digits, row-major). */
  load(grid: ArrayLike<number>): void {
    this.count = 0;
    this.ofCellCount.fill(0);
    for (let c = 0; c < 81; c++) {
      const d = grid[c]! - 1;
      const r = ROW[c]!;
      this.colOf[d * 9 + r] = COL[c]!;
      this.rowInCol[d * 9 + COL[c]!] = r;
      this.rowInBox[d * 9 + BOX[c]!] = r;
    }
    for (let a = 0; a < 9; a++) for (let b = a + 1; b < 9; b++) this.splitPair(a, b);
    for (let band = 0; band < 3; band++) {
      for (let i = 0; i < 3; i++) {
        for (let j = i + 1; j < 3; j++) {
          this.swapLines(grid, (band * 3 + i) * 9, (band * 3 + j) * 9, 1);
          this.swapLines(grid, band * 3 + i, band * 3 + j, 9);
        }
      }
    }
  }

  /**
   * Two rows of one band (or two columns of one stack), cells first + k * step: in any set of
   * positions where they hold the same digits, swapping them gives another grid (each swapped pair
   * stays in its column and its box). Those sets are the cycles of the map "first line's digit ->
   * the other line's digit at the same position"; a cycle of 9 is the two whole lines.
   */
  private swapLines(grid: ArrayLike<number>, first: number, second: number, step: number): void {
    const { next, at } = this;
    for (let k = 0; k < 9; k++) {
      const d = grid[first + k * step]! - 1;
      next[d] = grid[second + k * step]! - 1;
      at[d] = k;
    }
    let left = 0x1ff;
    while (left) {
      let positions = 0;
      let length = 0;
      for (let d = 31 - Math.clz32(left & -left); left & (1 << d); d = next[d]!) {
        left &= ~(1 << d);
        positions |= 1 << at[d]!;
        length++;
      }
      // A cycle of two digits is a class of that pair, found above; one of nine is the two whole lines.
      if (length === 2 || length === 9) continue;
      const k = this.newSet();
      for (let m = positions; m; m &= m - 1) {
        const p = 31 - Math.clz32(m & -m);
        this.addCellAt(k, first + p * step);
        this.addCellAt(k, second + p * step);
      }
    }
  }

  /** The other digit's cells (as a mask of their rows) that must swap with digit d's cells in `rows`. */
  private partnersOf(link: Uint16Array, rows: number): number {
    let out = 0;
    for (let m = rows; m; m &= m - 1) out |= link[31 - Math.clz32(m & -m)]!;
    return out;
  }

  /** Classes as masks of rows: a's cells in rows A and b's cells in rows B swap together. */
  private splitPair(a: number, b: number): void {
    const { colOf, rowInCol, rowInBox, linkA, linkB } = this;
    for (let r = 0; r < 9; r++) {
      const ca = colOf[a * 9 + r]!;
      linkA[r] = (1 << r) | (1 << rowInCol[b * 9 + ca]!) | (1 << rowInBox[b * 9 + BOX[r * 9 + ca]!]!);
      const cb = colOf[b * 9 + r]!;
      linkB[r] = (1 << r) | (1 << rowInCol[a * 9 + cb]!) | (1 << rowInBox[a * 9 + BOX[r * 9 + cb]!]!);
    }
    let left = 0x1ff;
    while (left) {
      let rowsA = left & -left;
      let rowsB = 0;
      for (;;) {
        rowsB = this.partnersOf(linkA, rowsA);
        const grown = this.partnersOf(linkB, rowsB);
        if ((grown | rowsA) === rowsA) break;
        rowsA |= grown;
      }
      // One class of all 18 cells: no set smaller than the pair's whole.
      if (rowsA === 0x1ff) return;
      left &= ~rowsA;
      const k = this.newSet();
      for (let m = rowsA; m; m &= m - 1) this.addCell(k, a, 31 - Math.clz32(m & -m));
      for (let m = rowsB; m; m &= m - 1) this.addCell(k, b, 31 - Math.clz32(m & -m));
    }
  }

  /** A new, empty set; its index. */
  private newSet(): number {
    const k = this.count++;
    this.masks.fill(0, k * 3, k * 3 + 3);
    return k;
  }

  private addCell(k: number, digit: number, row: number): void {
    this.addCellAt(k, row * 9 + this.colOf[digit * 9 + row]!);
  }

  private addCellAt(k: number, c: number): void {
    this.masks[k * 3 + ((c / 27) | 0)]! |= 1 << (c % 27);
    this.ofCell[c * PER_CELL + this.ofCellCount[c]!++] = k;
  }

  /**
   * Whether a known set containing cell c has no given left among `givens` (three band masks of the
   * puzzle's givens, c already removed): then the puzzle has a second solution.
   */
  exposedAt(c: number, givens: Int32Array): boolean {
    const g0 = givens[0]!;
    const g1 = givens[1]!;
    const g2 = givens[2]!;
    for (let i = c * PER_CELL, end = i + this.ofCellCount[c]!; i < end; i++) {
      const o = this.ofCell[i]! * 3;
      if (((this.masks[o]! & g0) | (this.masks[o + 1]! & g1) | (this.masks[o + 2]! & g2)) === 0) return true;
    }
    return false;
  }

  /** The sets found, as 81-cell lists (for tests). */
  sets(): number[][] {
    const out: number[][] = [];
    for (let k = 0; k < this.count; k++) {
      const cells: number[] = [];
      for (let c = 0; c < 81; c++) if (this.masks[k * 3 + ((c / 27) | 0)]! & (1 << (c % 27))) cells.push(c);
      out.push(cells);
    }
    return out;
  }
}
