import { ERROR_LINE_START } from '../../formats/error-line.js';
import type { BatchRun } from './state.js';
import { csvField } from './csv.js';

/** The answers from the first line up to the first not answered yet (so line i still answers line i). */
function prefix(answers: (string | undefined)[]): string[] {
  // findIndex, not indexOf: the answers start as holes, which indexOf skips (chunks answered out
  // of order left holes in the middle, and the download held empty lines for them).
  // biome-ignore lint/complexity/useIndexOf: indexOf skips the holes this looks for (above)
  const n = answers.findIndex((a) => a === undefined);
  return (n < 0 ? answers : answers.slice(0, n)) as string[];
}

/** The answers' file name: the input's, `.solved` before its extension. */
export function outputName(run: BatchRun): string {
  const ext = run.format === 'csv' ? '.csv' : '.txt';
  const base = run.name === 'the text box' ? 'solutions' : run.name.replace(/(\.txt|\.csv)?(\.gz)?$/i, '');
  return `${base}.solved${ext}${run.gz ? '.gz' : ''}`;
}

/**
 * The answers so far as a file in the input's format: .txt line i answering line i, .csv with
 * solution, status and error columns (as the files function writes them), .gz compressed again.
 */
export async function download(run: BatchRun): Promise<void> {
  let out: string;
  if (run.format === 'csv' && run.header && run.parsed) {
    const header = [...run.header];
    const names = header.map((h) => h.trim().toLowerCase());
    const col = (wanted: string[], n: string) => {
      const at = names.findIndex((h) => wanted.includes(h));
      return at >= 0 ? at : header.push(n) - 1;
    };
    const sol = col(['solution', 'solutions'], 'solution');
    const st = col(['status'], 'status');
    const er = col(['error'], 'error');
    const lines = [header.map(csvField).join(',')];
    const answered = prefix(run.answers);
    run.parsed.slice(0, answered.length).forEach((fields, i) => {
      const a = answered[i] ?? '';
      const f = [...fields];
      while (f.length < header.length) f.push('');
      const error = a.startsWith('error ');
      f[sol] = error ? '' : a;
      f[st] = a === '' ? '' : error ? 'failed' : 'solved';
      f[er] = error ? a.replace(ERROR_LINE_START, '') : '';
      lines.push(f.map(csvField).join(','));
    });
    out = `${lines.join('\n')}\n`;
  } else {
    out = `${prefix(run.answers).join('\n')}\n`;
  }
  let blob = new Blob([out], { type: run.format === 'csv' ? 'text/csv' : 'text/plain' });
  if (run.gz) blob = await new Response(blob.stream().pipeThrough(new CompressionStream('gzip'))).blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = outputName(run);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
