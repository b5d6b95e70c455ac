/**
 * The page at GET /, in a real browser (Debian's Chromium, driven by playwright-core) against the
 * real local system (`npm start`'s program on free ports). One browser for the file; a fresh
 * context (profile) per test. Skipped with a message when Chromium is absent, except under CI,
 * where that fails the run. Screenshots go to .local/test-artifacts/web/.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE, EASY, EASY_SOLUTION, HARD, HARD_SOLUTION, NO_SOLUTION, toDrawing } from '../helpers/boards.js';
import {
  artifactsDir,
  findChromium,
  launchChromium,
  root,
  startLocalSystem,
  type LocalSystem,
} from './local-system.js';

const chromiumPath = findChromium();
if (!chromiumPath && process.env.CI) {
  throw new Error('CI is set but Chromium is missing: .ci/run installs it (apt-get install -y chromium)');
}
if (!chromiumPath) {
  console.warn('test/web/browser.test.ts SKIPPED: no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)');
}

let system: LocalSystem;
let browser: Browser;

interface Opened {
  page: Page;
  context: BrowserContext;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Page errors and Content-Security-Policy violations. */
  errors: string[];
}
let opened: Opened[] = [];

/**
 * The page in a fresh profile. A first visit opens on a new puzzle; the tests but those of the
 * first visit start as a visitor who left the board empty (kept in localStorage), so the puzzle
 * they type or paste is the only one on the board.
 */
async function open(
  options: Parameters<Browser['newContext']>[0] = {},
  { firstVisit = false, path = '/' }: { firstVisit?: boolean; path?: string } = {},
): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 820 }, ...options });
  if (!firstVisit) {
    await context.addInitScript(() => {
      // Runs in the page (a DOM global, not in this file's Node types).
      type Store = { getItem(key: string): string | null; setItem(key: string, value: string): void };
      try {
        const storage = (globalThis as unknown as { localStorage: Store }).localStorage;
        if (storage.getItem('sudoku-page-v1') !== null) return;
        const empty = { values: Array(81).fill(''), kinds: Array(81).fill('given'), marks: Array(81).fill(0) };
        storage.setItem('sudoku-page-v1', JSON.stringify({ ...empty, mode: 'edit', elapsed: 0 }));
      } catch {
        // A document without storage (about:blank): nothing to keep.
      }
    });
  }
  // SUDOKU_WEB_WAIT_MS shortens waits (e.g. to run these tests quickly against an older page).
  context.setDefaultTimeout(Number(process.env.SUDOKU_WEB_WAIT_MS ?? 20_000));
  const page = await context.newPage();
  const entry: Opened = { page, context, requests: [], errors: [] };
  context.on('request', (request) => entry.requests.push(request.url()));
  page.on('pageerror', (error) => entry.errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) entry.errors.push(message.text());
  });
  opened.push(entry);
  await page.goto(`${system.url}${path}`);
  return entry;
}

const grid = (page: Page) => page.getByRole('grid');
const cellsOf = (page: Page) => grid(page).getByRole('gridcell');
const cellAt = (page: Page, row: number, col: number) => cellsOf(page).nth((row - 1) * 9 + (col - 1));
const pasteBox = (page: Page) => page.getByRole('textbox', { name: /puzzle/i });
const solveButton = (page: Page) => page.getByRole('button', { name: 'Solve', exact: true });

/** The board as 81 characters, '.' for an empty cell. */
async function readBoard(page: Page): Promise<string> {
  const texts = await cellsOf(page).allTextContents();
  expect(texts).toHaveLength(81);
  return texts.map((t) => t || '.').join('');
}

/** An attribute of the element that has the focus ('' when none). */
function focusedAttribute(page: Page, name: string): Promise<string> {
  return page
    .locator('body')
    .evaluate((body, attribute) => body.ownerDocument.activeElement?.getAttribute(attribute) ?? '', name);
}

async function invalidCells(page: Page): Promise<string[]> {
  return cellsOf(page).evaluateAll((cells) =>
    cells.flatMap((cell, i) =>
      cell.getAttribute('aria-invalid') === 'true' ? [`${Math.floor(i / 9) + 1},${(i % 9) + 1}`] : [],
    ),
  );
}

async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, name);
  // The whole page down to the end of <main> (the API notes below are left out).
  const main = (await page.locator('main').boundingBox())!;
  await page.screenshot({
    path: file,
    fullPage: true,
    clip: { x: 0, y: 0, width: page.viewportSize()!.width, height: main.y + main.height + 16 },
  });
  return file;
}

beforeAll(async () => {
  if (!chromiumPath) return;
  [system, browser] = await Promise.all([startLocalSystem(), launchChromium(chromiumPath)]);
});

afterAll(async () => {
  await browser?.close();
  await system?.stop();
});

afterEach(async () => {
  // Whatever the test did, nothing left the page's origin and nothing broke the CSP or threw.
  for (const { requests, errors, context } of opened) {
    const origin = new URL(system.url).origin;
    expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }
  opened = [];
});

describe.skipIf(!chromiumPath)('the web page in Chromium, against npm start', () => {
  it('is served as one gzip-compressed HTML page under a CSP that allows no other origin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${system.url}/`);
    const headers = response!.headers();
    expect(response!.status()).toBe(200);
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-encoding']).toBe('gzip');
    expect(headers.vary).toMatch(/accept-encoding/i);
    const csp = headers['content-security-policy']!;
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval|\*/);
    await expect(page.title()).resolves.toMatch(/Sudoku/);
    await context.close();
  });

  it('honours the accessible contract: title, paste box, Solve, a grid of 81 cells, an alert', async () => {
    const { page } = await open();
    expect(await page.title()).toContain('Sudoku');
    await expect(pasteBox(page).count()).resolves.toBe(1);
    await expect(solveButton(page).count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: /solve/i }).count()).resolves.toBe(1);
    await expect(grid(page).count()).resolves.toBe(1);
    await expect(cellsOf(page).count()).resolves.toBe(81);
    const labels = await cellsOf(page).evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
    labels.forEach((label, i) => {
      expect(label).toMatch(new RegExp(`^Row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1}: empty`));
    });
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    await expect(page.getByRole('status').count()).resolves.toBe(1);
    // The accessibility tree Chromium builds (what a screen reader reads) holds the same.
    const tree = await grid(page).ariaSnapshot();
    expect(tree).toMatch(/gridcell "Row 1, column 1: empty"/);
    expect(tree.match(/- row "Row \d"/g)).toHaveLength(9);
    // Links to the API description and the docs section; the description is served.
    const links = page.getByRole('link', { name: /OpenAPI description/ });
    expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).toEqual([
      'openapi.json',
      'openapi.json',
    ]);
    expect(await page.getByRole('link', { name: 'Use the API' }).getAttribute('href')).toBe('#api');
    const spec = await page.request.get(`${system.url}/openapi.json`);
    expect(((await spec.json()) as { paths: Record<string, unknown> }).paths).toHaveProperty('/');
  });

  it('types a puzzle with the keyboard alone, solves it with Enter, and shows givens apart from solved cells', async () => {
    const { page } = await open();
    // From the top of the page, Tab reaches the board after the two links of the header and the
    // new-puzzle controls (level, New puzzle).
    const stops: string[] = [];
    while (stops.length < 8 && (await focusedAttribute(page, 'role')) !== 'gridcell') {
      await page.keyboard.press('Tab');
      const href = await focusedAttribute(page, 'href');
      stops.push(href || (await focusedAttribute(page, 'id')));
    }
    expect(stops).toEqual(['#api', 'openapi.json', 'level', 'new', '']);
    expect(await focusedAttribute(page, 'aria-label')).toMatch(/^Row 1, column 1/);
    for (let r = 0; r < 9; r++) {
      for (let c = 0; c < 9; c++) {
        const ch = EASY[r * 9 + c]!;
        if (ch !== '.') await page.keyboard.press(ch);
        if (c < 8) await page.keyboard.press('ArrowRight');
      }
      if (r < 8) {
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Home');
      }
    }
    expect(await readBoard(page)).toBe(EASY);
    await expect(pasteBox(page).inputValue()).resolves.toBe(EASY);
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .getByText(/unique/)
      .waitFor();
    expect(await readBoard(page)).toBe(EASY_SOLUTION);
    const status = await page.getByRole('status').textContent();
    expect(status).toMatch(/Solved\. The solution is unique \(\d+ guess(es)?, [\d,]+ µs\)/);
    // Givens and solved cells look different (weight, colour) and say which they are.
    const given = cellAt(page, 1, 1);
    const solved = cellAt(page, 1, 3);
    expect(await given.getAttribute('aria-label')).toBe('Row 1, column 1: 5, given');
    expect(await solved.getAttribute('aria-label')).toBe('Row 1, column 3: 4, solved');
    const look = (cell: typeof given) =>
      cell.evaluate((el) => {
        const style = el.ownerDocument.defaultView!.getComputedStyle(el);
        return `${style.fontWeight} ${style.color} ${style.backgroundColor}`;
      });
    expect(await look(given)).not.toBe(await look(solved));
  });

  it('moves with the arrows, Home and End, stops at the edges, clears with Backspace, Delete, 0 and .', async () => {
    const { page } = await open();
    await cellAt(page, 5, 5).click();
    const focused = () => focusedAttribute(page, 'aria-label');
    const press = async (key: string) => page.keyboard.press(key);
    await press('ArrowUp');
    expect(await focused()).toMatch(/^Row 4, column 5/);
    await press('ArrowLeft');
    expect(await focused()).toMatch(/^Row 4, column 4/);
    await press('End');
    expect(await focused()).toMatch(/^Row 4, column 9/);
    await press('ArrowRight');
    expect(await focused()).toMatch(/^Row 4, column 9/);
    await press('Home');
    expect(await focused()).toMatch(/^Row 4, column 1/);
    await press('Control+End');
    expect(await focused()).toMatch(/^Row 9, column 9/);
    await press('ArrowDown');
    expect(await focused()).toMatch(/^Row 9, column 9/);
    await press('Control+Home');
    expect(await focused()).toMatch(/^Row 1, column 1/);
    // One tab stop for the whole grid (roving tabindex).
    const tabStops = await cellsOf(page).evaluateAll((cells) => cells.filter((c) => c.tabIndex === 0).length);
    expect(tabStops).toBe(1);
    for (const clear of ['Backspace', 'Delete', '0', '.']) {
      await press('7');
      expect(await cellAt(page, 1, 1).textContent()).toBe('7');
      await press(clear);
      expect(await cellAt(page, 1, 1).textContent(), clear).toBe('');
    }
    await press('x');
    expect(await readBoard(page)).toBe('.'.repeat(81));
    // Tab leaves the grid for the next control.
    await press('Tab');
    expect(await focusedAttribute(page, 'role')).not.toBe('gridcell');
  });

  it('solves a pasted grid drawn with | and - and saves a screenshot of the solved board', async () => {
    const { page } = await open();
    await pasteBox(page).fill(toDrawing(HARD));
    expect(await readBoard(page)).toBe(HARD);
    await solveButton(page).click();
    await page
      .getByRole('status')
      .getByText(/unique/)
      .waitFor();
    expect(await readBoard(page)).toBe(HARD_SOLUTION);
    expect(await page.getByRole('alert').textContent()).toBe('');
    const file = await screenshot(page, 'solved.png');
    // SUDOKU_UPDATE_DOCS_IMAGE=1 refreshes the README's picture from this run.
    if (process.env.SUDOKU_UPDATE_DOCS_IMAGE) copyFileSync(file, path.join(root, 'docs', 'web-page.png'));
  });

  it('lists every problem in the alert and marks its cells: both cells of a duplicate, a bad character', async () => {
    const { page } = await open();
    await pasteBox(page).fill(DUPLICATE);
    await solveButton(page).click();
    const alert = page.getByRole('alert');
    await alert.getByText(/twice/).first().waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('Digit 5 is given twice in the same row: at row 1, column 1 and at row 1, column 2.');
    expect(text).toContain('Digit 5 is given twice in the same box');
    expect(await alert.getByRole('listitem').count()).toBe(2);
    expect(await invalidCells(page)).toEqual(['1,1', '1,2']);
    expect(await cellAt(page, 1, 2).getAttribute('aria-label')).toMatch(/has a problem$/);
    await screenshot(page, 'error.png');

    // Editing the board clears the marks.
    await cellAt(page, 1, 2).click();
    await page.keyboard.press('Delete');
    expect(await invalidCells(page)).toEqual([]);
    expect(await alert.textContent()).toBe('');

    const bad = `${EASY.slice(0, 40)}x${EASY.slice(41)}`;
    await pasteBox(page).fill(bad);
    expect(await cellAt(page, 5, 5).textContent()).toBe('x');
    await solveButton(page).click();
    await alert.getByText(/row 5, column 5/).waitFor();
    expect(await invalidCells(page)).toEqual(['5,5']);

    await pasteBox(page).fill(EASY.slice(0, 80));
    await solveButton(page).click();
    await alert.getByText(/81 cells; this one has 80/).waitFor();
    expect(await invalidCells(page)).toEqual([]);
  });

  it('says so when a board has no solution, or more than one', async () => {
    const { page } = await open();
    await pasteBox(page).fill(NO_SOLUTION);
    await solveButton(page).click();
    await page
      .getByRole('alert')
      .getByText(/no solution/i)
      .first()
      .waitFor();

    await pasteBox(page).fill(`1${'.'.repeat(80)}`);
    await solveButton(page).click();
    await page
      .getByRole('status')
      .getByText(/more than one solution/)
      .waitFor();
    expect(await readBoard(page)).toMatch(/^1[1-9]{80}$/);
    expect(await page.getByRole('alert').textContent()).toBe('');
  });

  it('solves a file of puzzles as text/plain, line by line, and offers the answers for download', async () => {
    const { page } = await open();
    const lines = [EASY, '', DUPLICATE, HARD];
    const solveRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/solve')) solveRequests.push(request.headers()['content-type'] ?? '');
    });
    await page.getByLabel(/file of puzzles/).setInputFiles({
      name: 'puzzles.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${lines.join('\n')}\n`),
    });
    const list = page.getByRole('list', { name: 'Answers' });
    await list.waitFor();
    expect(solveRequests).toEqual(['text/plain; charset=utf-8']);
    const items = await list.getByRole('listitem').allTextContents();
    expect(items).toHaveLength(3);
    expect(items[0]).toContain(EASY_SOLUTION);
    expect(items[1]).toMatch(
      /^Could not solve: Digit 5 is given twice in the same row: at row 1, column 1 and at row 1, column 2\. Digit 5 is given twice in the same box/,
    );
    expect(items[2]).toContain(HARD_SOLUTION);
    expect(await page.getByText(/puzzles\.txt: 3 puzzles, 2 solved, 1 not/).count()).toBe(1);
    expect(await page.getByRole('alert').textContent()).toMatch(/1 of 3 puzzles could not be solved/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download the answers/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('puzzles.solved.txt');
    const saved = path.join(artifactsDir, 'answers.txt');
    await download.saveAs(saved);
    const { readFileSync } = await import('node:fs');
    const answers = readFileSync(saved, 'utf8').split('\n');
    expect(answers.slice(0, 4)).toEqual([EASY_SOLUTION, '', expect.stringMatching(/^error line 3: /), HARD_SOLUTION]);

    // A line of the batch can be shown on the board, its problems located.
    await page.getByRole('button', { name: 'Show line 3 on the board' }).click();
    await page
      .getByRole('alert')
      .getByText(/twice in the same row/)
      .waitFor();
    expect(await invalidCells(page)).toEqual(['1,1', '1,2']);
  });

  it('sends many puzzles pasted one a line as text/plain too', async () => {
    const { page } = await open();
    await pasteBox(page).fill(`${EASY}\n${HARD}\n`);
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/2 puzzles in the text box/);
    await solveButton(page).click();
    const list = page.getByRole('list', { name: 'Answers' });
    await list.waitFor();
    const items = await list.getByRole('listitem').allTextContents();
    expect(items.map((t) => t.slice(0, 81))).toEqual([EASY_SOLUTION, HARD_SOLUTION]);
  });

  it('fits a phone screen: the board within the width, cells big enough to tap, the digit pad fills them', async () => {
    const { page } = await open({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const box = (await grid(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(360);
    const cell = (await cellAt(page, 3, 3).boundingBox())!;
    expect(cell.width).toBeGreaterThanOrEqual(32);
    expect(cell.height).toBeGreaterThanOrEqual(32);
    await cellAt(page, 3, 3).tap();
    await page.getByRole('button', { name: '7', exact: true }).tap();
    expect(await cellAt(page, 3, 3).textContent()).toBe('7');
    await page.getByRole('button', { name: 'Erase the selected cell' }).tap();
    expect(await cellAt(page, 3, 3).textContent()).toBe('');
    await screenshot(page, 'phone.png');
  });
});

/** Whether the element's box lies within the viewport (what a person sees without scrolling). */
function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    // Within a pixel: scrolling lands on fractions of one.
    return box.height > 0 && box.top >= -1 && box.bottom <= el.ownerDocument.defaultView!.innerHeight + 1;
  });
}

/** Cells by their kind as their labels say it ('given', 'solved', 'yours'). */
async function kindsOf(page: Page): Promise<string[]> {
  const labels = await cellsOf(page).evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label') ?? ''));
  return labels.map((l) => /: (?:\d), (given|solved|yours)/.exec(l)?.[1] ?? 'empty');
}

const fileInput = (page: Page) => page.getByLabel(/file of puzzles/);
const lines = (n: number, at: Record<number, string> = {}) =>
  `${Array.from({ length: n }, (_, i) => at[i + 1] ?? EASY).join('\n')}\n`;

async function downloadOf(page: Page): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /Download the answers/ }).click(),
  ]);
  const saved = path.join(artifactsDir, `download-${download.suggestedFilename()}`);
  mkdirSync(artifactsDir, { recursive: true });
  await download.saveAs(saved);
  return { name: download.suggestedFilename(), bytes: readFileSync(saved) };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core run inside the page (evaluated through the DevTools protocol, so the page's CSP stays as served). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe and document are globals of the page, not of Node's types
    const page = globalThis as any;
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v: { id: string; nodes: { target: string[] }[] }) =>
        `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  });
  return found as string[];
}

const docsImage = (file: string, name: string) => {
  if (process.env.SUDOKU_UPDATE_DOCS_IMAGE) copyFileSync(file, path.join(root, 'docs', name));
};

describe.skipIf(!chromiumPath)('the faults a first visit found stay fixed', () => {
  it('Solve twice keeps the givens as givens (it used to turn all 81 cells into givens)', async () => {
    const { page } = await open();
    await pasteBox(page).fill(EASY);
    await solveButton(page).click();
    await page
      .getByRole('status')
      .getByText(/unique/)
      .waitFor();
    const once = await kindsOf(page);
    await solveButton(page).click();
    await page
      .getByRole('status')
      .getByText(/unique/)
      .waitFor();
    expect(await kindsOf(page)).toEqual(once);
    expect(once.filter((k) => k === 'given')).toHaveLength([...EASY].filter((c) => c !== '.').length);
    expect(await readBoard(page)).toBe(EASY_SOLUTION);
  });

  it('brings the answer and the error into view at 1280x800', async () => {
    const { page } = await open({ viewport: { width: 1280, height: 800 } });
    await pasteBox(page).fill(EASY);
    await cellAt(page, 1, 1).click();
    await page.evaluate('window.scrollTo(0, 0)');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .getByText(/unique/)
      .waitFor();
    await page.waitForTimeout(100);
    expect(await inViewport(page, '#status')).toBe(true);
    await pasteBox(page).fill(DUPLICATE);
    await cellAt(page, 1, 1).click();
    await page.evaluate('window.scrollTo(0, 0)');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText(/twice/).first().waitFor();
    await page.waitForTimeout(100);
    expect(await inViewport(page, '[role=alert]')).toBe(true);
  });

  it('says a refused file was refused, beside the file input, in view, and resets the input', async () => {
    const { page, requests } = await open({ viewport: { width: 1280, height: 800 } });
    const before = requests.length;
    await fileInput(page).setInputFiles({
      name: 'puzzles.json',
      mimeType: 'application/json',
      buffer: Buffer.from('[]'),
    });
    const note = page.getByText(/puzzles\.json was not read: this page takes \.txt .* and \.csv .*\.gz/);
    await note.waitFor();
    expect(await note.isVisible()).toBe(true);
    expect(
      await note.evaluate((el) => el.getBoundingClientRect().bottom <= el.ownerDocument.defaultView!.innerHeight),
    ).toBe(true);
    expect(await fileInput(page).inputValue()).toBe('');
    expect(requests.slice(before)).toEqual([]);
    // Binary data under a .txt name is refused too, not sent.
    await fileInput(page).setInputFiles({
      name: 'x.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from([0x1f, 0x8b, 8, 0, 1, 2]),
    });
    await page.getByText(/x\.txt was not read: it holds binary data/).waitFor();
  });

  it('solves a file over 1,000 puzzles in the page (no S3 command with a placeholder bucket)', async () => {
    const { page } = await open();
    await fileInput(page).setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from(lines(1001)) });
    await page.getByText(/big\.txt: 1,001 puzzles, 1,001 solved, 0 not/).waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/BUCKET|aws s3 cp/);
  });

  it('reads a .csv (puzzle column) and answers it as CSV with the solution, status and error columns', async () => {
    const { page } = await open();
    const csv = `id,quizzes\n1,${EASY}\n2,${DUPLICATE}\n3,${HARD}\n`;
    await fileInput(page).setInputFiles({ name: 'set.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByText(/set\.csv: 3 puzzles, 2 solved, 1 not/).waitFor();
    const { name, bytes } = await downloadOf(page);
    expect(name).toBe('set.solved.csv');
    const out = bytes.toString('utf8').split('\n');
    expect(out[0]).toBe('id,quizzes,solution,status,error');
    expect(out[1]).toBe(`1,${EASY},${EASY_SOLUTION},solved,`);
    expect(out[2]).toMatch(new RegExp(`^2,${DUPLICATE.replace(/\./g, '\\.')},,failed,"?DUPLICATE_IN_ROW`));
    expect(out[3]).toBe(`3,${HARD},${HARD_SOLUTION},solved,`);
  });

  it('downloads a .csv whose cells would start a formula with them neutralized, the solution as digits', async () => {
    const { page } = await open();
    const csv = `note,quizzes\n=1+2,${EASY}\n"@SUM(A1),x",${HARD}\n`;
    await fileInput(page).setInputFiles({ name: 'f.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByText(/f\.csv: 2 puzzles, 2 solved, 0 not/).waitFor();
    const out = (await downloadOf(page)).bytes.toString('utf8').split('\n');
    expect(out[1]).toBe(`"'=1+2",${EASY},${EASY_SOLUTION},solved,`);
    expect(out[2]).toBe(`"'@SUM(A1),x",${HARD},${HARD_SOLUTION},solved,`);
  });

  it('reads a .gz with DecompressionStream and offers the answers gzip-compressed', async () => {
    const { page } = await open();
    await fileInput(page).setInputFiles({
      name: 'p.txt.gz',
      mimeType: 'application/gzip',
      buffer: gzipSync(`${EASY}\n${HARD}\n`),
    });
    await page.getByText(/p\.txt\.gz: 2 puzzles, 2 solved, 0 not/).waitFor();
    const { name, bytes } = await downloadOf(page);
    expect(name).toBe('p.solved.txt.gz');
    expect(gunzipSync(bytes).toString('utf8')).toBe(`${EASY_SOLUTION}\n${HARD_SOLUTION}\n`);
  });

  it('"Show" on a far line brings the board into view, and Solve then sends the board shown', async () => {
    const { page } = await open({ viewport: { width: 1280, height: 800 } });
    await fileInput(page).setInputFiles({
      name: 'thousand.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(lines(1000, { 996: DUPLICATE })),
    });
    await page.getByText(/thousand\.txt: 1,000 puzzles/).waitFor();
    await page.getByRole('button', { name: 'Show line 996 on the board' }).click();
    await page
      .getByRole('alert')
      .getByText(/twice in the same row/)
      .waitFor();
    await page.waitForTimeout(100);
    expect(await inViewport(page, '#board')).toBe(true);
    expect(await readBoard(page)).toBe(DUPLICATE);
    const sent = page.waitForRequest((r) => r.url().endsWith('/solve'));
    await solveButton(page).click();
    expect((await sent).postDataJSON()).toEqual({ board: DUPLICATE });
  });

  it('says how many problems are not listed (problemsTotal), and says a long explanation once', async () => {
    const { page } = await open();
    await pasteBox(page).fill('hello world, this is not a sudoku');
    await solveButton(page).click();
    const alert = page.getByRole('alert');
    await alert.getByText(/more problems/).waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toMatch(/28 problems/);
    expect(text).toMatch(/and 18 more problems \(28 in all\)/);
    expect(text.match(/expected a digit 1-9/g)).toHaveLength(1);
  });

  it('lists a failed line of a batch once (not in the alert and again in the answers)', async () => {
    const { page } = await open();
    await fileInput(page).setInputFiles({
      name: 'two.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${EASY}\n${DUPLICATE}\n`),
    });
    await page.getByText(/two\.txt: 2 puzzles, 1 solved, 1 not/).waitFor();
    const body = await page.locator('main').textContent();
    expect(body!.match(/given twice in the same row/g)).toHaveLength(1);
  });

  it('Ctrl+V on a cell pastes a puzzle onto the board', async () => {
    const { page, context } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.url });
    await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(toDrawing(EASY))})`);
    await cellAt(page, 4, 4).click();
    await page.keyboard.press('Control+V');
    await expect.poll(() => readBoard(page)).toBe(EASY);
  });

  it('marks a repeated digit while typing, before any Solve', async () => {
    const { page, requests } = await open();
    const before = requests.length;
    await cellAt(page, 1, 1).click();
    await page.keyboard.press('5');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('5');
    expect(await invalidCells(page)).toEqual(['1,1', '1,2']);
    expect(await cellAt(page, 1, 2).getAttribute('aria-label')).toMatch(/5 is repeated in its row/);
    expect(await page.getByText(/Repeated: 5 twice in row 1/).count()).toBe(1);
    expect(requests.slice(before)).toEqual([]);
  });

  it('with forced colours, givens, solved cells and problems still look different', async () => {
    const { page } = await open();
    await page.emulateMedia({ forcedColors: 'active' });
    const look = (row: number, col: number) =>
      cellAt(page, row, col).evaluate((el) => {
        const s = el.ownerDocument.defaultView!.getComputedStyle(el);
        return [s.fontWeight, s.fontStyle, s.textDecorationLine, s.textDecorationStyle, s.outlineStyle].join(' ');
      });
    await pasteBox(page).fill(EASY);
    await solveButton(page).click();
    await page
      .getByRole('status')
      .getByText(/unique/)
      .waitFor();
    const given = await look(1, 5);
    const solved = await look(1, 3);
    await pasteBox(page).fill(DUPLICATE);
    await solveButton(page).click();
    await page.getByRole('alert').getByText(/twice/).first().waitFor();
    const problem = await look(1, 2);
    expect(new Set([given, solved, problem]).size).toBe(3);
  });

  it('has a dark theme when the system asks for one', async () => {
    const { page } = await open();
    await page.emulateMedia({ colorScheme: 'dark' });
    const luminance = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const [r, g, b] = el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor.match(/\d+/g)!.map(Number);
        return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
      });
    expect(await luminance('body')).toBeLessThan(0.2);
    expect(await luminance('#board')).toBeLessThan(0.3);
  });

  it('marks the current cell in another colour than the focus ring', async () => {
    const { page } = await open();
    await cellAt(page, 2, 2).click();
    await pasteBox(page).focus();
    const current = await cellAt(page, 2, 2).evaluate(
      (el) => el.ownerDocument.defaultView!.getComputedStyle(el).boxShadow,
    );
    await cellAt(page, 2, 2).focus();
    const ring = await cellAt(page, 2, 2).evaluate(
      (el) => el.ownerDocument.defaultView!.getComputedStyle(el).outlineColor,
    );
    expect(current).not.toBe('none');
    expect(current).not.toContain(ring);
  });

  it('does not tell phones about arrow keys', async () => {
    const { page } = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const help = (await page.locator('#board-help').textContent()) ?? '';
    expect(help).not.toMatch(/arrow/i);
    expect(help).toMatch(/tap/i);
  });

  it('never wraps an answer inside a row of nine digits on a phone', async () => {
    const { page } = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await fileInput(page).setInputFiles({
      name: 'p.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${EASY}\n${HARD}\n`),
    });
    const list = page.getByRole('list', { name: 'Answers' });
    await list.waitFor();
    const tops = await list
      .getByRole('listitem')
      .first()
      .evaluate((li) => {
        const out: number[] = [];
        const walker = li.ownerDocument.createTreeWalker(li, 4 /* NodeFilter.SHOW_TEXT */);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const t = node.textContent ?? '';
          for (let i = 0; i < t.length; i++) {
            if (!/\d/.test(t[i]!)) continue;
            const range = li.ownerDocument.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            out.push(Math.round(range.getBoundingClientRect().top));
          }
        }
        return out;
      });
    expect(tops.length).toBeGreaterThanOrEqual(81);
    for (let r = 0; r < 9; r++) expect(new Set(tops.slice(r * 9, r * 9 + 9)).size, `row ${r + 1}`).toBe(1);
    await screenshot(page, 'phone-answers.png');
  });

  it('the digit pad is one tab stop (arrows move within it), not ten', async () => {
    const { page } = await open();
    const stops = await page
      .locator('.pad button')
      .evaluateAll((buttons) => buttons.filter((b) => (b as unknown as { tabIndex: number }).tabIndex >= 0).length);
    expect(stops).toBe(1);
    await page.locator('.pad button').first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('2');
  });
});

/** New puzzle pressed (with Enter), and the real GET /puzzle's answer. */
async function startPuzzle(page: Page, level: string): Promise<{ puzzle: string; solution: string; level: string }> {
  await page.getByLabel('Level').selectOption(level);
  const answered = page.waitForResponse((r) => r.url().includes('/puzzle?') && r.status() === 200);
  await page.getByRole('button', { name: 'New puzzle' }).press('Enter');
  const body = (await (await answered).json()) as { puzzle: string; solution: string; level: string };
  await page.getByText(new RegExp(`Difficulty: ${level}`)).waitFor();
  return body;
}

/** An empty cell and a digit that breaks no rule there yet is not the solution's: an entry only Check can find wrong. */
function wrongButLegal(board: string, solution: string, skip: number[] = []): { index: number; digit: string } {
  for (let i = 0; i < 81; i++) {
    if (board[i] !== '.' || skip.includes(i)) continue;
    const r = Math.floor(i / 9);
    const c = i % 9;
    const seen = new Set<string>();
    for (let j = 0; j < 81; j++) {
      const rj = Math.floor(j / 9);
      const cj = j % 9;
      const box = Math.floor(rj / 3) === Math.floor(r / 3) && Math.floor(cj / 3) === Math.floor(c / 3);
      if (rj === r || cj === c || box) seen.add(board[j]!);
    }
    const digit = [...'123456789'].find((d) => !seen.has(d) && d !== solution[i]);
    if (digit) return { index: i, digit };
  }
  throw new Error('no cell takes a wrong digit without breaking a rule');
}

describe.skipIf(!chromiumPath)('a place to play, against the real toolkit routes', () => {
  it('new puzzle by level, difficulty, a hint with its cells and sentence, check, and finish: keyboard alone, phone-sized', async () => {
    const { page } = await open({ viewport: { width: 390, height: 844 } });
    const { puzzle, solution } = await startPuzzle(page, 'medium');
    expect(await readBoard(page)).toBe(puzzle);
    // A hint: its cells highlighted, its sentence shown, its placement offered.
    await page.getByRole('button', { name: 'Hint', exact: true }).press('Enter');
    await page
      .getByRole('status')
      .getByText(/^Hint: \S/)
      .waitFor();
    const hinted = await cellsOf(page).evaluateAll((cells) =>
      cells.flatMap((c, i) => (c.classList.contains('hinted') ? [i] : [])),
    );
    expect(hinted.length).toBeGreaterThan(0);
    await screenshot(page, 'hint.png').then((f) => docsImage(f, 'web-hint.png'));
    const placeButton = page.getByRole('button', { name: /^Place \d at row \d, column \d$/ });
    const [, digit, row, col] = /Place (\d) at row (\d), column (\d)/
      .exec((await placeButton.textContent())!)!
      .map(Number);
    const placed = (row! - 1) * 9 + col! - 1;
    expect(hinted).toContain(placed);
    expect(solution[placed]).toBe(String(digit));
    await placeButton.press('Enter');
    expect(await cellAt(page, row!, col!).getAttribute('aria-label')).toBe(
      `Row ${row}, column ${col}: ${digit}, yours`,
    );
    // A wrong entry that breaks no rule; Check marks it, and only it.
    const wrong = wrongButLegal(await readBoard(page), solution);
    await cellsOf(page).nth(wrong.index).focus();
    await page.keyboard.press(wrong.digit);
    await page.getByRole('button', { name: 'Check' }).press('Enter');
    await page
      .getByRole('alert')
      .getByText(/1 entry is wrong/)
      .waitFor();
    expect(await invalidCells(page)).toEqual([`${Math.floor(wrong.index / 9) + 1},${(wrong.index % 9) + 1}`]);
    // Finish with the keyboard: every cell gets the solution's digit.
    await cellsOf(page).nth(wrong.index).focus();
    await page.keyboard.press(solution[wrong.index]!);
    const board = await readBoard(page);
    await cellAt(page, 1, 1).focus();
    for (let i = 0; i < 81; i++) {
      if (board[i] === '.') await page.keyboard.press(solution[i]!);
      if (i % 9 < 8) await page.keyboard.press('ArrowRight');
      else if (i < 80) {
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Home');
      }
    }
    expect(await readBoard(page)).toBe(solution);
    await page
      .getByRole('status')
      .getByText(/Finished in \d+:\d\d/)
      .waitFor();
    expect(await page.getByRole('timer').textContent()).toMatch(/^\d+:\d\d$/);
  });

  it('a hint on a board with a wrong entry marks the entry (422 CONTRADICTS_SOLUTION)', async () => {
    const { page } = await open();
    const { puzzle, solution } = await startPuzzle(page, 'easy');
    const wrong = wrongButLegal(puzzle, solution);
    await cellsOf(page).nth(wrong.index).focus();
    await page.keyboard.press(wrong.digit);
    const answered = page.waitForResponse((r) => r.url().endsWith('/hint') && r.status() !== 429);
    await page.getByRole('button', { name: 'Hint', exact: true }).click();
    const problem = (await (await answered).json()) as { problems: { code: string }[] };
    expect(problem.problems[0]!.code).toBe('CONTRADICTS_SOLUTION');
    await expect
      .poll(() => invalidCells(page))
      .toEqual([`${Math.floor(wrong.index / 9) + 1},${(wrong.index % 9) + 1}`]);
  });

  it('on a server without the toolkit routes (answered 404 here), New puzzle and Hint are disabled with a word why', async () => {
    const { page, context } = await open();
    await context.route(/\/(puzzle\?|hint$|grade$)/, (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'tag:sudoku-serverless,2026:problem:not-found', title: 'Not Found', status: 404 }),
      }),
    );
    await page.getByRole('button', { name: 'New puzzle' }).click();
    await page
      .getByRole('status')
      .getByText(/A new puzzle is not available on this server yet/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'New puzzle' }).isDisabled()).toBe(true);
    await pasteBox(page).fill(EASY);
    await page.getByRole('button', { name: 'Hint', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/A hint is not available on this server yet/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Hint', exact: true }).isDisabled()).toBe(true);
    await solveButton(page).click();
    await page.getByText(/Difficulty: not graded by this server yet/).waitFor();
  });

  it('pencil marks, undo and redo, and highlighting of the row, column, box and equal digits', async () => {
    const { page } = await open();
    await cellAt(page, 1, 1).click();
    await page.keyboard.press('p');
    await page.keyboard.press('1');
    await page.keyboard.press('2');
    expect(await cellAt(page, 1, 1).textContent()).toBe('');
    expect(await cellAt(page, 1, 1).getAttribute('aria-label')).toMatch(/pencil marks 1 2/);
    await page.keyboard.press('p');
    await page.keyboard.press('5');
    expect(await cellAt(page, 1, 1).textContent()).toBe('5');
    await page.keyboard.press('Control+z');
    expect(await cellAt(page, 1, 1).textContent()).toBe('');
    expect(await cellAt(page, 1, 1).getAttribute('aria-label')).toMatch(/pencil marks 1 2/);
    await page.keyboard.press('Control+y');
    expect(await cellAt(page, 1, 1).textContent()).toBe('5');
    await page.getByRole('button', { name: 'Undo' }).click();
    expect(await cellAt(page, 1, 1).textContent()).toBe('');
    await page.getByRole('button', { name: 'Redo' }).click();
    expect(await cellAt(page, 1, 1).textContent()).toBe('5');
    // Another 5 elsewhere (no conflict); back on row 1, column 1: peers and the equal digit highlighted.
    await cellAt(page, 2, 5).click();
    await page.keyboard.press('5');
    await cellAt(page, 1, 1).click();
    const classes = (r: number, c: number) => cellAt(page, r, c).getAttribute('class');
    expect(await classes(2, 5)).toMatch(/\bsame\b/);
    expect(await classes(1, 9)).toMatch(/\bpeer\b/);
    expect(await classes(9, 1)).toMatch(/\bpeer\b/);
    expect(await classes(3, 3)).toMatch(/\bpeer\b/);
    expect(await classes(5, 5)).not.toMatch(/\bpeer\b|\bsame\b/);
  });

  it('keeps the board across a reload, shares it as ?board=, and prints the board alone', async () => {
    const { page, context } = await open();
    await pasteBox(page).fill(EASY);
    await page.getByRole('button', { name: 'Play this board' }).click();
    await cellAt(page, 1, 3).click();
    await page.keyboard.press('4');
    await page.reload();
    expect(await readBoard(page)).toBe(`534${EASY.slice(3)}`);
    expect(await cellAt(page, 1, 3).getAttribute('aria-label')).toBe('Row 1, column 3: 4, yours');
    await page.getByRole('button', { name: 'Share link' }).click();
    const link = await page.getByLabel('Link to this puzzle').inputValue();
    expect(link).toBe(`${system.url}/?board=${EASY}`);
    const other = await context.newPage();
    await other.goto(link);
    expect(await readBoard(other)).toBe(EASY);
    await other.close();
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header nav').isVisible()).toBe(false);
    expect(await page.locator('aside').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Solve', exact: true }).isVisible()).toBe(false);
    expect(await grid(page).isVisible()).toBe(true);
  });
  it('a first visit opens on a puzzle ready to play; a link that shares a board opens on that board instead', async () => {
    const { page, requests } = await open({}, { firstVisit: true });
    await page
      .getByRole('status')
      .getByText(/^New medium puzzle: fill the empty cells\.$/)
      .waitFor();
    const board = await readBoard(page);
    const givens = board.replace(/\./g, '').length;
    expect(givens).toBeGreaterThanOrEqual(17);
    expect(givens).toBeLessThan(81);
    expect(requests.filter((url) => /\/puzzle\?level=medium&seed=\d+$/.test(url))).toHaveLength(1);
    await page.getByText(/^Difficulty: medium/).waitFor();
    // Nothing to undo (the empty grid before it was never the player's), and the focus not taken.
    expect(await page.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);
    expect(await focusedAttribute(page, 'role')).toBe('');
    // Ready to play: the givens are locked, a digit in an empty cell is the player's.
    expect(await page.getByRole('button', { name: 'Play this board' }).isHidden()).toBe(true);
    const empty = board.indexOf('.');
    await cellAt(page, Math.floor(empty / 9) + 1, (empty % 9) + 1).click();
    await page.keyboard.press('5');
    expect(await cellAt(page, Math.floor(empty / 9) + 1, (empty % 9) + 1).getAttribute('aria-label')).toMatch(
      /: 5, yours/,
    );

    const shared = await open({}, { firstVisit: true, path: `/?board=${EASY}` });
    await shared.page.getByText('Puzzle from the link: fill the empty cells.').waitFor();
    expect(await readBoard(shared.page)).toBe(EASY);
    expect(await shared.page.getByRole('button', { name: 'Play this board' }).isHidden()).toBe(true);
    expect(shared.requests.filter((url) => url.includes('/puzzle?'))).toEqual([]);
  });
});

describe.skipIf(!chromiumPath)('files of any length, in the page', () => {
  it('solves 100,000 lines of .txt with a progress bar, in requests within the limits', {
    timeout: 240_000,
  }, async () => {
    const { page } = await open();
    const bodies: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/solve')) bodies.push((r.postData() ?? '').split('\n').filter(Boolean).length);
    });
    await fileInput(page).setInputFiles({
      name: 'hundred-k.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(lines(100_000, { 99999: DUPLICATE })),
    });
    await page.locator('#progress-box').waitFor();
    expect(await page.locator('#progress').getAttribute('max')).toBe('100000');
    await page.getByText(/hundred-k\.txt: 100,000 puzzles, 99,999 solved, 1 not/).waitFor({ timeout: 230_000 });
    expect(Math.max(...bodies)).toBeLessThanOrEqual(1000);
    expect(bodies.length).toBeGreaterThanOrEqual(100);
    expect(await page.getByRole('list', { name: 'Lines not solved' }).getByRole('listitem').count()).toBe(1);
    const { bytes } = await downloadOf(page);
    const out = bytes.toString('utf8').split('\n');
    expect(out).toHaveLength(100_001);
    expect(out[0]).toBe(EASY_SOLUTION);
    expect(out[99_998]).toMatch(/^error line 99999: DUPLICATE_IN_ROW/);
    expect(out[99_999]).toBe(EASY_SOLUTION);
  });

  it('solves a .csv.gz with progress', { timeout: 60_000 }, async () => {
    const { page } = await open();
    const csv = `quizzes,solutions\n${Array.from({ length: 5000 }, () => `${EASY},${EASY_SOLUTION}`).join('\n')}\n`;
    await fileInput(page).setInputFiles({ name: 'kaggle.csv.gz', mimeType: 'application/gzip', buffer: gzipSync(csv) });
    await page.getByText(/kaggle\.csv\.gz: 5,000 puzzles, 5,000 solved, 0 not/).waitFor({ timeout: 50_000 });
    expect(await page.locator('#progress').getAttribute('max')).toBe('5000');
    const { name, bytes } = await downloadOf(page);
    expect(name).toBe('kaggle.solved.csv.gz');
    const out = gunzipSync(bytes).toString('utf8').split('\n');
    expect(out[0]).toBe('quizzes,solutions,status,error');
    expect(out[5000]).toBe(`${EASY},${EASY_SOLUTION},solved,`);
  });

  it("waits out the API's 429s, and Cancel stops a run with the answers so far downloadable", {
    timeout: 120_000,
  }, async () => {
    const throttled = await startLocalSystem({ SUDOKU_LOCAL_RATE_LIMIT: '2', SUDOKU_LOCAL_BURST_LIMIT: '1' });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const statuses: number[] = [];
      page.on('response', (r) => {
        if (r.url().endsWith('/solve')) statuses.push(r.status());
      });
      await page.goto(`${throttled.url}/`);
      await fileInput(page).setInputFiles({
        name: 'four.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(lines(4000)),
      });
      await page.getByText(/four\.txt: 4,000 puzzles, 4,000 solved, 0 not/).waitFor({ timeout: 60_000 });
      expect(statuses).toContain(429);
      expect(await page.locator('#progress-text').textContent()).toMatch(/waited out the API's throttle/);

      await fileInput(page).setInputFiles({
        name: 'many.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(lines(40_000)),
      });
      await page.getByText(/many\.txt: [1-9][\d,]* of 40,000 lines answered/).waitFor({ timeout: 30_000 });
      docsImage(await screenshot(page, 'file-progress.png'), 'web-file.png');
      // The answers so far, while it runs: whole lines from the first, in order.
      const [partial] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the answers so far' }).click(),
      ]);
      expect(partial.suggestedFilename()).toBe('many.solved.txt');
      const soFar = readFileSync((await partial.path())!, 'utf8')
        .trimEnd()
        .split('\n');
      expect(soFar.length).toBeGreaterThanOrEqual(1000);
      expect(soFar.every((l) => l === EASY_SOLUTION)).toBe(true);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByText(/Cancelled after [\d,]+ of 40,000 lines/).waitFor();
      const { bytes } = await downloadOf(page);
      const out = bytes.toString('utf8').trimEnd().split('\n');
      expect(out.length).toBeGreaterThan(0);
      expect(out.length).toBeLessThan(40_000);
      expect(out.every((l) => l === EASY_SOLUTION)).toBe(true);
      await context.close();
    } finally {
      await throttled.stop();
    }
  });
});

describe.skipIf(!chromiumPath)('axe-core finds no violation in any state', () => {
  it('start, error, solved, hint shown, dark, forced colours', { timeout: 60_000 }, async () => {
    const { page } = await open({ viewport: { width: 1280, height: 800 } }, { firstVisit: true });
    await page.getByText(/^New medium puzzle/).waitFor();
    expect(await axeViolations(page), 'start').toEqual([]);
    await screenshot(page, 'start.png').then((f) => docsImage(f, 'web-start.png'));
    await pasteBox(page).fill(DUPLICATE);
    await solveButton(page).click();
    await page.getByRole('alert').getByText(/twice/).first().waitFor();
    expect(await axeViolations(page), 'error').toEqual([]);
    await screenshot(page, 'error.png').then((f) => docsImage(f, 'web-error.png'));
    await pasteBox(page).fill(EASY);
    await solveButton(page).click();
    await page
      .getByRole('status')
      .getByText(/unique/)
      .waitFor();
    expect(await axeViolations(page), 'solved').toEqual([]);
    await screenshot(page, 'solved.png').then((f) => docsImage(f, 'web-page.png'));
    await page.getByRole('button', { name: 'New puzzle' }).click();
    await page.getByText(/Difficulty:/).waitFor();
    await page.getByRole('button', { name: 'Hint', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/^Hint:/)
      .waitFor();
    expect(await axeViolations(page), 'hint').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page), 'dark').toEqual([]);
    await screenshot(page, 'dark.png').then((f) => docsImage(f, 'web-dark.png'));
    await page.emulateMedia({ colorScheme: 'light', forcedColors: 'active' });
    expect(await axeViolations(page), 'forced colours').toEqual([]);
  });
});
