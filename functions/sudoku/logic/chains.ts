// Alternating inference chains over candidates (a candidate = a digit in a cell). A strong
// link A = B means "if A is false, B is true" (a cell with two candidates, or a unit where a
// digit has two places); a weak link A - B means "if A is true, B is false" (same cell, or the
// same digit in cells that see each other). A chain S = . - . = ... = E that starts and ends
// with strong links proves "S or E": every candidate weakly linked to both is false.
// X-chains are the chains of one digit, with unit links only. The search is breadth-first
// from every start, so each start's first find is its shortest chain; a later start only
// looks as deep as the best chain so far (the hint then shows the shortest one found).
import { DIGIT, PEERS, POPCOUNT, rc, sees, UNIT_CELLS } from './geometry.js';
import { candidate, candidateCell, candidateDigit, type Grid } from './grid.js';
import type { Step } from './step.js';

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

// Strong links of every candidate, built once per search: STRONG[k*4 .. k*4+n) (a candidate has
// at most 4: its cell, row, column and box).
const strong = new Int16Array(729 * 4);
const strongCount = new Uint8Array(729);
// BFS state: parent per (candidate, polarity); polarity 1 = true, 0 = false.
const parent = new Int16Array(729 * 2);
const depth = new Int8Array(729 * 2);
const queue = new Int16Array(729 * 2);

function buildStrongLinks(g: Grid, digitOnly: number): void {
  strongCount.fill(0);
  for (let c = 0; c < 81; c++) {
    const m = g.cand[c]!;
    if (m === 0) continue;
    for (let d = 1; d <= 9; d++) {
      const bit = 1 << (d - 1);
      if (!(m & bit) || (digitOnly && d !== digitOnly)) continue;
      const k = candidate(c, d);
      const add = (to: number) => {
        for (let i = 0; i < strongCount[k]!; i++) if (strong[k * 4 + i] === to) return;
        strong[k * 4 + strongCount[k]!++] = to;
      };
      if (!digitOnly && POPCOUNT[m] === 2) add(candidate(c, DIGIT[m & ~bit]!));
      const units = [(c / 9) | 0, 9 + (c % 9), 18 + ((((c / 9) | 0) / 3) | 0) * 3 + (((c % 9) / 3) | 0)];
      for (const u of units) {
        let other = -1;
        let n = 0;
        for (let j = 0; j < 9; j++) {
          const o = UNIT_CELLS[u * 9 + j]!;
          if (g.cand[o]! & bit) {
            n++;
            if (o !== c) other = o;
          }
        }
        if (n === 2) add(candidate(other, d));
      }
    }
  }
}

/** Candidates weakly linked to both ends (cells seeing both, or the ends' own cells). */
function targets(g: Grid, s: number, e: number): number[] {
  const sc = candidateCell(s);
  const sd = candidateDigit(s);
  const ec = candidateCell(e);
  const ed = candidateDigit(e);
  const out: number[] = [];
  const has = (c: number, d: number) => (g.cand[c]! & (1 << (d - 1))) !== 0;
  if (sc === ec) {
    for (let d = 1; d <= 9; d++) if (d !== sd && d !== ed && has(sc, d)) out.push(candidate(sc, d));
  } else if (sd === ed) {
    for (let k = 0; k < 20; k++) {
      const c = PEERS[sc * 20 + k]!;
      if (c !== ec && sees(c, ec) && has(c, sd)) out.push(candidate(c, sd));
    }
  } else if (sees(sc, ec)) {
    if (has(ec, sd)) out.push(candidate(ec, sd));
    if (has(sc, ed)) out.push(candidate(sc, ed));
  }
  return out;
}

interface Found {
  chain: number[];
  eliminations: number[];
}

/** Shortest chain from `s` (assumed false) to a true candidate that eliminates something. */
function searchFrom(g: Grid, s: number, digitOnly: number, maxLinks: number): Found | null {
  parent.fill(-1);
  let head = 0;
  let tail = 0;
  const start = s * 2;
  parent[start] = start;
  depth[start] = 0;
  queue[tail++] = start;
  while (head < tail) {
    const node = queue[head++]!;
    const k = node >> 1;
    const on = node & 1;
    const links = depth[node]!;
    if (on && k !== s) {
      const eliminations = targets(g, s, k);
      if (eliminations.length) {
        const chain: number[] = [];
        for (let n = node; ; n = parent[n]!) {
          chain.push(n >> 1);
          if (n === start) break;
        }
        return { chain: chain.reverse(), eliminations };
      }
    }
    if (links >= maxLinks) continue;
    const visit = (to: number) => {
      if (parent[to] !== -1) return;
      parent[to] = node;
      depth[to] = links + 1;
      queue[tail++] = to;
    };
    if (!on) {
      for (let i = 0; i < strongCount[k]!; i++) visit(strong[k * 4 + i]! * 2 + 1);
      continue;
    }
    const c = candidateCell(k);
    const d = candidateDigit(k);
    const bit = 1 << (d - 1);
    if (!digitOnly) {
      const m = g.cand[c]!;
      for (let o = 1; o <= 9; o++) if (o !== d && m & (1 << (o - 1))) visit(candidate(c, o) * 2);
    }
    for (let j = 0; j < 20; j++) {
      const p = PEERS[c * 20 + j]!;
      if (g.cand[p]! & bit) visit(candidate(p, d) * 2);
    }
  }
  return null;
}

function describe(chain: number[]): string {
  const node = (k: number) => `${rc(candidateCell(k))}=${candidateDigit(k)}`;
  const parts: string[] = [`if ${node(chain[0]!)} is false, then ${node(chain[1]!)} is true`];
  for (let i = 2; i < chain.length; i += 2) {
    parts.push(`so ${node(chain[i]!)} is false, so ${node(chain[i + 1]!)} is true`);
  }
  return parts.join(', ');
}

function find(g: Grid, digitOnly: number, best: { found: Found | null }): void {
  let limit = MAX_LINKS;
  buildStrongLinks(g, digitOnly);
  for (let s = 0; s < 729; s++) {
    if (strongCount[s] === 0) continue;
    if (digitOnly && candidateDigit(s) !== digitOnly) continue;
    const found = searchFrom(g, s, digitOnly, limit);
    if (found && (!best.found || found.chain.length < best.found.chain.length)) {
      best.found = found;
      limit = found.chain.length - 2;
      if (limit < 1) return;
    }
  }
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
    message: `${title}: ${describe(chain)}. So ${rc(candidateCell(s))}=${candidateDigit(s)} or ${rc(candidateCell(e))}=${candidateDigit(e)} is true, and ${killed} (which would make both false) cannot be.`,
  };
}

export function findXChain(g: Grid): Step | null {
  let bestStep: Found | null = null;
  for (let d = 1; d <= 9; d++) {
    const best: { found: Found | null } = { found: null };
    find(g, d, best);
    if (best.found && (!bestStep || best.found.chain.length < bestStep.chain.length)) bestStep = best.found;
  }
  return bestStep ? toStep(bestStep, true) : null;
}

export function findAIC(g: Grid): Step | null {
  const best: { found: Found | null } = { found: null };
  find(g, 0, best);
  return best.found ? toStep(best.found, false) : null;
}
