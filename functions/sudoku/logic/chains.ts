// Alternating inference chains over candidates (a candidate = a digit in a cell). A strong
// link A = B means "if A is false, B is true" (a cell with two candidates, or a unit where a
// digit has two places); a weak link A - B means "if A is true, B is false" (same cell, or the
// same digit in cells that see each other). A chain S = . - . = ... = E that starts and ends
// with strong links proves "S or E": every candidate weakly linked to both is false.
// X-chains are the chains of one digit, with unit links only.
//
// The search is breadth-first from every start, so each start's first find is its shortest
// chain, and a later start only looks as deep as the best chain so far. Both link graphs are
// built once per search as flat adjacency arrays over the candidates present; visits are
// marked with a stamp, never cleared, so a search allocates only the step it returns.
import { PEERS, POPCOUNT, rc } from './geometry.js';
import { type Changes, EVERYTHING } from './changes.js';
import { candidateCell, candidateDigit, type Grid } from './grid.js';
import { computePlaces, conjugate, unitsOf } from './places.js';
import { explaining, type Step } from './step.js';

export const X_CHAIN = 6.6;
export const AIC = 7.0;
/** Links beyond this are not searched: chains so long are no longer a person's technique. */
const MAX_LINKS = 15;

/** Sudoku Explainer's length bonus: +0.1 each time the length passes 4, 6, 8, 12, 16, 24, ... */
export function lengthBonus(length: number): number {
  let added = 0;
  let ceil = 4;
  let odd = false;
  while (length > ceil) {
    added++;
    ceil = odd ? ((ceil * 4) / 3) | 0 : ((ceil * 3) / 2) | 0;
    odd = !odd;
  }
  return added / 10;
}

// Adjacency over candidate numbers (cell * 9 + digit - 1): strong links at most 4 per candidate
// (its cell, row, column, box), weak links at most 8 + 20.
// Unit links come first in each list, so an X-chain reads the prefix (strongUnits, weakPeers).
const strong = new Int16Array(729 * 4);
const strongUnits = new Uint8Array(729);
const strongAll = new Uint8Array(729);
const weak = new Int16Array(729 * 28);
const weakPeers = new Uint8Array(729);
const weakAll = new Uint8Array(729);
/** The counts the current search reads: the prefixes for X-chains, everything for AICs. */
let strongCount = strongAll;
let weakCount = weakAll;
// BFS over states candidate * 2 + polarity (1 = true, 0 = false).
const parent = new Int16Array(729 * 2);
const depth = new Int8Array(729 * 2);
const queue = new Int16Array(729 * 2);
const seen = new Int32Array(729 * 2);
const nearStart = new Int32Array(729);
let stamp = 0;
let linksFor: Grid | null = null;
let linksVersion = -1;

/** Both link graphs of the grid; an AIC search after a failed X-chain search at the same stall reuses them. */
function buildLinks(g: Grid): void {
  if (linksFor === g && linksVersion === g.version) return;
  linksFor = g;
  linksVersion = g.version;
  const cand = g.cand;
  computePlaces(g);
  for (let c = 0; c < 81; c++) {
    const m = cand[c]!;
    if (m === 0) continue;
    for (let b = m; b; b &= b - 1) {
      const d0 = 31 - Math.clz32(b & -b);
      const k = c * 9 + d0;
      let s = 0;
      for (let i = 0; i < 3; i++) {
        const other = conjugate(unitsOf(c, i), d0, c);
        if (other < 0) continue;
        const to = other * 9 + d0;
        let dup = false;
        for (let j = 0; j < s; j++) if (strong[k * 4 + j] === to) dup = true;
        if (!dup) strong[k * 4 + s++] = to;
      }
      strongUnits[k] = s;
      if (POPCOUNT[m] === 2) strong[k * 4 + s++] = c * 9 + (31 - Math.clz32(m & ~(1 << d0)));
      strongAll[k] = s;
      let w = 0;
      const bit = 1 << d0;
      for (let j = 0; j < 20; j++) {
        const p = PEERS[c * 20 + j]!;
        if (cand[p]! & bit) weak[k * 28 + w++] = p * 9 + d0;
      }
      weakPeers[k] = w;
      for (let o = m & ~bit; o; o &= o - 1) weak[k * 28 + w++] = c * 9 + 31 - Math.clz32(o & -o);
      weakAll[k] = w;
    }
  }
}

/** Whether a candidate other than s and e is weakly linked to both (nearStart marks s's links). */
function eliminates(s: number, e: number, mark: number): boolean {
  for (let i = 0; i < weakCount[e]!; i++) {
    const x = weak[e * 28 + i]!;
    if (x !== s && nearStart[x] === mark) return true;
  }
  return false;
}

/** The shortest chain from `s` (assumed false) to a true candidate that eliminates something: its last state, or -1. */
function searchFrom(s: number, maxLinks: number): number {
  const mark = ++stamp;
  for (let i = 0; i < weakCount[s]!; i++) nearStart[weak[s * 28 + i]!] = mark;
  let head = 0;
  let tail = 0;
  const start = s * 2;
  seen[start] = mark;
  parent[start] = start;
  depth[start] = 0;
  queue[tail++] = start;
  while (head < tail) {
    const node = queue[head++]!;
    const k = node >> 1;
    const links = depth[node]!;
    if (node & 1) {
      // A weak link leads to a false candidate, which is only worth queueing if a strong link
      // from it still fits: a chain ends on a strong link. (Expanding the last level for nothing
      // was most of a bounded search's work.)
      if (links + 2 > maxLinks) continue;
      for (let i = 0; i < weakCount[k]!; i++) {
        const to = weak[k * 28 + i]! * 2;
        if (seen[to] === mark) continue;
        seen[to] = mark;
        parent[to] = node;
        depth[to] = links + 1;
        queue[tail++] = to;
      }
    } else {
      if (links >= maxLinks) continue;
      for (let i = 0; i < strongCount[k]!; i++) {
        const to = strong[k * 4 + i]! * 2 + 1;
        if (seen[to] === mark) continue;
        seen[to] = mark;
        parent[to] = node;
        depth[to] = links + 1;
        // Tested as it is queued rather than as it leaves the queue: the queue is first in,
        // first out, so the first end found is the same, without expanding the rest of the level.
        if (to >> 1 !== s && eliminates(s, to >> 1, mark)) return to;
        queue[tail++] = to;
      }
    }
  }
  return -1;
}

/** The chain ending at `end`, first candidate first (read before the next search). */
function chainTo(end: number): number[] {
  const chain: number[] = [];
  for (let n = end; ; n = parent[n]!) {
    chain.push(n >> 1);
    if (parent[n] === n) break;
  }
  return chain.reverse();
}

/** Candidates weakly linked to both ends. */
function targets(s: number, e: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < weakCount[e]!; i++) {
    const x = weak[e * 28 + i]!;
    if (x === s) continue;
    for (let j = 0; j < weakCount[s]!; j++) {
      if (weak[s * 28 + j] === x) {
        out.push(x);
        break;
      }
    }
  }
  return out.sort((a, b) => a - b);
}

interface Found {
  chain: number[];
  eliminations: number[];
}

function find(g: Grid, xChain: boolean, changes: Readonly<Changes>): Found | null {
  buildLinks(g);
  strongCount = xChain ? strongUnits : strongAll;
  weakCount = xChain ? weakPeers : weakAll;
  let best: Found | null = null;
  let limit = MAX_LINKS;
  for (let c = 0; c < 81; c++) {
    for (let b = g.cand[c]!; b; b &= b - 1) {
      const d0 = 31 - Math.clz32(b & -b);
      const s = c * 9 + d0;
      if (strongCount[s] === 0) continue;
      // An X-chain's links, and the candidates it removes, are all of its start's digit: on a
      // plane that did not change, no start finds one, whatever the bound.
      if (xChain && !(changes.digits & (1 << d0))) continue;
      const end = searchFrom(s, limit);
      if (end < 0) continue;
      const chain = chainTo(end);
      best = { chain, eliminations: targets(s, end >> 1) };
      limit = chain.length - 2;
      // Later starts look for strictly shorter chains, and below three links there is none that
      // removes anything: a one-link chain is a strong link S = E, and nothing is weakly linked to
      // both ends (a bivalue cell's two digits share no weak neighbour; a conjugate pair's common
      // peers are outside its unit only when the pair sits in one box and one line, which is
      // locked candidates, tried at this stall before any chain). So three links end the search.
      if (limit <= 2) return best;
    }
  }
  return best;
}

function describe(chain: number[]): string {
  const node = (k: number) => `${rc(candidateCell(k))}=${candidateDigit(k)}`;
  const parts: string[] = [`if ${node(chain[0]!)} is false, then ${node(chain[1]!)} is true`];
  for (let i = 2; i < chain.length; i += 2) {
    parts.push(`so ${node(chain[i]!)} is false, so ${node(chain[i + 1]!)} is true`);
  }
  return parts.join(', ');
}

function toStep(found: Found, xChain: boolean): Step {
  const { chain, eliminations } = found;
  const s = chain[0]!;
  const e = chain[chain.length - 1]!;
  const killed = eliminations.map((k) => `${rc(candidateCell(k))}=${candidateDigit(k)}`).join(', ');
  const title = xChain ? `X-chain on ${candidateDigit(s)}` : 'Chain';
  return {
    technique: xChain ? 'x-chain' : 'aic',
    score: Math.round(((xChain ? X_CHAIN : AIC) + lengthBonus(chain.length - 2)) * 10) / 10,
    cells: [...new Set(chain.map(candidateCell))],
    eliminations,
    placement: -1,
    message: !explaining.on
      ? ''
      : `${title}: ${describe(chain)}. So ${rc(candidateCell(s))}=${candidateDigit(s)} or ${rc(candidateCell(e))}=${candidateDigit(e)} is true, and ${killed} (which would make both false) cannot be.`,
  };
}

export function findXChain(g: Grid, changes: Readonly<Changes> = EVERYTHING): Step | null {
  const best = find(g, true, changes);
  return best ? toStep(best, true) : null;
}

export function findAIC(g: Grid): Step | null {
  // An AIC runs through every digit: it always searches the whole grid.
  const best = find(g, false, EVERYTHING);
  return best ? toStep(best, false) : null;
}
