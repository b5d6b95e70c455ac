import { solveFile } from './batch.js';
import { file, fileNote, refuseFile } from './dom.js';
import { clearMessages } from './grid.js';
import type { FileFormat } from './state.js';

/** Control characters other than tab, line ends and form feed: not lines of text. */
function isBinary(body: string): boolean {
  for (let i = 0; i < Math.min(body.length, 65536); i++) {
    const c = body.charCodeAt(i);
    if (c < 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) return true;
  }
  return false;
}

/** A chosen file: its format by name, read (gunzipped for .gz) in the browser, then solved as a batch. */
export function wireFileInput(): void {
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    // Cleared at once, so choosing the same file again (after editing it) sends it again.
    file.value = '';
    fileNote.textContent = '';
    clearMessages();
    const name = chosen.name;
    const lower = name.toLowerCase();
    const gz = lower.endsWith('.gz');
    const inner = gz ? lower.slice(0, -3) : lower;
    const format: FileFormat | '' = inner.endsWith('.csv')
      ? 'csv'
      : inner.endsWith('.txt') || !/\.[a-z0-9]+$/.test(inner)
        ? 'txt'
        : '';
    if (!format)
      return refuseFile(
        `${name} was not read: this page takes .txt (one puzzle a line) and .csv (a puzzle or quizzes column) files, each also as .gz. Other formats (.json, .jsonl) go to the API or to the bucket's incoming folder.`,
      );
    let body: string;
    try {
      const stream = gz ? chosen.stream().pipeThrough(new DecompressionStream('gzip')) : chosen.stream();
      body = await new Response(stream).text();
    } catch (error) {
      return refuseFile(
        `${name} was not read: it is not a gzip file (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    if (isBinary(body)) {
      return refuseFile(
        `${name} was not read: it holds binary data, not lines of text.${gz ? '' : ' A compressed file must end in .gz.'}`,
      );
    }
    await solveFile(body, name, format, gz);
  });
}
