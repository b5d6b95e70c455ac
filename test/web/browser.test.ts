/**
 * The page at GET /, in a real browser (Debian's Chromium, driven by playwright-core) against the
 * real local system (`npm start`'s program on free ports). One browser for the file; a fresh
 * context (profile) per test. Skipped with a message when Chromium is absent, except under CI,
 * where that fails the run. Screenshots go to .local/test-artifacts/web/.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
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

async function open(options: Parameters<Browser['newContext']>[0] = {}): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 820 }, ...options });
  const page = await context.newPage();
  const entry: Opened = { page, context, requests: [], errors: [] };
  context.on('request', (request) => entry.requests.push(request.url()));
  page.on('pageerror', (error) => entry.errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) entry.errors.push(message.text());
  });
  opened.push(entry);
  await page.goto(`${system.url}/`);
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
    // From the top of the page, Tab reaches the board after the two links of the header.
    const stops: string[] = [];
    while (stops.length < 6 && (await focusedAttribute(page, 'role')) !== 'gridcell') {
      await page.keyboard.press('Tab');
      stops.push(await focusedAttribute(page, 'href'));
    }
    expect(stops).toEqual(['#api', 'openapi.json', '']);
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
    expect(await page.getByRole('alert').textContent()).toMatch(/Line 3: Digit 5 is given twice in the same row/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the answers' }).click(),
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

  it("says to use S3, and how, for a file over the API's limits, without sending it", async () => {
    const { page, requests } = await open();
    const before = requests.length;
    await page.getByLabel(/file of puzzles/).setInputFiles({
      name: 'big.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${Array.from({ length: 1001 }, () => EASY).join('\n')}\n`),
    });
    const alert = page.getByRole('alert');
    await alert.getByText(/over the API's limits/).waitFor();
    expect(await alert.textContent()).toMatch(/1,001 puzzles.*aws s3 cp big\.txt s3:\/\/BUCKET\/incoming\/big\.txt/s);
    expect(requests.slice(before)).toEqual([]);
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
