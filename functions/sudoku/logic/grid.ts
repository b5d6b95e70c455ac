// The logical solver's state: the digits placed so far and, per empty cell, its candidates as
// a 9-bit mask (bit d-1 = digit d may still go there). Uint16Array rather than objects or Sets
// because every technique is a few AND/OR/popcount operations over these masks, and a board
// copy is two typed-array sets, with nothing for the garbage collector.
import { BOX, DIGIT, PEERS, POPCOUNT } from './geometry.js';

export const ALL = 0x1ff;

/** NEAR_BOXES[c]: the boxes placing a digit at c can change (its band's and its stack's), 9 bits. */
const NEAR_BOXES = new Uint16Array(81);
for (let c = 0; c < 81; c++) {
  for (let b = 0; b < 9; b++) {
    if (((b / 3) | 0) === ((BOX[c]! / 3) | 0) || b % 3 === BOX[c]! % 3) NEAR_BOXES[c]! |= 1 << b;
  }
}

export class Grid {
  readonly cells = new Uint8Array(81);
  readonly cand = new Uint16Array(81);
  /** Empty cells left. */
  empty = 81;
  /** Bumped by every change, so tables derived from the candidates can be reused (places.ts). */
  version = 0;
  /** Boxes a placement touched since the singles loop last looked (singles.ts). */
  boxesTouched = 0;

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
    this.boxesTouched |= NEAR_BOXES[c]!;
    const base = c * 20;
    for (let k = 0; k < 20; k++) {
      const p = PEERS[base + k]!;
      this.cand[p]! &= off;
    }
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
