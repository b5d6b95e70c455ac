/** RFC 4180 fields: comma-separated, `"` quotes a field, `""` is a quote inside one. */

/** Whether `text` leaves a quoted field open (an odd number of quotes): the record goes on to the next line. */
export function hasOpenQuote(text: string): boolean {
  let open = false;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) open = !open;
  return open;
}

/** Split one complete record into its fields. Lenient: a stray quote inside an unquoted field is kept as is. */
export function parseCsvRecord(text: string): string[] {
  if (!text.includes('"')) return text.split(',');
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) === 34) {
      let value = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          value += text.slice(i);
          i = text.length;
          break;
        }
        value += text.slice(i, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      // Anything between the closing quote and the next comma belongs to the same field.
      const comma = text.indexOf(',', i);
      value += comma < 0 ? text.slice(i) : text.slice(i, comma);
      fields.push(value);
      if (comma < 0) return fields;
      i = comma + 1;
    } else {
      const comma = text.indexOf(',', i);
      if (comma < 0) {
        fields.push(text.slice(i));
        return fields;
      }
      fields.push(text.slice(i, comma));
      i = comma + 1;
    }
  }
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * First characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a
 * formula: OWASP's CSV injection list (=, +, -, @, tab, carriage return). An answer echoes the
 * user's cells, so a cell such as `=HYPERLINK(...)` would run in whoever opens the answer.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as a spreadsheet export writes it: one that would start a formula gets a single quote
 * before it (the spreadsheet shows it as text), as OWASP advises; formatCsvField also quotes it.
 * Digits, the solution column's only characters, never start a formula and pass unchanged. Pure,
 * so the page's downloads can use the same rule.
 */
export function neutralizeCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One field of an answer: a formula start neutralized (neutralizeCsvCell) and quoted, else quoted as RFC 4180 asks. */
export function formatCsvField(value: string): string {
  const cell = neutralizeCsvCell(value);
  return cell !== value || NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function formatCsvRecord(fields: readonly string[]): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) out += (i ? ',' : '') + formatCsvField(fields[i]!);
  return out;
}
