// The logical solver's state: the digits placed so far and, per empty cell, its candidates as
// a 9-bit mask (bit d-1 = digit d may still go there). Uint16Array rather than objects or Sets
// because every technique is a few AND/OR/popcount operations over these masks, and a board
// copy is two typed-array sets, with nothing for the garbage collector.
import { BOX, COL, DIGIT, PEERS, POPCOUNT, ROW } from './geometry.js';

export const ALL = 0x1ff;

/** UNIT_BITS[c]: c's row, column and box as bits of a 27-bit unit set (units as in geometry.ts). */
const UNIT_BITS = new Int32Array(81);
for (let c = 0; c < 81; c++) UNIT_BITS[c] = (1 << ROW[c]!) | (1 << (9 + COL[c]!)) | (1 << (18 + BOX[c]!));

export class Grid {
  readonly cells = new Uint8Array(81);
  readonly cand = new Uint16Array(81);
  /** Empty cells left. */
  empty = 81;
  /** Bumped by every change, so tables derived from the candidates can be reused (places.ts). */
  version = 0;
  /**
   * Units (27 bits) that lost a candidate since the singles loop last scanned them: a unit
   * outside this set has no hidden single (singles.ts). Only placements keep it; anything else
   * that removes candidates leaves it to settleSingles, which starts with every unit.
   */
  unscanned = 0x7ffffff;

  /**
   * Start from a board's digits, with every empty cell's candidates pruned by its peers.
   * Returns false when two equal digits see each other or a cell is left with no candidate;
   * callers check the board with the fast search first, so false means a caller's bug.
   */
  load(board: ArrayLike<number>): boolean {
    this.version++;
    this.cand.fill(ALL);
    this.cells.fill(0);
    this.empty = 81;
    for (let c = 0; c < 81; c++) {
      const d = board[c]!;
      if (d === 0) continue;
      if ((this.cand[c]! & (1 << (d - 1))) === 0) return false;
      this.place(c, d);
    }
    for (let c = 0; c < 81; c++) if (this.cells[c] === 0 && this.cand[c] === 0) return false;
    return true;
  }

  place(c: number, d: number): void {
    const off = ~(1 << (d - 1));
    this.cells[c] = d;
    this.cand[c] = 0;
    this.empty--;
    this.version++;
    const cand = this.cand;
    let units = this.unscanned | UNIT_BITS[c]!;
    const base = c * 20;
    for (let k = 0; k < 20; k++) {
      const p = PEERS[base + k]!;
      const m = cand[p]!;
      if ((m & off) === m) continue;
      cand[p] = m & off;
      units |= UNIT_BITS[p]!;
    }
    this.unscanned = units;
  }

  copyFrom(other: Grid): void {
    this.cells.set(other.cells);
    this.cand.set(other.cand);
    this.empty = other.empty;
    this.version++;
  }

  /** Whether an empty cell has run out of candidates (only after an unsound step or a wrong guess). */
  broken(): boolean {
    for (let c = 0; c < 81; c++) if (this.cells[c] === 0 && this.cand[c] === 0) return true;
    return false;
  }

  /** The digit of a cell whose candidates are down to one, else 0. */
  single(c: number): number {
    const m = this.cand[c]!;
    return POPCOUNT[m] === 1 ? DIGIT[m]! : 0;
  }
}

/** A candidate as one number: cell * 9 + digit - 1, so eliminations are a plain number list. */
export const candidate = (cell: number, digit: number): number => cell * 9 + digit - 1;
export const candidateCell = (k: number): number => (k / 9) | 0;
export const candidateDigit = (k: number): number => (k % 9) + 1;
