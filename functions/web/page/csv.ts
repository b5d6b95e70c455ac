/** A CSV field list (quotes as RFC 4180; a record on one line). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field.replace(/\r$/, ''));
  return out;
}

/**
 * One cell of a download: the files' own rule (functions/formats/csv-fields.ts), so a cell a
 * spreadsheet would run as a formula (= + - @ tab CR first) is neutralized here as in the bucket.
 */
export { formatCsvField as csvField } from '../../formats/csv-fields.js';
