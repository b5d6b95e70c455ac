/**
 * What one HTTP API request may cost, written once for the function (which enforces the budget)
 * and for infra (which sizes the stage throttle from the worst case). Figures and how they were
 * measured: docs/infra.md, "Bounded work per request".
 */

/**
 * Wall-clock time one API request may spend solving, after which it answers as it does when time
 * runs out (413 with what was solved; a board still searching gives up with 422 SEARCH_LIMIT). The
 * largest legitimate request, 1,000 of the hardest known puzzles counted to two, solves in about
 * 0.1 s on one x86 core: 250 ms leaves it 2.5x, and is 20 times shorter than the 5 s timeout.
 */
export const API_SOLVE_BUDGET_MS = 250;

/**
 * W: the longest any API request holds an execution, cold start (the init) included, in ms. The
 * hostile-request benchmark (`npm run bench -- hostile`, against the built bundle) measured at most
 * ~0.33 s here; the budget above is wall-clock time and does not grow on a slower CPU, but the rest
 * (Node's and the bundle's init, parsing a 1 MiB body, shaping the answer) does, so W keeps that
 * part doubled for the arm64 vCPU and Lambda's own init. The stage throttle is sized from it:
 * burst + rate x W <= reserved pool (infra/settings.ts).
 */
export const API_WORST_CASE_MS = 500;
