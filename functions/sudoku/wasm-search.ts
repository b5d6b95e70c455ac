// The search, as seen from TypeScript: loads the WebAssembly kernel compiled from
// assembly/search.ts (its header explains the representation, the rules and the search order;
// docs/solver.md keeps the measurements) and passes boards in and out through its memory.
// Why WebAssembly: the same search runs 1.3-1.9x faster there than in TypeScript under V8.
import type { Cells } from './types.js';
import { SEARCH_KERNEL_BASE64 } from './search-kernel.generated.js';

/** The part of the WebAssembly API used here (neither lib ES2023 nor @types/node 20 declares it whole). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

interface SearchKernel {
  memory: { buffer: ArrayBuffer };
  cellsIn(): number;
  textIn(): number;
  cellsOut(): number;
  guesses(): number;
  searchCells(max: number, maxGuesses: number): number;
  searchExcluding(cell: number, digit: number, maxGuesses: number): number;
  searchText(max: number, maxGuesses: number): number;
}

// 4 KB, compiled synchronously at load (well under a millisecond): the core stays synchronous.
const kernel = new WebAssembly.Instance(
  new WebAssembly.Module(Uint8Array.from(atob(SEARCH_KERNEL_BASE64), (c) => c.charCodeAt(0))),
).exports as unknown as SearchKernel;
// The kernel allocates nothing, so its memory never grows and these views stay valid.
const cellsIn = new Uint8Array(kernel.memory.buffer, kernel.cellsIn(), 81);
const textIn = new Uint16Array(kernel.memory.buffer, kernel.textIn(), 81);
const cellsOut = new Uint8Array(kernel.memory.buffer, kernel.cellsOut(), 81);

/** searchText's answer when the text holds a character other than 1-9, '.' and '0'. */
const NOT_PLAIN_TEXT = -2;

/** Beyond this many guesses in all the search gives up (a few seconds): no input can hold a caller forever. */
export const MAX_GUESSES = 5_000_000;

/** What one count found. Filled in place when the caller passes one, so counting allocates nothing. */
export interface SearchResult {
  /** Solutions found, up to the limit; -1 when the search gave up. */
  count: number;
  /** Branching decisions made (0 = solved by propagation alone), over every attempt. */
  guesses: number;
}

/**
 * Count the solutions of `cells` up to `max` (1 or 2), writing the first one found into `out`
 * (nothing is written when there is none). Conflicting givens simply yield 0. Not re-entrant:
 * the kernel's state is shared and reused, so solving allocates nothing (but the result object
 * when none is passed).
 */
export function countSolutions(
  cells: Cells,
  max: number,
  out: Uint8Array,
  maxGuesses = MAX_GUESSES,
  result: SearchResult = { count: 0, guesses: 0 },
): SearchResult {
  cellsIn.set(cells);
  result.count = kernel.searchCells(max, maxGuesses);
  result.guesses = kernel.guesses();
  if (result.count > 0) out.set(cellsOut);
  return result;
}

/**
 * Whether `cells` has a solution with a digit other than `digit` at the empty `cell`: 1 (one is
 * found), 0 (none) or -1 (gave up after maxGuesses). When `cells` plus that given has exactly one
 * solution, 0 says removing the given keeps the puzzle unique, in one search that never visits the
 * known solution (counting to two must find it first and then exhaust the rest).
 */
export function countSolutionsWithout(cells: Cells, cell: number, digit: number, maxGuesses = MAX_GUESSES): number {
  cellsIn.set(cells);
  return kernel.searchExcluding(cell, digit, maxGuesses);
}

/**
 * countSolutions for an 81-character string of 1-9, '.' and '0' only: the givens are written
 * into `out`, then the first solution over them. Returns null, having searched nothing, when
 * `text` has any other character.
 */
export function countSolutionsOfText(
  text: string,
  max: number,
  out: Uint8Array,
  maxGuesses: number,
  result: SearchResult,
): SearchResult | null {
  for (let i = 0; i < 81; i++) textIn[i] = text.charCodeAt(i);
  const count = kernel.searchText(max, maxGuesses);
  if (count === NOT_PLAIN_TEXT) return null;
  out.set(cellsOut);
  result.count = count;
  result.guesses = kernel.guesses();
  return result;
}
