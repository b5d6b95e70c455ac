// The logical solver's state: the digits placed so far and, per empty cell, its candidates as
// a 9-bit mask (bit d-1 = digit d may still go there). Uint16Array rather than objects or Sets
// because every technique is a few AND/OR/popcount operations over these masks, and a board
// copy is two typed-array sets, with nothing for the garbage collector.
import { BOX, COL, DIGIT, PEERS, POPCOUNT, ROW } from './geometry.js';

export const ALL = 0x1ff;

/** UNIT_BITS[c]: c's row, column and box as bits of a 27-bit unit set (units as in geometry.ts). */
export const UNIT_BITS = new Int32Array(81);
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
   * outside this set has no hidden single (singles.ts). Placements and applyStep keep it; a
   * write to `cand` anywhere else must add the units it touched.
   */
  unscanned = 0x7ffffff;
  /** load's scratch: the digits each unit holds. */
  private readonly used = new Int32Array(27);

  /**
   * Start from a board's digits, with every empty cell's candidates pruned by its peers.
   * Returns false when two equal digits see each other or a cell is left with no candidate;
   * callers check the board with the fast search first, so false means a caller's bug.
   */
  load(board: ArrayLike<number>): boolean {
    // Each empty cell's candidates are what its row, column and box have not used: one pass to
    // collect the units' digits, one to mask, instead of 20 peer updates per given.
    this.version++;
    const cells = this.cells;
    const cand = this.cand;
    const used = this.used;
    used.fill(0);
    let empty = 81;
    for (let c = 0; c < 81; c++) {
      const d = board[c]!;
      cells[c] = d;
      if (d === 0) continue;
      const bit = 1 << (d - 1);
      const r = ROW[c]!;
      const k = 9 + COL[c]!;
      const b = 18 + BOX[c]!;
      if ((used[r]! | used[k]! | used[b]!) & bit) return false;
      used[r]! |= bit;
      used[k]! |= bit;
      used[b]! |= bit;
      empty--;
    }
    for (let c = 0; c < 81; c++) {
      if (cells[c] !== 0) {
        cand[c] = 0;
        continue;
      }
      const m = ALL & ~(used[ROW[c]!]! | used[9 + COL[c]!]! | used[18 + BOX[c]!]!);
      if (m === 0) return false;
      cand[c] = m;
    }
    this.empty = empty;
    this.unscanned = 0x7ffffff;
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
    this.unscanned = 0x7ffffff;
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
